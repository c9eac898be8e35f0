package cache

import (
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2/ktesting"
	clocktesting "k8s.io/utils/clock/testing"
)

func mutationPod(name, rv string, uid types.UID, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv, UID: uid},
		Spec:       corev1.PodSpec{NodeName: node},
	}
}

// newMutationCacheForTest returns a mutation cache over a fresh indexer (namespace and node
// indexes) and the fake clock its entries expire on.
func newMutationCacheForTest(t *testing.T, includeAdds bool) (MutationCache, Indexer, *clocktesting.FakeClock) {
	indexer := NewIndexer(MetaNamespaceKeyFunc, Indexers{
		NamespaceIndex: MetaNamespaceIndexFunc,
		"node":         func(obj any) ([]string, error) { return []string{obj.(*corev1.Pod).Spec.NodeName}, nil },
	})
	clk := clocktesting.NewFakeClock(time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC))
	logger, _ := ktesting.NewTestContext(t)
	c := NewIntegerResourceVersionMutationCacheWithOptions(logger, indexer,
		MutationCacheOptions{Indexer: indexer, TTL: time.Minute, IncludeAdds: includeAdds, clock: clk})
	return c, indexer, clk
}

func getPod(t *testing.T, c MutationCache, key string) *corev1.Pod {
	t.Helper()
	obj, exists, err := c.GetByKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if !exists {
		return nil
	}
	return obj.(*corev1.Pod)
}

func TestMutationCacheReturnsNewerWritesUntilTheStoreCatchesUp(t *testing.T) {
	c, indexer, clk := newMutationCacheForTest(t, false)
	if err := indexer.Add(mutationPod("a", "10", "u1", "n1")); err != nil {
		t.Fatal(err)
	}
	c.Mutation(mutationPod("a", "12", "u1", "n2"))
	if p := getPod(t, c, "ns/a"); p == nil || p.ResourceVersion != "12" {
		t.Fatalf("GetByKey returned %v, want the mutation at 12", p)
	}
	c.Mutation(mutationPod("a", "11", "u1", "n3")) // older than the known write: ignored
	if p := getPod(t, c, "ns/a"); p.ResourceVersion != "12" {
		t.Fatalf("an older mutation replaced a newer one: %s", p.ResourceVersion)
	}
	// The store catches up: its object wins and the entry goes.
	if err := indexer.Update(mutationPod("a", "13", "u1", "n4")); err != nil {
		t.Fatal(err)
	}
	if p := getPod(t, c, "ns/a"); p.ResourceVersion != "13" {
		t.Fatalf("GetByKey returned %s, want the store's 13", p.ResourceVersion)
	}
	// Entries expire after the TTL.
	c.Mutation(mutationPod("a", "20", "u1", "n5"))
	clk.Step(time.Minute + time.Second)
	if p := getPod(t, c, "ns/a"); p.ResourceVersion != "13" {
		t.Fatalf("an expired mutation is still returned: %s", p.ResourceVersion)
	}
	// Without IncludeAdds, a mutation the store lacks is not visible.
	c.Mutation(mutationPod("new", "30", "u2", "n1"))
	if p := getPod(t, c, "ns/new"); p != nil {
		t.Fatalf("an added object appeared without IncludeAdds: %v", p)
	}
}

func TestMutationCacheByIndex(t *testing.T) {
	c, indexer, _ := newMutationCacheForTest(t, true)
	for _, p := range []*corev1.Pod{mutationPod("a", "10", "ua", "n1"), mutationPod("b", "11", "ub", "n1")} {
		if err := indexer.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	c.Mutation(mutationPod("a", "15", "ua", "n1"))
	c.Mutation(mutationPod("new", "16", "un", "n1"))
	c.Mutation(mutationPod("elsewhere", "17", "ue", "n2"))
	items, err := c.ByIndex("node", "n1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, item := range items {
		p := item.(*corev1.Pod)
		got = append(got, p.Name+"@"+p.ResourceVersion)
	}
	slices.Sort(got)
	if want := []string{"a@15", "b@11", "new@16"}; !slices.Equal(got, want) {
		t.Fatalf("ByIndex = %v, want %v", got, want)
	}
	if p := getPod(t, c, "ns/new"); p == nil || p.ResourceVersion != "16" {
		t.Fatalf("with IncludeAdds, GetByKey of an added object returned %v", p)
	}
	logger, _ := ktesting.NewTestContext(t)
	if _, err := NewIntegerResourceVersionMutationCache(logger, indexer, nil, time.Minute, false).ByIndex("node", "n1"); err == nil {
		t.Fatal("ByIndex without an indexer succeeded")
	}
}

func TestMutationCacheDeletionsAndInformerEvents(t *testing.T) {
	c, _, _ := newMutationCacheForTest(t, true)
	// The informer saw the object deleted: a late mutation of it (same uid, or the same revision)
	// must not bring it back.
	c.OnDelete(mutationPod("a", "20", "ua", "n1"))
	c.Mutation(mutationPod("a", "21", "ua", "n1"))
	c.Mutation(mutationPod("a", "20", "other", "n1"))
	c.Mutation(mutationPod("a", "19", "other", "n1"))
	if p := getPod(t, c, "ns/a"); p != nil {
		t.Fatalf("a deleted object came back: %v", p)
	}
	// A newer object of another uid is a re-creation and is kept.
	c.Mutation(mutationPod("a", "22", "ua2", "n1"))
	if p := getPod(t, c, "ns/a"); p == nil || p.UID != "ua2" {
		t.Fatalf("re-created object: %v", p)
	}
	// The informer's add at the same revision drops the entry.
	c.OnAddOrUpdate(mutationPod("a", "22", "ua2", "n1"))
	if p := getPod(t, c, "ns/a"); p != nil {
		t.Fatalf("entry kept after the informer caught up: %v", p)
	}
	// A deletion of another, older object keeps a newer mutation of the same name.
	c.Mutation(mutationPod("b", "30", "ub2", "n1"))
	c.OnDelete(mutationPod("b", "25", "ub1", "n1"))
	if p := getPod(t, c, "ns/b"); p == nil || p.UID != "ub2" {
		t.Fatalf("a newer re-creation was dropped by the old object's deletion: %v", p)
	}
	// A deletion of the mutated object itself removes it.
	c.OnDelete(mutationPod("b", "31", "ub2", "n1"))
	if p := getPod(t, c, "ns/b"); p != nil {
		t.Fatalf("deleted object still returned: %v", p)
	}
	// Objects without a usable key or resourceVersion are refused or count as oldest, never a panic.
	c.Mutation("not an object")
	c.Mutation(mutationPod("c", "not-a-number", "uc", "n1"))
	c.Mutation(mutationPod("c", "1", "uc", "n1"))
	if p := getPod(t, c, "ns/c"); p == nil || p.ResourceVersion != "1" {
		t.Fatalf("an integer resourceVersion did not replace a malformed one: %v", p)
	}
}
