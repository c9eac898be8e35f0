package cache

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

func TestConstructorsShareOneImplementation(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	for name, informer := range map[string]SharedInformer{
		"NewSharedInformer":      NewSharedInformer(src, &corev1.ConfigMap{}, 0),
		"NewSharedIndexInformer": NewSharedIndexInformer(src, &corev1.ConfigMap{}, 0, Indexers{}),
	} {
		t.Run(name, func(t *testing.T) {
			startInformer(t, informer)
			eventually(t, "sync", informer.HasSynced)
			if len(informer.GetStore().List()) != 1 {
				t.Error("store not filled")
			}
		})
	}
	rec := &recorder{}
	_, c := NewInformer(src, &corev1.ConfigMap{}, 0, rec)
	startController(t, c)
	rec.waitFor(t, 1)
	idx, c := NewTransformingIndexerInformer(src, &corev1.ConfigMap{}, 0, &recorder{}, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, TransformStripManagedFields)
	startController(t, c)
	eventually(t, "sync", c.HasSynced)
	if items, _ := idx.ByIndex(NamespaceIndex, "ns"); len(items) != 1 {
		t.Error("indexer not filled")
	}

	for _, r := range []*Reflector{
		NewReflector(src, &corev1.ConfigMap{}, NewStore(MetaNamespaceKeyFunc), 0),
		NewNamedReflector("named", src, &corev1.ConfigMap{}, NewStore(MetaNamespaceKeyFunc), 0),
	} {
		if r.Name() == "" {
			t.Error("reflector without a name")
		}
	}
	indexer, r := NewNamespaceKeyedIndexerAndReflector(src, &corev1.ConfigMap{}, 0)
	stop := runReflector(t, r)
	eventually(t, "list", func() bool { return len(indexer.List()) == 1 })
	stop()
}

func startController(t *testing.T, c Controller) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.RunWithContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

func TestGlobalMetricsProviders(t *testing.T) {
	checkLeaks(t)
	reflectorMetrics := &reflectorCounters{counts: map[string]float64{}}
	informerMetrics := &informerCounters{reflectorCounters{counts: map[string]float64{}}}
	SetReflectorMetricsProvider(reflectorMetrics)
	SetInformerMetricsProvider(informerMetrics)
	defer SetReflectorMetricsProvider(noopMetricsProvider{})
	defer SetInformerMetricsProvider(noopMetricsProvider{})
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{Identifier: "cms", Backoff: fastBackoff})
	startInformer(t, informer)
	eventually(t, "metrics", func() bool { return reflectorMetrics.get("lists") > 0 && informerMetrics.get("storeRV") == 1 })
	anonymous := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{Backoff: fastBackoff})
	if anonymous.(*sharedIndexInformer).latency != (noopMetric{}) {
		t.Error("an informer without an Identifier emits informer metrics")
	}
}

func TestKeyErrorsAndNames(t *testing.T) {
	err := NewStore(MetaNamespaceKeyFunc).Add("not an object")
	var keyErr KeyError
	if !errors.As(err, &keyErr) || errors.Unwrap(keyErr) == nil || !strings.Contains(err.Error(), "couldn't create key") {
		t.Errorf("err = %v", err)
	}
	if n, err := ObjectToName(pod("ns", "a", "", nil)); err != nil || n.String() != "ns/a" {
		t.Errorf("ObjectToName = %v, %v", n, err)
	}
	if _, err := ObjectToName(3); err == nil {
		t.Error("ObjectToName of a non-object succeeded")
	}
	if (ErrRequeue{}).Error() == "" || (ErrRequeue{Err: errors.New("x")}).Error() != "x" {
		t.Error("ErrRequeue messages wrong")
	}
	if NewThreadSafeStore(Indexers{"a": MetaNamespaceIndexFunc}, Indices{"a": Index{}, "ignored": Index{}}).Resync() != nil {
		t.Error("Resync failed")
	}
	if describeType(nil) == "" || describeType(&unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}}) != "Widget" {
		t.Error("describeType wrong")
	}
}

// scriptedLW serves one list and hands out prepared watches in order.
type scriptedLW struct {
	mu      sync.Mutex
	list    runtime.Object
	watches []*watch.FakeWatcher
	opts    []metav1.ListOptions
}

func (lw *scriptedLW) List(metav1.ListOptions) (runtime.Object, error) { return lw.list, nil }

func (lw *scriptedLW) Watch(o metav1.ListOptions) (watch.Interface, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.opts = append(lw.opts, o)
	if len(lw.watches) == 0 {
		return watch.NewFake(), nil
	}
	w := lw.watches[0]
	lw.watches = lw.watches[1:]
	return w, nil
}

func TestStreamingListBadStreamsFallBackToList(t *testing.T) {
	widget := func(name, rv string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("example.com/v1")
		u.SetKind("Widget")
		u.SetNamespace("ns")
		u.SetName(name)
		u.SetResourceVersion(rv)
		return u
	}
	gadget := widget("g", "2")
	gadget.SetKind("Gadget")
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetList", "metadata": map[string]any{"resourceVersion": "5"}}}
	list.Items = []unstructured.Unstructured{*widget("listed", "5")}
	streams := map[string]watch.Event{
		"error event":     {Type: watch.Error, Object: &metav1.Status{Code: 500}},
		"wrong kind":      {Type: watch.Added, Object: gadget},
		"modified":        {Type: watch.Modified, Object: widget("m", "3")},
		"no metadata":     {Type: watch.Added, Object: &runtime.Unknown{}},
		"closed":          {},
		"status as error": {Type: watch.Error, Object: &unstructured.Unstructured{Object: map[string]any{"kind": "Status", "apiVersion": "v1", "code": int64(410), "reason": "Expired"}}},
	}
	for name, bad := range streams {
		t.Run(name, func(t *testing.T) {
			checkLeaks(t)
			stream := watch.NewFakeWithChanSize(3, false)
			stream.Add(widget("streamed", "1"))
			if bad.Type != "" {
				stream.Action(bad.Type, bad.Object)
			} else {
				stream.Stop()
			}
			lw := &scriptedLW{list: list, watches: []*watch.FakeWatcher{stream}}
			store := newRecordingStore()
			r := NewReflectorWithOptions(lw, widget("", ""), store, ReflectorOptions{Backoff: fastBackoff, WatchListIdleTimeout: time.Second})
			stop := runReflector(t, r)
			defer stop()
			eventually(t, "fallback list", func() bool {
				_, ok, _ := store.GetByKey("ns/listed")
				return ok
			})
			if _, ok, _ := store.GetByKey("ns/streamed"); ok {
				t.Error("objects from an incomplete stream were stored")
			}
		})
	}
}

func TestTransformErrorKeepsObject(t *testing.T) {
	q := newEventQueue(noopMetric{}, nil)
	q.setTransform(func(any) (any, error) { return nil, errors.New("boom") })
	p := pod("ns", "a", "1", nil)
	if got := q.transformed(p, true); got != p {
		t.Errorf("transformed = %v; a failing transform must keep the object", got)
	}
	tomb := DeletedFinalStateUnknown{Key: "k"}
	if got := q.transformed(tomb, true); got != tomb {
		t.Error("tombstone transformed")
	}
}

// brokenLW returns nothing usable until fixed, and counts the broken answers it gave.
type brokenLW struct {
	*source
	mu     sync.Mutex
	fixed  bool
	broken int
}

func (lw *brokenLW) isFixed() bool {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if !lw.fixed {
		lw.broken++
	}
	return lw.fixed
}

func (lw *brokenLW) List(o metav1.ListOptions) (runtime.Object, error) {
	if !lw.isFixed() {
		return (*corev1.ConfigMapList)(nil), nil
	}
	return lw.source.List(o)
}

func (lw *brokenLW) Watch(o metav1.ListOptions) (watch.Interface, error) {
	if !lw.isFixed() {
		return nil, nil
	}
	return lw.source.Watch(o)
}

func TestReflectorSurvivesBrokenListerWatcher(t *testing.T) {
	checkLeaks(t)
	lw := &brokenLW{source: newSource()}
	lw.apply(watch.Added, "ns", "a", "0")
	store := newRecordingStore()
	r := NewReflectorWithOptions(lw, &corev1.ConfigMap{}, store, ReflectorOptions{Backoff: fastBackoff, WatchListIdleTimeout: time.Second})
	stop := runReflector(t, r)
	defer stop()
	// The reflector keeps going after broken answers: it asks again.
	eventually(t, "a retry after a broken answer", func() bool {
		lw.mu.Lock()
		defer lw.mu.Unlock()
		return lw.broken >= 2
	})
	lw.mu.Lock()
	lw.fixed = true
	lw.mu.Unlock()
	eventually(t, "recovery", func() bool { return len(store.List()) == 1 })
	if !isNil((*corev1.Pod)(nil)) || isNil(&corev1.Pod{}) || !isNil(nil) {
		t.Error("isNil wrong")
	}
}

func TestListPagesCopiesItemsOutOfThePage(t *testing.T) {
	remaining := int64(0)
	page := &corev1.ConfigMapList{
		ListMeta: metav1.ListMeta{ResourceVersion: "7", RemainingItemCount: &remaining},
		Items:    []corev1.ConfigMap{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}},
	}
	lw := &scriptedLW{list: page}
	items, rv, err := listPages(context.Background(), ToListerWatcherWithContext(lw), metav1.ListOptions{}, 500, nil)
	if err != nil || rv != "7" || len(items) != 2 {
		t.Fatalf("listPages = %v, %q, %v", items, rv, err)
	}
	for i, obj := range items {
		if obj.(*corev1.ConfigMap) == &page.Items[i] {
			t.Errorf("item %d points into the page; keeping it would pin the whole page", i)
		}
		if obj.(*corev1.ConfigMap).Name != page.Items[i].Name {
			t.Errorf("item %d = %v", i, obj)
		}
	}
}
