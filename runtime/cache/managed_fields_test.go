package cache

import (
	"context"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// managedEntries are the managedFields of two managers, as a server records them.
func managedEntries() []metav1.ManagedFieldsEntry {
	return []metav1.ManagedFieldsEntry{
		{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "v1", FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{"f:app":{}}}}`)},
		{Manager: "controller", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:status":{}}`), Subresource: "status"},
	}
}

// managedKind builds, for one kind of cached object, a list of one object named "a" and a watched
// object named "b", both carrying managedFields, and reads back an object's managedFields.
type managedKind struct {
	name    string
	example runtime.Object
	list    func() runtime.Object
	watched func() runtime.Object
	managed func(obj any) int
}

func managedKinds() []managedKind {
	typed := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: "1", ManagedFields: managedEntries()}}
	}
	unstr := func(name string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("example.com/v1")
		u.SetKind("Widget")
		u.SetNamespace("ns")
		u.SetName(name)
		u.SetResourceVersion("1")
		u.SetManagedFields(managedEntries())
		return u
	}
	partial := func(name string) *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: "1", ManagedFields: managedEntries()}}
	}
	return []managedKind{
		{
			name: "typed", example: &corev1.Pod{},
			list:    func() runtime.Object { return &corev1.PodList{Items: []corev1.Pod{*typed("a")}} },
			watched: func() runtime.Object { return typed("b") },
			managed: func(obj any) int { return len(obj.(*corev1.Pod).ManagedFields) },
		},
		{
			name: "unstructured", example: &unstructured.Unstructured{},
			list: func() runtime.Object {
				return &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetList"}, Items: []unstructured.Unstructured{*unstr("a")}}
			},
			watched: func() runtime.Object { return unstr("b") },
			managed: func(obj any) int {
				md, _ := obj.(*unstructured.Unstructured).Object["metadata"].(map[string]any)
				entries, _ := md["managedFields"].([]any)
				return len(entries)
			},
		},
		{
			name: "metadata", example: &metav1.PartialObjectMetadata{},
			list: func() runtime.Object {
				return &metav1.PartialObjectMetadataList{Items: []metav1.PartialObjectMetadata{*partial("a")}}
			},
			watched: func() runtime.Object { return partial("b") },
			managed: func(obj any) int { return len(obj.(*metav1.PartialObjectMetadata).ManagedFields) },
		},
	}
}

// managedSource lists k's list and hands out one fake watch the test feeds; it serves no streaming
// lists.
func managedSource(k managedKind) (ListerWatcher, *watch.FakeWatcher) {
	w := watch.NewFake()
	lw := &ListWatch{
		ListFunc:  func(metav1.ListOptions) (runtime.Object, error) { return k.list(), nil },
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { return w, nil },
	}
	return ToListWatcherWithWatchListSemantics(lw, optOutClient{}), w
}

// managedHandler records, per object name, how many managedFields entries the handler saw.
type managedHandler struct {
	k    managedKind
	mu   sync.Mutex
	seen map[string]int
}

func (h *managedHandler) OnAdd(obj any, _ bool) { h.record(obj) }
func (h *managedHandler) OnUpdate(_, obj any)   { h.record(obj) }
func (h *managedHandler) OnDelete(any)          {}

func (h *managedHandler) record(obj any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seen[obj.(metav1.Object).GetName()] = h.k.managed(obj)
}

func (h *managedHandler) get(name string) (int, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, ok := h.seen[name]
	return n, ok
}

// runManaged runs informer over k's source until both objects are cached and handled, and returns
// how many managedFields entries the cache and the handler hold for each.
func runManaged(t *testing.T, k managedKind, informer SharedIndexInformer, w *watch.FakeWatcher) (cached, handled map[string]int) {
	t.Helper()
	h := &managedHandler{k: k, seen: map[string]int{}}
	if _, err := informer.AddEventHandler(h); err != nil {
		t.Fatal(err)
	}
	startInformer(t, informer)
	if !WaitFor(t.Context(), "sync", informer.HasSyncedChecker()) {
		t.Fatal("no sync")
	}
	w.Add(k.watched())
	cached, handled = map[string]int{}, map[string]int{}
	for _, name := range []string{"a", "b"} {
		eventually(t, "handler saw "+name, func() bool { _, ok := h.get(name); return ok })
		handled[name], _ = h.get(name)
		obj, ok, err := informer.GetStore().GetByKey("ns/" + name)
		if !ok || err != nil {
			t.Fatalf("%s not cached: %v", name, err)
		}
		cached[name] = k.managed(obj)
	}
	return cached, handled
}

func TestInformerDropsManagedFieldsByDefault(t *testing.T) {
	checkLeaks(t)
	for _, k := range managedKinds() {
		t.Run(k.name, func(t *testing.T) {
			lw, w := managedSource(k)
			informer := NewSharedIndexInformerWithOptions(lw, k.example, SharedIndexInformerOptions{})
			cached, handled := runManaged(t, k, informer, w)
			for _, name := range []string{"a", "b"} {
				if cached[name] != 0 || handled[name] != 0 {
					t.Errorf("%s (listed a, watched b): cached with %d managedFields entries, handled with %d; want none", name, cached[name], handled[name])
				}
			}
		})
	}
}

func TestInformerKeepsManagedFieldsWhenAsked(t *testing.T) {
	checkLeaks(t)
	for _, k := range managedKinds() {
		for _, how := range []string{"option", "setter"} {
			t.Run(k.name+"/"+how, func(t *testing.T) {
				lw, w := managedSource(k)
				informer := NewSharedIndexInformerWithOptions(lw, k.example, SharedIndexInformerOptions{KeepManagedFields: how == "option"})
				if how == "setter" {
					if err := informer.SetKeepManagedFields(true); err != nil {
						t.Fatal(err)
					}
				}
				cached, handled := runManaged(t, k, informer, w)
				for _, name := range []string{"a", "b"} {
					if cached[name] != 2 || handled[name] != 2 {
						t.Errorf("%s: cached with %d managedFields entries, handled with %d; want 2", name, cached[name], handled[name])
					}
				}
				if err := informer.SetKeepManagedFields(false); err == nil {
					t.Error("SetKeepManagedFields after start accepted")
				}
			})
		}
	}
}

// A user's transform runs after managedFields are dropped, so it never sees them unless they are
// kept, and what it returns is what the cache holds.
func TestInformerTransformRunsAfterDroppingManagedFields(t *testing.T) {
	checkLeaks(t)
	k := managedKinds()[0]
	for _, keep := range []bool{false, true} {
		lw, w := managedSource(k)
		informer := NewSharedIndexInformerWithOptions(lw, k.example, SharedIndexInformerOptions{KeepManagedFields: keep})
		var mu sync.Mutex
		seen := map[string]int{}
		err := informer.SetTransform(func(obj any) (any, error) {
			p := obj.(*corev1.Pod)
			mu.Lock()
			seen[p.Name] = len(p.ManagedFields)
			mu.Unlock()
			p.Labels = map[string]string{"transformed": "yes"}
			return p, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			informer.RunWithContext(ctx)
		}()
		WaitFor(ctx, "sync", informer.HasSyncedChecker())
		w.Add(k.watched())
		eventually(t, "b cached", func() bool { _, ok, _ := informer.GetStore().GetByKey("ns/b"); return ok })
		cancel()
		<-done
		want := 0
		if keep {
			want = 2
		}
		mu.Lock()
		if seen["a"] != want || seen["b"] != want {
			t.Errorf("keep=%v: transform saw %v managedFields entries; want %d for each", keep, seen, want)
		}
		mu.Unlock()
		for _, name := range []string{"a", "b"} {
			obj, _, _ := informer.GetStore().GetByKey("ns/" + name)
			if p := obj.(*corev1.Pod); p.Labels["transformed"] != "yes" || len(p.ManagedFields) != want {
				t.Errorf("keep=%v: cached %s = %+v; want the transform's result", keep, name, p.ObjectMeta)
			}
		}
	}
}

func TestInformerWithOptionsKeepManagedFields(t *testing.T) {
	checkLeaks(t)
	k := managedKinds()[0]
	for _, keep := range []bool{false, true} {
		lw, w := managedSource(k)
		store, c := NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: k.example, KeepManagedFields: keep})
		startController(t, c)
		eventually(t, "sync", c.HasSynced)
		w.Add(k.watched())
		eventually(t, "b cached", func() bool { _, ok, _ := store.GetByKey("ns/b"); return ok })
		for _, name := range []string{"a", "b"} {
			obj, _, _ := store.GetByKey("ns/" + name)
			if got := k.managed(obj); (got == 2) != keep {
				t.Errorf("keep=%v: %s cached with %d managedFields entries", keep, name, got)
			}
		}
	}
}

func TestTransformStripManagedFieldsUnstructured(t *testing.T) {
	k := managedKinds()[1]
	u := k.watched()
	if _, err := TransformStripManagedFields(u); err != nil || k.managed(u) != 0 {
		t.Errorf("managedFields left: %v, %v", u, err)
	}
	if u.(*unstructured.Unstructured).GetName() != "b" {
		t.Error("other metadata lost")
	}
	// An object without metadata is left alone.
	bare := &unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}}
	if out, err := TransformStripManagedFields(bare); err != nil || out != bare || len(bare.Object) != 1 {
		t.Errorf("bare object: %v, %v", out, err)
	}
}
