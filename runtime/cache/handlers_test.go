package cache

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

func TestHandlerFuncs(t *testing.T) {
	var got []string
	h := ResourceEventHandlerFuncs{
		AddFunc:    func(any) { got = append(got, "add") },
		UpdateFunc: func(_, _ any) { got = append(got, "update") },
		DeleteFunc: func(any) { got = append(got, "delete") },
	}
	h.OnAdd(nil, true)
	h.OnUpdate(nil, nil)
	h.OnDelete(nil)
	ResourceEventHandlerFuncs{}.OnAdd(nil, false) // unset functions are skipped
	d := ResourceEventHandlerDetailedFuncs{AddFunc: func(_ any, initial bool) {
		if initial {
			got = append(got, "initial add")
		}
	}, UpdateFunc: func(_, _ any) { got = append(got, "update") }, DeleteFunc: func(any) { got = append(got, "delete") }}
	d.OnAdd(nil, true)
	d.OnUpdate(nil, nil)
	d.OnDelete(nil)
	ResourceEventHandlerDetailedFuncs{}.OnDelete(nil)
	want := []string{"add", "update", "delete", "initial add", "update", "delete"}
	if !slices.Equal(got, want) {
		t.Errorf("calls = %v, want %v", got, want)
	}
}

func TestFilteringHandler(t *testing.T) {
	rec := &recorder{}
	h := FilteringResourceEventHandler{
		FilterFunc: func(obj any) bool { return obj.(*corev1.Pod).Labels["keep"] == "yes" },
		Handler:    rec,
	}
	in := pod("ns", "a", "1", map[string]string{"keep": "yes"})
	out := pod("ns", "a", "2", map[string]string{"keep": "no"})
	h.OnAdd(in, false)
	h.OnAdd(out, false)
	h.OnUpdate(in, in)
	h.OnUpdate(in, out)
	h.OnUpdate(out, in)
	h.OnUpdate(out, out)
	h.OnDelete(in)
	h.OnDelete(out)
	want := []string{"add ns/a 1", "update ns/a 1 -> ns/a 1", "delete ns/a 1", "add ns/a 1", "delete ns/a 1"}
	if got := rec.get(); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
}

// typedRecorder records typed calls.
type typedRecorder struct{ recorder }

func (r *typedRecorder) handler() TypedResourceEventHandlerFuncs[*corev1.ConfigMap] {
	return TypedResourceEventHandlerFuncs[*corev1.ConfigMap]{
		AddFunc:    func(cm *corev1.ConfigMap) { r.record("add " + cm.Name) },
		UpdateFunc: func(o, n *corev1.ConfigMap) { r.record("update " + o.ResourceVersion + "->" + n.ResourceVersion) },
		DeleteFunc: func(d DeletedObject[*corev1.ConfigMap]) {
			s := "delete " + d.GetKey() + " " + d.GetName() + " " + d.GetNamespace()
			if d.FinalStateUnknown != nil {
				s += " unknown"
			}
			r.record(s)
		},
	}
}

func TestTypedInformer(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	src.apply(watch.Added, "ns", "gone", "0")
	informer := NewTypedSharedIndexInformer[*corev1.ConfigMap](newTestInformer(src, 0))
	rec := &typedRecorder{}
	if _, err := informer.AddTypedEventHandler(rec.handler(), HandlerOptions{}, HandlerOptions{}); err == nil {
		t.Error("two HandlerOptions accepted")
	}
	reg, err := informer.AddTypedEventHandler(rec.handler())
	if err != nil {
		t.Fatal(err)
	}
	if err := informer.AddTypedIndexers(TypedIndexers[*corev1.ConfigMap]{"data": func(cm *corev1.ConfigMap) ([]string, error) {
		return []string{cm.Data["v"]}, nil
	}}); err != nil {
		t.Fatal(err)
	}
	startInformer(t, informer)
	if !WaitFor(t.Context(), "", reg.HasSyncedChecker()) {
		t.Fatal("not synced")
	}
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	src.apply(watch.Modified, "ns", "a", "1")
	src.apply(watch.Deleted, "ns", "a", "")
	rec.waitFor(t, 4)
	src.mu.Lock()
	src.closeWatchesLocked()
	src.applyLocked(watch.Deleted, "ns", "gone", "")
	src.compactLocked()
	src.mu.Unlock()
	got := rec.waitFor(t, 5)
	slices.Sort(got[:2])
	want := []string{"add a", "add gone", "update 1->3", "delete ns/a a ns", "delete ns/gone gone ns unknown"}
	if !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	items, err := informer.GetTypedIndexer().ByTypedIndex("data", "0")
	if err != nil || len(items) != 0 {
		t.Errorf("ByTypedIndex = %v, %v", items, err)
	}
}

func TestTypedHandlersNeverPanicOnWrongTypes(t *testing.T) {
	rec := &typedRecorder{}
	h := untypedHandler[*corev1.ConfigMap]{rec.handler()}
	h.OnAdd(&corev1.Secret{}, false)
	h.OnUpdate(&corev1.Secret{}, &corev1.ConfigMap{})
	h.OnDelete(&corev1.Secret{})
	h.OnDelete(DeletedFinalStateUnknown{Key: "ns/x", Obj: &corev1.Secret{}})
	h.OnDelete(DeletedFinalStateUnknown{Key: "x"})
	if got := rec.get(); !slices.Equal(got, []string{"delete x x  unknown"}) {
		t.Errorf("calls = %q", got)
	}
	var empty DeletedObject[*corev1.ConfigMap]
	if empty.GetKey() != "" || empty.GetName() != "" {
		t.Error("empty DeletedObject has a name")
	}
}

func TestTypedFilteringHandler(t *testing.T) {
	rec := &typedRecorder{}
	h := TypedFilteringResourceEventHandler[*corev1.ConfigMap]{
		FilterFunc: func(cm *corev1.ConfigMap) bool { return cm.Name == "in" },
		Handler:    rec.handler(),
	}
	in := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "in", ResourceVersion: "1"}}
	out := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "out", ResourceVersion: "2"}}
	h.OnAdd(in, false)
	h.OnAdd(out, false)
	h.OnUpdate(in, in)
	h.OnUpdate(out, in)
	h.OnUpdate(in, out)
	h.OnUpdate(out, out)
	h.OnDelete(DeletedObject[*corev1.ConfigMap]{OptionalObj: out})
	h.OnDelete(DeletedObject[*corev1.ConfigMap]{FinalStateUnknown: &DeletedFinalStateUnknown{Key: "ns/zzz"}})
	want := []string{"add in", "update 1->1", "add in", "delete ns/in in ns", "delete ns/zzz zzz ns unknown"}
	if got := rec.get(); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	d := TypedResourceEventHandlerDetailedFuncs[*corev1.ConfigMap]{}
	d.OnAdd(in, true)
	d.OnUpdate(in, in)
	d.OnDelete(DeletedObject[*corev1.ConfigMap]{})
}

func TestListers(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	_ = idx.Add(pod("a", "p1", "1", map[string]string{"app": "web"}))
	_ = idx.Add(pod("a", "p2", "1", map[string]string{"app": "db"}))
	_ = idx.Add(pod("b", "p3", "1", map[string]string{"app": "web"}))
	_ = idx.Add(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}})
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	count := func(f func(AppendFunc) error) int {
		n := 0
		if err := f(func(any) { n++ }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(func(fn AppendFunc) error { return ListAll(idx, web, fn) }); n != 2 {
		t.Errorf("ListAll(web) = %d", n)
	}
	if n := count(func(fn AppendFunc) error { return ListAll(idx, labels.Everything(), fn) }); n != 4 {
		t.Errorf("ListAll(everything) = %d", n)
	}
	if n := count(func(fn AppendFunc) error { return ListAllByNamespace(idx, "a", web, fn) }); n != 1 {
		t.Errorf("ListAllByNamespace(a, web) = %d", n)
	}
	if n := count(func(fn AppendFunc) error { return ListAllByNamespace(idx, metav1.NamespaceAll, web, fn) }); n != 2 {
		t.Errorf("ListAllByNamespace(all, web) = %d", n)
	}
	// Without a namespace index the lister scans.
	plain := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
	_ = plain.Add(pod("a", "p1", "1", nil))
	_ = plain.Add(pod("b", "p2", "1", nil))
	if n := count(func(fn AppendFunc) error { return ListAllByNamespace(plain, "a", nil, fn) }); n != 1 {
		t.Errorf("ListAllByNamespace without index = %d", n)
	}
	// Other Indexer implementations go through ByIndex.
	if n := count(func(fn AppendFunc) error { return ListAllByNamespace(wrappedIndexer{idx}, "a", nil, fn) }); n != 2 {
		t.Errorf("ListAllByNamespace over a wrapped indexer = %d", n)
	}
	if n := count(func(fn AppendFunc) error { return ListAll(wrappedIndexer{idx}, nil, fn) }); n != 4 {
		t.Errorf("ListAll over a wrapped indexer = %d", n)
	}

	// appendFn may use the store: it runs without the store's lock.
	if err := ListAllByNamespace(idx, "a", nil, func(obj any) {
		_, _, _ = idx.Get(obj)
		_ = idx.Update(obj)
	}); err != nil {
		t.Fatal(err)
	}
	if err := ListAll(idx, nil, func(obj any) { _ = idx.Update(obj) }); err != nil {
		t.Fatal(err)
	}

	gr := schema.GroupResource{Resource: "pods"}
	lister := NewGenericLister(idx, gr)
	if objs, _ := lister.List(web); len(objs) != 2 {
		t.Errorf("generic List = %d", len(objs))
	}
	if obj, err := lister.Get("n1"); err != nil || obj.(*corev1.Node).Name != "n1" {
		t.Errorf("generic Get = %v, %v", obj, err)
	}
	nsLister := lister.ByNamespace("a")
	if objs, _ := nsLister.List(labels.Everything()); len(objs) != 2 {
		t.Errorf("namespaced List = %d", len(objs))
	}
	if _, err := nsLister.Get("p3"); err == nil || !isNotFound(err) {
		t.Errorf("Get of an object in another namespace = %v, want NotFound", err)
	}
	_ = idx.Add(ExplicitKey("a/odd")) // a value that is not a runtime.Object
	if _, err := nsLister.Get("odd"); err == nil {
		t.Error("Get of a non-object succeeded")
	}
}

type wrappedIndexer struct{ Indexer }

func isNotFound(err error) bool {
	var status interface{ Status() metav1.Status }
	return errors.As(err, &status) && status.Status().Reason == metav1.StatusReasonNotFound
}

func TestWaitHelpers(t *testing.T) {
	checkLeaks(t)
	synced := false
	stop := make(chan struct{})
	go func() {
		time.Sleep(20 * time.Millisecond)
		close(stop)
	}()
	if WaitForCacheSync(stop, func() bool { return synced }) {
		t.Error("WaitForCacheSync true for a cache that never synced")
	}
	if !WaitForNamedCacheSync("test", make(chan struct{}), func() bool { return true }) {
		t.Error("WaitForNamedCacheSync false for a synced cache")
	}
	if WaitForNamedCacheSync("test", stop, func() bool { return false }) {
		t.Error("WaitForNamedCacheSync true after stop")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if WaitForNamedCacheSyncWithContext(ctx, func() bool { return false }) {
		t.Error("WaitForNamedCacheSyncWithContext true after cancel")
	}
	if !WaitForNamedCacheSyncWithContext(context.Background(), func() bool { return true }) {
		t.Error("WaitForNamedCacheSyncWithContext false for a synced cache")
	}
	done := make(chan struct{})
	close(done)
	pending := doneChecker{"pending", make(chan struct{})}
	if WaitFor(ctx, "things", doneChecker{"done", done}, pending) {
		t.Error("WaitFor true with a pending checker")
	}
	if !WaitFor(context.Background(), "things", doneChecker{"done", done}) {
		t.Error("WaitFor false with done checkers")
	}
	result := SyncResult{Err: context.Canceled, Synced: map[reflect.Type]bool{
		reflect.TypeFor[corev1.Pod]():       true,
		reflect.TypeFor[corev1.ConfigMap](): false,
	}}
	if err := result.AsError(); !errors.Is(err, context.Canceled) || err.Error() != "failed to sync all caches: v1.ConfigMap: context canceled" {
		t.Errorf("AsError = %v", err)
	}
	if (SyncResult{}).AsError() != nil {
		t.Error("AsError of a complete sync is not nil")
	}
}
