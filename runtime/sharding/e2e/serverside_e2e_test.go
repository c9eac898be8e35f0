package e2e_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/sharding"
)

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// newServerFleet is a fleet of replicas in the server-side mode, after checking that the server
// offers it for the items.
func newServerFleet(t *testing.T, prefix string, items int) *fleet {
	t.Helper()
	f := newFleet(t, prefix)
	f.mode = sharding.ServerMode
	f.create(items)
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	meta, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ok, err := sharding.SupportsServerMode(context.Background(), sharding.Config{Leases: cs.CoordinationV1().Leases(f.ns),
		Metadata: meta, ObjectNamespace: f.ns, Resources: []sharding.Resource{itemsRes}})
	if err != nil || !ok {
		t.Fatalf("SupportsServerMode on a server with ShardedListAndWatch = %v, %v", ok, err)
	}
	return f
}

func TestServerModeCachesItsShare(t *testing.T) {
	n := objectCount(2000)
	f := newServerFleet(t, "srv-share", n)
	for range 3 {
		f.start("")
	}
	took := f.waitConverged(3 * time.Minute)
	t.Logf("%d items reconciled by 3 replicas in the server-side mode in %v", n, took)
	limit := n/3 + n/30
	for _, r := range f.live() {
		got := r.cacheSize()
		t.Logf("%s caches %d of %d items (%.1f%%)", r.id, got, n, 100*float64(got)/float64(n))
		if got > limit {
			t.Errorf("%s caches %d items, more than %d", r.id, got, limit)
		}
	}
	cachesTheirShares(t, f)
	f.rec.check(t)
}

// cachesTheirShares checks that every live replica caches exactly the items its ranges hold.
func cachesTheirShares(t *testing.T, f *fleet) {
	t.Helper()
	for _, r := range f.live() {
		if got, want := r.cacheSize(), len(f.ownedBy(r.id)); got != want {
			t.Errorf("%s caches %d items, its share is %d", r.id, got, want)
		}
	}
}

func TestServerModeFailoverAndScaleOut(t *testing.T) {
	f := newServerFleet(t, "srv-failover", 160)
	for range 3 {
		f.start("")
	}
	f.waitConverged(time.Minute)
	for range 2 {
		dead := f.live()[0]
		f.start("")
		f.waitConverged(time.Minute)
		owned := f.ownedBy(dead.id)
		killedAt := time.Now()
		dead.kill()
		f.bump(owned)
		f.waitConverged(time.Minute)
		took := time.Since(killedAt)
		t.Logf("killed %s: its %d items were reconciled elsewhere within %v", dead.id, len(owned), took.Round(time.Millisecond))
		if took > failoverBound {
			t.Errorf("failover took %v, more than %v", took, failoverBound)
		}
	}
	before := len(f.list())
	added := f.start("")
	addedAt := time.Now()
	for len(f.ownedBy(added.id)) == 0 || added.cacheSize() != len(f.ownedBy(added.id)) {
		if time.Since(addedAt) > time.Minute {
			t.Fatalf("the added replica caches %d items, its share is %d", added.cacheSize(), len(f.ownedBy(added.id)))
		}
		time.Sleep(20 * time.Millisecond)
	}
	f.bump(f.ownedBy(added.id))
	f.waitConverged(time.Minute)
	checkAddedShare(t, f, added, before, time.Since(addedAt))
	cachesTheirShares(t, f)
	f.rec.check(t)
}

// TestServerModePausedPastItsLease: a replica paused past its Lease loses its share while paused and
// gets one back after it resumes, with no reconcile overlapping another replica's.
func TestServerModePausedPastItsLease(t *testing.T) {
	f := newServerFleet(t, "srv-pause", 150)
	for range 3 {
		f.start("")
	}
	f.waitConverged(time.Minute)
	paused := f.live()[1]
	owned := f.ownedBy(paused.id)
	pausedAt := time.Now()
	paused.pause()
	f.bump(owned)
	for {
		reconciled := 0
		for _, u := range f.list() {
			for _, name := range owned {
				if u.GetName() == name {
					v, _, _ := unstructured.NestedInt64(u.Object, "spec", "value")
					o, _, _ := unstructured.NestedInt64(u.Object, "status", "observed")
					if v == o {
						reconciled++
					}
				}
			}
		}
		if reconciled == len(owned) {
			break
		}
		if time.Since(pausedAt) > time.Minute {
			t.Fatalf("%d of the paused replica's %d items reconciled elsewhere", reconciled, len(owned))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("a paused replica's %d items were reconciled elsewhere within %v", len(owned), time.Since(pausedAt).Round(time.Millisecond))
	if paused.shard.IsMember() {
		t.Error("the paused replica still counts itself a member")
	}
	paused.resume()
	f.bump(nil)
	f.waitConverged(time.Minute)
	start := time.Now()
	for paused.cacheSize() == 0 || paused.cacheSize() != len(f.ownedBy(paused.id)) {
		if time.Since(start) > time.Minute {
			t.Fatalf("the resumed replica caches %d items, its share is %d", paused.cacheSize(), len(f.ownedBy(paused.id)))
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.bump(nil)
	f.waitConverged(time.Minute)
	f.rec.check(t)
}

// TestServerModeChaos is TestChaos in the server-side mode.
func TestServerModeChaos(t *testing.T) {
	chaos(t, newServerFleet(t, "srv-chaos", 120))
}

// TestServerModeWrongRing: a replica started with another ring name over the same items leaves them
// to the live ring, and takes them once that ring is gone.
func TestServerModeWrongRing(t *testing.T) {
	f := newServerFleet(t, "srv-misconfig", 100)
	a := f.start("a")
	f.start("b")
	f.waitConverged(time.Minute)
	f.startRing("w", f.ring+"-typo")
	// Its adoption loop runs with each renewal: after three, it has looked at the live ring's claims.
	waitLeaseRenewals(t, &fleet{ns: f.ns, ring: f.ring + "-typo"}, "w", 3)
	f.bump(nil)
	f.waitConverged(time.Minute)
	if n := f.rec.reconcilesBy("w"); n != 0 {
		t.Fatalf("the wrong ring's replica reconciled %d times beside a live ring", n)
	}
	a.stop()
	for _, r := range f.live() {
		if r.id == "b" {
			r.stop()
		}
	}
	// With the right ring gone, the wrong one takes every item.
	f.bump(nil)
	start := time.Now()
	for f.rec.reconcilesBy("w") == 0 || f.converged(nil) != "" {
		if time.Since(start) > time.Minute {
			t.Fatalf("the remaining ring did not take the items over: %s", f.converged(nil))
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the remaining ring took the items over within %v", time.Since(start).Round(time.Millisecond))
	f.rec.check(t)
}

// TestServerShardedListAndWatch lists and watches ConfigMaps, which kube-apiserver 1.37 shards and
// says so; custom resources and metadata-only lists are filtered without shard info, which the probe
// sees through by leaving out one object.
func TestServerShardedListAndWatch(t *testing.T) {
	ctx := context.Background()
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns := "serverside"
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	meta, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	client := meta.Resource(configMaps).Namespace(ns)
	create := func(first, n int) {
		var wg sync.WaitGroup
		for i := first; i < first+n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%04d", i)}}
				if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	// Typed lists echo shard info even for an empty collection.
	supported, err := sharding.ServerShardingSupported(ctx, sharding.UIDField, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return cs.CoreV1().ConfigMaps(ns).List(ctx, opts)
	})
	if err != nil || !supported {
		t.Fatalf("typed list: supported = %v, %v", supported, err)
	}
	// Metadata-only lists carry no shard info: an empty collection proves nothing, a full one does.
	metaList := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return client.List(ctx, opts)
	}
	if supported, err = sharding.ServerShardingSupported(ctx, sharding.UIDField, metaList); err != sharding.ErrUnprovable {
		t.Fatalf("empty metadata-only list: supported = %v, %v; want ErrUnprovable", supported, err)
	}
	create(0, 300)
	if supported, err = sharding.ServerShardingSupported(ctx, sharding.UIDField, metaList); err != nil || !supported {
		t.Fatalf("metadata-only list: supported = %v, %v", supported, err)
	}
	dyn, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	if supported, err = sharding.ServerShardingSupported(ctx, sharding.NamespaceField, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return dyn.Resource(configMaps).Namespace(ns).List(ctx, opts)
	}); err != nil || !supported {
		t.Fatalf("dynamic list by namespace: supported = %v, %v", supported, err)
	}

	p := sharding.NewPartition([]string{"a", "b", "c"})
	seen := map[string]string{}
	for _, m := range p.Members() {
		sel := sharding.ShardSelector(sharding.UIDField, p.Ranges(m))
		list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{ShardSelector: sel})
		if err != nil {
			t.Fatal(err)
		}
		if list.ShardInfo == nil || list.ShardInfo.Selector == "" {
			t.Fatalf("%s: the list carries no shard info", m)
		}
		for _, o := range list.Items {
			if owner := p.Owner(sharding.ServerHash(string(o.UID))); owner != m {
				t.Errorf("%s was listed for %s but belongs to %s", o.Name, m, owner)
			}
			if prev, dup := seen[o.Name]; dup {
				t.Errorf("%s listed for %s and %s", o.Name, prev, m)
			}
			seen[o.Name] = m
		}
		t.Logf("member %s: %d ranges (a %d-byte selector), %d of 300 items", m, len(p.Ranges(m)), len(sel), len(list.Items))
	}
	if len(seen) != 300 {
		t.Fatalf("the members' lists hold %d of 300 items", len(seen))
	}

	// A watch with a member's selector delivers only that member's new items.
	sel := sharding.ShardSelector(sharding.UIDField, p.Ranges("a"))
	w, err := client.Watch(ctx, metav1.ListOptions{ShardSelector: sel, ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	create(300, 60)
	want := 0
	all, err := client.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all.Items {
		if p.Owner(sharding.ServerHash(string(o.UID))) == "a" {
			want++
		}
	}
	got := 0
	timeout := time.After(30 * time.Second)
	for got < want {
		select {
		case ev := <-w.ResultChan():
			if ev.Type != watch.Added {
				continue
			}
			o := ev.Object.(*metav1.PartialObjectMetadata)
			if owner := p.Owner(sharding.ServerHash(string(o.UID))); owner != "a" {
				t.Fatalf("watch for a delivered %s, which belongs to %s", o.Name, owner)
			}
			got++
		case <-timeout:
			t.Fatalf("watch delivered %d of a's %d objects", got, want)
		}
	}
}
