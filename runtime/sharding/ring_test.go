package sharding

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("stable.example.com/CronTab/ns-%d/crontab-%d", i%7, i)
	}
	return out
}

func TestRingBalance(t *testing.T) {
	r := NewRing([]string{"a", "b", "c"}, 0)
	counts := map[string]int{}
	for _, k := range keys(30000) {
		counts[r.Owner(k)]++
	}
	for _, m := range []string{"a", "b", "c"} {
		// Each share within 15% of a third with the default virtual nodes.
		if share := float64(counts[m]) / 30000; share < 0.33*0.85 || share > 0.34*1.15 {
			t.Errorf("member %s owns %.3f of the keys: %v", m, share, counts)
		}
	}
}

func TestRingAddMovesAboutOneNth(t *testing.T) {
	before := NewRing([]string{"a", "b", "c"}, 0)
	after := NewRing([]string{"a", "b", "c", "d"}, 0)
	moved := 0
	ks := keys(20000)
	for _, k := range ks {
		o, n := before.Owner(k), after.Owner(k)
		if o != n {
			moved++
			if n != "d" {
				t.Fatalf("key %s moved from %s to %s, not to the new member", k, o, n)
			}
		}
	}
	if f := float64(moved) / float64(len(ks)); f < 0.18 || f > 0.32 {
		t.Errorf("adding a fourth member moved %.3f of the keys, want about 1/4", f)
	}
}

func TestRingDeterministicAndEmpty(t *testing.T) {
	a := NewRing([]string{"x", "y", "z", "y"}, 50)
	b := NewRing([]string{"z", "x", "y"}, 50)
	if !a.Equal(b) || a.Len() != 3 {
		t.Fatalf("rings differ: %v vs %v", a.Members(), b.Members())
	}
	for _, k := range keys(1000) {
		if a.Owner(k) != b.Owner(k) {
			t.Fatalf("key %s owned by %s and %s", k, a.Owner(k), b.Owner(k))
		}
	}
	if o := NewRing(nil, 0).Owner("k"); o != "" {
		t.Fatalf("empty ring owner = %q", o)
	}
	if a.Equal(NewRing([]string{"x", "y"}, 50)) {
		t.Fatal("rings with different members are equal")
	}
}

func TestHashKeyFollowsControllerOwner(t *testing.T) {
	crontab := schema.GroupKind{Group: "stable.example.com", Kind: "CronTab"}
	cronjob := schema.GroupKind{Group: "batch", Kind: "CronJob"}
	yes := true
	owned := &metav1.ObjectMeta{Namespace: "ns", Name: "job-1", OwnerReferences: []metav1.OwnerReference{
		{APIVersion: "v1", Kind: "ConfigMap", Name: "other"},
		{APIVersion: "stable.example.com/v1", Kind: "CronTab", Name: "tab", Controller: &yes},
	}}
	if got, want := HashKey(cronjob, owned, []schema.GroupKind{crontab}), "stable.example.com/CronTab/ns/tab"; got != want {
		t.Errorf("owned object's key = %q, want the owner's %q", got, want)
	}
	main := &metav1.ObjectMeta{Namespace: "ns", Name: "tab"}
	if got := HashKey(crontab, main, []schema.GroupKind{crontab}); got != "stable.example.com/CronTab/ns/tab" {
		t.Errorf("main object's key = %q", got)
	}
	orphan := &metav1.ObjectMeta{Namespace: "ns", Name: "job-2", OwnerReferences: []metav1.OwnerReference{
		{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", Controller: &yes}}}
	if got := HashKey(cronjob, orphan, []schema.GroupKind{crontab}); got != "batch/CronJob/ns/job-2" {
		t.Errorf("object controlled by an unsharded kind: key = %q, want its own", got)
	}
}

func TestNewValidates(t *testing.T) {
	base := func() Config {
		return Config{Ring: "crontabs", Identity: "pod-0", Namespace: "default", Leases: &fakeLeases{}, Metadata: newFakeMetadata(),
			Resources: []Resource{crontabs}}
	}
	for name, mutate := range map[string]func(*Config){
		"ring name":        func(c *Config) { c.Ring = "Bad_Ring" },
		"identity":         func(c *Config) { c.Identity = "" },
		"no resources":     func(c *Config) { c.Resources = nil },
		"renew too long":   func(c *Config) { c.RenewDeadline = 20 * 1e9 },
		"fractional lease": func(c *Config) { c.LeaseDuration = 1500 * 1e6 },
		"resource kind":    func(c *Config) { c.Resources = []Resource{{Resource: crontabs.Resource}} },
	} {
		c := base()
		mutate(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: New accepted %+v", name, c)
		}
	}
	if _, err := New(base()); err != nil {
		t.Fatal(err)
	}
}
