package cache

import (
	"errors"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

func pod(ns, name, rv string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels}}
}

func byLabel(key string) IndexFunc {
	return func(obj any) ([]string, error) {
		v, ok := obj.(metav1.Object).GetLabels()[key]
		if !ok {
			return nil, nil
		}
		return strings.Split(v, ","), nil
	}
}

func sortedKeys(t *testing.T, items []any) []string {
	t.Helper()
	var keys []string
	for _, item := range items {
		k, err := MetaNamespaceKeyFunc(item)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func TestKeyFuncs(t *testing.T) {
	if k, _ := MetaNamespaceKeyFunc(pod("ns", "a", "", nil)); k != "ns/a" {
		t.Errorf("namespaced key = %q", k)
	}
	if k, _ := MetaNamespaceKeyFunc(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}); k != "n" {
		t.Errorf("cluster-scoped key = %q", k)
	}
	if k, _ := MetaNamespaceKeyFunc(ExplicitKey("x/y")); k != "x/y" {
		t.Errorf("explicit key = %q", k)
	}
	if _, err := MetaNamespaceKeyFunc(42); err == nil {
		t.Error("no error for an object without metadata")
	}
	tomb := DeletedFinalStateUnknown{Key: "ns/gone", Obj: nil}
	if k, _ := DeletionHandlingMetaNamespaceKeyFunc(tomb); k != "ns/gone" {
		t.Errorf("tombstone key = %q", k)
	}
	for key, want := range map[string][2]string{"a": {"", "a"}, "ns/a": {"ns", "a"}} {
		ns, name, err := SplitMetaNamespaceKey(key)
		if err != nil || ns != want[0] || name != want[1] {
			t.Errorf("SplitMetaNamespaceKey(%q) = %q, %q, %v", key, ns, name, err)
		}
	}
	if _, _, err := SplitMetaNamespaceKey("a/b/c"); err == nil {
		t.Error("no error for a key with two slashes")
	}
	if v, _ := MetaNamespaceIndexFunc(pod("ns", "a", "", nil)); !slices.Equal(v, []string{"ns"}) {
		t.Errorf("MetaNamespaceIndexFunc = %v", v)
	}
}

func TestStoreBasics(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	a, b := pod("ns", "a", "1", nil), pod("ns", "b", "1", nil)
	for _, obj := range []any{a, b} {
		if err := s.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	a2 := pod("ns", "a", "2", nil)
	if err := s.Update(a2); err != nil {
		t.Fatal(err)
	}
	if got, ok, _ := s.Get(a); !ok || got != a2 {
		t.Errorf("Get = %v, %v; want the updated object", got, ok)
	}
	if err := s.Delete(b); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.GetByKey("ns/b"); ok {
		t.Error("deleted object still present")
	}
	if keys := s.ListKeys(); !slices.Equal(keys, []string{"ns/a"}) {
		t.Errorf("ListKeys = %v", keys)
	}
	if err := s.Add(42); !errors.As(err, new(KeyError)) {
		t.Errorf("Add of an object without metadata: err = %v, want a KeyError", err)
	}
	if err := s.Replace([]any{b, 7}, "9"); err == nil {
		t.Error("Replace with a keyless object did not report it")
	}
	if got := sortedKeys(t, s.List()); !slices.Equal(got, []string{"ns/b"}) {
		t.Errorf("after Replace, List = %v", got)
	}
	if rv := s.LastStoreSyncResourceVersion(); rv != "9" {
		t.Errorf("LastStoreSyncResourceVersion = %q", rv)
	}
	s.Bookmark("11")
	if rv := s.LastStoreSyncResourceVersion(); rv != "11" {
		t.Errorf("after Bookmark, LastStoreSyncResourceVersion = %q", rv)
	}
	if err := s.Resync(); err != nil {
		t.Error(err)
	}
}

func TestStoreTransformer(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc, WithTransformer(TransformStripManagedFields))
	p := pod("ns", "a", "1", nil)
	p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}
	if err := s.Add(p); err != nil {
		t.Fatal(err)
	}
	got, _, _ := s.GetByKey("ns/a")
	if got.(*corev1.Pod).ManagedFields != nil {
		t.Error("managedFields kept")
	}
}

func TestIndexerMaintainsIndexes(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc, "app": byLabel("app")})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(idx.Add(pod("ns1", "a", "1", map[string]string{"app": "web,db"})))
	must(idx.Add(pod("ns1", "b", "1", map[string]string{"app": "web"})))
	must(idx.Add(pod("ns2", "c", "1", map[string]string{"app": "db"})))

	check := func(index, value string, want ...string) {
		t.Helper()
		items, err := idx.ByIndex(index, value)
		if err != nil {
			t.Fatal(err)
		}
		if got := sortedKeys(t, items); !slices.Equal(got, want) {
			t.Errorf("ByIndex(%s, %s) = %v, want %v", index, value, got, want)
		}
		keys, err := idx.IndexKeys(index, value)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keys, want) {
			t.Errorf("IndexKeys(%s, %s) = %v, want %v", index, value, keys, want)
		}
	}
	check("app", "web", "ns1/a", "ns1/b")
	check("app", "db", "ns1/a", "ns2/c")
	check(NamespaceIndex, "ns1", "ns1/a", "ns1/b")

	// An update moves the object only between the values that changed.
	must(idx.Update(pod("ns1", "a", "2", map[string]string{"app": "db,cache"})))
	check("app", "web", "ns1/b")
	check("app", "db", "ns1/a", "ns2/c")
	check("app", "cache", "ns1/a")

	// Deleting the last object of a value removes the value.
	must(idx.Delete(pod("ns2", "c", "", nil)))
	must(idx.Delete(pod("ns1", "a", "", nil)))
	if values := idx.ListIndexFuncValues("app"); !slices.Equal(values, []string{"web"}) {
		t.Errorf("ListIndexFuncValues = %v, want [web]", values)
	}

	items, err := idx.Index("app", pod("", "", "", map[string]string{"app": "web,db"}))
	if err != nil || !slices.Equal(sortedKeys(t, items), []string{"ns1/b"}) {
		t.Errorf("Index = %v, %v", sortedKeys(t, items), err)
	}
	if _, err := idx.ByIndex("missing", "x"); err == nil {
		t.Error("no error for an unknown index")
	}
	if _, err := idx.IndexKeys("missing", "x"); err == nil {
		t.Error("no error for an unknown index")
	}
	if _, err := idx.Index("missing", pod("", "", "", nil)); err == nil {
		t.Error("no error for an unknown index")
	}
	if names := sets.KeySet(idx.GetIndexers()); !names.Equal(sets.New(NamespaceIndex, "app")) {
		t.Errorf("GetIndexers = %v", names)
	}
}

func TestAddIndexersOnPopulatedStore(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
	for _, p := range []*corev1.Pod{pod("a", "1", "1", map[string]string{"tier": "x"}), pod("b", "2", "1", map[string]string{"tier": "y"}), pod("a", "3", "1", map[string]string{"tier": "x"})} {
		if err := idx.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.AddIndexers(Indexers{"tier": byLabel("tier")}); err != nil {
		t.Fatal(err)
	}
	items, _ := idx.ByIndex("tier", "x")
	if got := sortedKeys(t, items); !slices.Equal(got, []string{"a/1", "a/3"}) {
		t.Errorf("index built on existing objects = %v", got)
	}
	if err := idx.AddIndexers(Indexers{"tier": byLabel("tier")}); err == nil {
		t.Error("re-adding an index did not fail")
	}
	// Later writes maintain the new index.
	if err := idx.Update(pod("a", "1", "2", map[string]string{"tier": "y"})); err != nil {
		t.Fatal(err)
	}
	items, _ = idx.ByIndex("tier", "y")
	if got := sortedKeys(t, items); !slices.Equal(got, []string{"a/1", "b/2"}) {
		t.Errorf("after update = %v", got)
	}
}

func TestIndexFuncErrorKeepsObject(t *testing.T) {
	failing := func(obj any) ([]string, error) {
		if obj.(metav1.Object).GetName() == "bad" {
			return nil, errors.New("boom")
		}
		return []string{"ok"}, nil
	}
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{"f": failing})
	if err := idx.Add(pod("ns", "bad", "1", nil)); err != nil {
		t.Fatal(err)
	}
	if err := idx.Add(pod("ns", "good", "1", nil)); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := idx.GetByKey("ns/bad"); !ok {
		t.Error("object whose index function failed was not stored")
	}
	items, _ := idx.ByIndex("f", "ok")
	if got := sortedKeys(t, items); !slices.Equal(got, []string{"ns/good"}) {
		t.Errorf("index = %v", got)
	}
}

func TestReplaceRebuildsIndexes(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	_ = idx.Add(pod("old", "a", "1", nil))
	if err := idx.Replace([]any{pod("new", "b", "2", nil)}, "2"); err != nil {
		t.Fatal(err)
	}
	if items, _ := idx.ByIndex(NamespaceIndex, "old"); len(items) != 0 {
		t.Errorf("old index entries survived Replace: %v", items)
	}
	if items, _ := idx.ByIndex(NamespaceIndex, "new"); len(items) != 1 {
		t.Errorf("new index entries missing: %v", items)
	}
}

func TestThreadSafeStore(t *testing.T) {
	s := NewThreadSafeStore(Indexers{"app": byLabel("app")}, Indices{})
	s.Add("k1", pod("ns", "a", "1", map[string]string{"app": "x"}))
	s.Update("k1", pod("ns", "a", "2", map[string]string{"app": "y"}))
	s.Add("k2", pod("ns", "b", "1", map[string]string{"app": "y"}))
	if keys, _ := s.IndexKeys("app", "y"); !slices.Equal(keys, []string{"k1", "k2"}) {
		t.Errorf("IndexKeys = %v", keys)
	}
	s.DeleteWithObject("k1", nil)
	s.Delete("k2")
	if len(s.List()) != 0 || len(s.ListKeys()) != 0 || len(s.ListIndexFuncValues("app")) != 0 {
		t.Error("store not empty after deleting everything")
	}
	s.Replace(map[string]any{"k3": pod("ns", "c", "1", map[string]string{"app": "z"})}, "5")
	if got, ok := s.Get("k3"); !ok || got.(*corev1.Pod).Name != "c" {
		t.Error("Replace content missing")
	}
	if s.LastStoreSyncResourceVersion() != "5" {
		t.Error("Replace resourceVersion not recorded")
	}
}

func TestTypedIndexer(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, TypedIndexersToIndexers(TypedIndexers[*corev1.Pod]{
		"node": func(p *corev1.Pod) ([]string, error) { return []string{p.Spec.NodeName}, nil },
	}))
	p := pod("ns", "a", "1", nil)
	p.Spec.NodeName = "n1"
	_ = idx.Add(p)
	// An object of another type fails its typed index function instead of panicking.
	_ = idx.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}})
	typed := NewTypedIndexer[*corev1.Pod](idx)
	pods, err := typed.ByTypedIndex("node", "n1")
	if err != nil || len(pods) != 1 || pods[0] != p {
		t.Errorf("ByTypedIndex = %v, %v", pods, err)
	}
	if err := typed.AddTypedIndexers(TypedIndexers[*corev1.Pod]{"name": func(p *corev1.Pod) ([]string, error) { return []string{p.Name}, nil }}); err != nil {
		t.Fatal(err)
	}
	pods, err = typed.TypedIndex("name", p)
	if err != nil || len(pods) != 1 {
		t.Errorf("TypedIndex = %v, %v", pods, err)
	}
	key, err := IndexFuncToKeyFuncAdapter(MetaNamespaceIndexFunc)(p)
	if err != nil || key != "ns" {
		t.Errorf("IndexFuncToKeyFuncAdapter = %q, %v", key, err)
	}
}
