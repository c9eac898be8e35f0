package cache

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// recorder is a handler that logs its calls as strings like "add ns/a 1 initial".
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func describeObj(obj any) string {
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		return "tombstone " + tomb.Key
	}
	m := obj.(metav1.Object)
	return m.GetNamespace() + "/" + m.GetName() + " " + m.GetResourceVersion()
}

func (r *recorder) record(s string) {
	r.mu.Lock()
	r.calls = append(r.calls, s)
	r.mu.Unlock()
}

func (r *recorder) OnAdd(obj any, initial bool) {
	s := "add " + describeObj(obj)
	if initial {
		s += " initial"
	}
	r.record(s)
}
func (r *recorder) OnUpdate(oldObj, newObj any) {
	r.record("update " + describeObj(oldObj) + " -> " + describeObj(newObj))
}
func (r *recorder) OnDelete(obj any) { r.record("delete " + describeObj(obj)) }

func (r *recorder) get() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func (r *recorder) waitFor(t *testing.T, n int) []string {
	t.Helper()
	eventually(t, fmt.Sprintf("%d handler calls", n), func() bool { return len(r.get()) >= n })
	return r.get()
}

// startInformer runs informer until the test ends.
func startInformer(t *testing.T, informer SharedInformer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		if !informer.IsStopped() {
			t.Error("IsStopped false after Run returned")
		}
	})
}

func newTestInformer(src *source, resync time.Duration) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{
		ResyncPeriod: resync,
		Indexers:     Indexers{NamespaceIndex: MetaNamespaceIndexFunc},
		Backoff:      fastBackoff,
	})
}

func TestInformerDeliversChangesInOrder(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	informer := newTestInformer(src, 0)
	rec := &recorder{}
	reg, err := informer.AddEventHandler(rec)
	if err != nil {
		t.Fatal(err)
	}
	startInformer(t, informer)
	if !WaitFor(t.Context(), "sync", informer.HasSyncedChecker(), reg.HasSyncedChecker()) {
		t.Fatal("not synced")
	}
	if !informer.HasSynced() || !reg.HasSynced() {
		t.Error("HasSynced false after WaitFor")
	}
	src.apply(watch.Modified, "ns", "a", "1")
	src.apply(watch.Added, "ns", "b", "0")
	src.apply(watch.Deleted, "ns", "a", "")
	want := []string{"add ns/a 1 initial", "update ns/a 1 -> ns/a 2", "add ns/b 3", "delete ns/a 4"}
	if got := rec.waitFor(t, 4); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	eventually(t, "rv", func() bool { return informer.LastSyncResourceVersion() == "4" })
	if rv := informer.GetStore().LastStoreSyncResourceVersion(); rv != "4" {
		t.Errorf("store resourceVersion = %q", rv)
	}
}

func TestInformerHandlerAddedLaterGetsCurrentContents(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	src.apply(watch.Added, "ns", "b", "0")
	informer := newTestInformer(src, 0)
	startInformer(t, informer)
	if !WaitFor(t.Context(), "", informer.HasSyncedChecker()) {
		t.Fatal("not synced")
	}
	rec := &recorder{}
	reg, err := informer.AddEventHandler(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !WaitFor(t.Context(), "", reg.HasSyncedChecker()) {
		t.Fatal("late handler not synced")
	}
	got := rec.get()
	slices.Sort(got)
	if !slices.Equal(got, []string{"add ns/a 1 initial", "add ns/b 2 initial"}) {
		t.Errorf("late handler got %q", got)
	}
	src.apply(watch.Modified, "ns", "a", "1")
	if got := rec.waitFor(t, 3); got[2] != "update ns/a 1 -> ns/a 3" {
		t.Errorf("then %q", got[2])
	}
}

func TestInformerRemoveEventHandler(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	informer := newTestInformer(src, 0)
	keep, drop := &recorder{}, &recorder{}
	_, _ = informer.AddEventHandler(keep)
	reg, _ := informer.AddEventHandler(drop)
	startInformer(t, informer)
	src.apply(watch.Added, "ns", "a", "0")
	drop.waitFor(t, 1)
	if err := informer.RemoveEventHandler(reg); err != nil {
		t.Fatal(err)
	}
	src.apply(watch.Added, "ns", "b", "0")
	keep.waitFor(t, 2)
	// b was distributed after the removal, as keep has it; the removed handler's listener was no longer
	// among those the informer hands notifications to, so it never got b.
	if delivers(informer, reg) {
		t.Error("the informer still delivers to the removed handler")
	}
	if got := drop.get(); len(got) != 1 {
		t.Errorf("removed handler still called: %q", got)
	}
	other := newTestInformer(src, 0)
	if err := other.RemoveEventHandler(reg); err == nil {
		t.Error("removing another informer's registration did not fail")
	}
}

// delivers reports whether the informer still hands notifications to the registration's listener.
func delivers(informer SharedIndexInformer, reg ResourceEventHandlerRegistration) bool {
	s := informer.(*sharedIndexInformer)
	s.procMu.Lock()
	defer s.procMu.Unlock()
	return slices.Contains(s.listeners, reg.(*registration).l)
}

func TestInformerResyncPerHandler(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{Backoff: fastBackoff, DisableWatchList: true})
	resyncing, quiet := &recorder{}, &recorder{}
	_, _ = informer.AddEventHandlerWithResyncPeriod(resyncing, time.Second)
	_, _ = informer.AddEventHandler(quiet)
	startInformer(t, informer)
	got := resyncing.waitFor(t, 3)
	if got[1] != "update ns/a 1 -> ns/a 1" {
		t.Errorf("resync call = %q", got[1])
	}
	if q := quiet.get(); len(q) != 1 {
		t.Errorf("handler without resync got %q", q)
	}
}

func TestInformerRelistWithUnchangedObjectIsResync(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "same", "0")
	src.apply(watch.Added, "ns", "changed", "0")
	src.apply(watch.Added, "ns", "gone", "0")
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{Backoff: fastBackoff, DisableWatchList: true})
	plain := &recorder{}
	resyncing := &recorder{}
	_, _ = informer.AddEventHandler(plain)
	_, _ = informer.AddEventHandlerWithResyncPeriod(resyncing, time.Hour)
	startInformer(t, informer)
	plain.waitFor(t, 3)
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	// Changes while the watch is down and compacted away force a relist.
	src.mu.Lock()
	src.closeWatchesLocked()
	src.applyLocked(watch.Modified, "ns", "changed", "1")
	src.applyLocked(watch.Deleted, "ns", "gone", "")
	src.compactLocked()
	src.mu.Unlock()
	got := plain.waitFor(t, 5)[3:]
	slices.Sort(got)
	if !slices.Equal(got, []string{"delete tombstone ns/gone", "update ns/changed 2 -> ns/changed 4"}) {
		t.Errorf("after relist, plain handler got %q", got)
	}
	got = resyncing.waitFor(t, 6)[3:]
	slices.Sort(got)
	if !slices.Equal(got, []string{"delete tombstone ns/gone", "update ns/changed 2 -> ns/changed 4", "update ns/same 1 -> ns/same 1"}) {
		t.Errorf("after relist, resync handler got %q", got)
	}
}

func TestInformerRelistIsAtomic(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	for i := range 300 {
		src.apply(watch.Added, "ns", "old"+strconv.Itoa(i), "0")
	}
	informer := newTestInformer(src, 0)
	startInformer(t, informer)
	eventually(t, "sync", informer.HasSynced)
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	stopReading := make(chan struct{})
	var torn []string
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stopReading:
				return
			default:
			}
			var oldN, newN int
			for _, obj := range informer.GetStore().List() {
				if strings.HasPrefix(obj.(*corev1.ConfigMap).Name, "old") {
					oldN++
				} else {
					newN++
				}
			}
			if (oldN != 0 && oldN != 300) || (newN != 0 && newN != 300) || oldN+newN != 300 {
				torn = append(torn, fmt.Sprintf("%d old + %d new", oldN, newN))
			}
		}
	})
	src.mu.Lock()
	src.closeWatchesLocked()
	for i := range 300 {
		src.applyLocked(watch.Deleted, "ns", "old"+strconv.Itoa(i), "")
		src.applyLocked(watch.Added, "ns", "new"+strconv.Itoa(i), "0")
	}
	src.compactLocked()
	src.mu.Unlock()
	eventually(t, "relist", func() bool {
		_, ok, _ := informer.GetStore().GetByKey("ns/new299")
		return ok
	})
	close(stopReading)
	wg.Wait()
	if len(torn) > 0 {
		t.Errorf("readers saw a half-applied relist: %v", torn[:min(len(torn), 3)])
	}
}

// blockingHandler blocks in OnAdd until released.
type blockingHandler struct {
	release chan struct{}
	recorder
}

func (b *blockingHandler) OnAdd(obj any, initial bool) {
	<-b.release
	b.recorder.OnAdd(obj, initial)
}

func TestInformerSlowHandlerBlocksOnlyItself(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	informer := newTestInformer(src, 0)
	slow := &blockingHandler{release: make(chan struct{})}
	fast := &recorder{}
	_, _ = informer.AddEventHandler(slow)
	_, _ = informer.AddEventHandler(fast)
	startInformer(t, informer)
	eventually(t, "sync", informer.HasSynced)
	for i := range 2000 {
		src.apply(watch.Added, "ns", "cm"+strconv.Itoa(i), "0")
	}
	fast.waitFor(t, 2000)
	if n := len(informer.GetStore().List()); n != 2000 {
		t.Errorf("store has %d objects while a handler is stuck", n)
	}
	close(slow.release)
	slow.waitFor(t, 2000)
}

func TestInformerLifecycle(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	informer := newTestInformer(src, 0)
	if err := informer.SetTransform(TransformStripManagedFields); err != nil {
		t.Fatal(err)
	}
	var handlerCalled sync.Once
	called := make(chan struct{})
	if err := informer.SetWatchErrorHandler(func(*Reflector, error) { handlerCalled.Do(func() { close(called) }) }); err != nil {
		t.Fatal(err)
	}
	if _, err := informer.AddEventHandler(nil); err == nil {
		t.Error("nil handler accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	eventually(t, "sync", informer.HasSynced)
	if err := informer.SetTransform(nil); err == nil {
		t.Error("SetTransform after start accepted")
	}
	if err := informer.SetWatchErrorHandler(func(*Reflector, error) {}); err == nil {
		t.Error("SetWatchErrorHandler after start accepted")
	}
	informer.RunWithContext(ctx) // a second Run is a no-op
	src.mu.Lock()
	src.failWatches = 1
	src.mu.Unlock()
	src.closeWatches()
	<-called
	if informer.IsStopped() {
		t.Error("IsStopped while running")
	}
	cancel()
	<-done
	if !informer.IsStopped() {
		t.Error("not stopped")
	}
	if _, err := informer.AddEventHandler(&recorder{}); err == nil {
		t.Error("handler added to a stopped informer")
	}
	if informer.GetController().HasSynced() != informer.HasSynced() {
		t.Error("controller view disagrees")
	}
}

func TestInformerTransforms(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	informer := newTestInformer(src, 0)
	_ = informer.SetTransform(TransformToPartialObjectMetadata)
	rec := &recorder{}
	_, _ = informer.AddEventHandler(rec)
	startInformer(t, informer)
	rec.waitFor(t, 1)
	obj, _, _ := informer.GetStore().GetByKey("ns/a")
	meta, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok || meta.Name != "a" || meta.Labels["data"] != "0" || meta.ResourceVersion != "1" {
		t.Errorf("cached %#v", obj)
	}
	items, _ := informer.GetIndexer().ByIndex(NamespaceIndex, "ns")
	if len(items) != 1 {
		t.Errorf("index over metadata objects = %v", items)
	}
}

func TestTransformStripManagedFields(t *testing.T) {
	p := pod("ns", "a", "1", nil)
	p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m"}}
	out, err := TransformStripManagedFields(p)
	if err != nil || out.(*corev1.Pod).ManagedFields != nil {
		t.Errorf("got %v, %v", out, err)
	}
	if out, err := TransformStripManagedFields(42); err != nil || out != 42 {
		t.Errorf("non-object: %v, %v", out, err)
	}
	if out, _ := TransformToPartialObjectMetadata(42); out != 42 {
		t.Errorf("non-object: %v", out)
	}
}

type informerCounters struct{ reflectorCounters }

func (c *informerCounters) NewQueuedItemMetric(string) GaugeMetric {
	return namedMetric{&c.reflectorCounters, "queued"}
}
func (c *informerCounters) NewProcessingLatencyMetric(string) HistogramMetric {
	return namedMetric{&c.reflectorCounters, "latency"}
}
func (c *informerCounters) NewStoreResourceVersionMetric(string) GaugeMetric {
	return namedMetric{&c.reflectorCounters, "storeRV"}
}

func TestInformerEmitsMetrics(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	metrics := &informerCounters{reflectorCounters{counts: map[string]float64{}}}
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{
		Identifier: "configmaps", InformerMetricsProvider: metrics, Backoff: fastBackoff,
	})
	startInformer(t, informer)
	eventually(t, "sync", informer.HasSynced)
	src.apply(watch.Added, "ns", "b", "0")
	eventually(t, "store rv", func() bool { return metrics.get("storeRV") == 2 })
	if metrics.get("latency") == 0 {
		t.Error("processing latency never observed")
	}
	metrics.mu.Lock()
	_, queuedSet := metrics.counts["queued"]
	metrics.mu.Unlock()
	if !queuedSet {
		t.Error("queued items never reported")
	}
}

func TestInformerAddIndexersWhileRunning(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "x")
	informer := newTestInformer(src, 0)
	startInformer(t, informer)
	eventually(t, "sync", informer.HasSynced)
	if err := informer.AddIndexers(Indexers{"data": byLabel("data")}); err != nil {
		t.Fatal(err)
	}
	src.apply(watch.Added, "ns", "b", "x")
	eventually(t, "index", func() bool {
		items, _ := informer.GetIndexer().ByIndex("data", "x")
		return len(items) == 2
	})
}

func TestNewIndexerInformer(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "0")
	rec := &recorder{}
	indexer, controller := NewIndexerInformer(src, &corev1.ConfigMap{}, 0, rec, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		controller.Run(stop)
	}()
	if !WaitForCacheSync(stop, controller.HasSynced) {
		t.Fatal("not synced")
	}
	rec.waitFor(t, 1)
	if items, _ := indexer.ByIndex(NamespaceIndex, "ns"); len(items) != 1 {
		t.Errorf("indexer = %v", items)
	}
	if !IsDone(controller.HasSyncedChecker()) || controller.LastSyncResourceVersion() != "1" {
		t.Error("controller state wrong")
	}
	close(stop)
	<-done

	store, c2 := NewTransformingInformer(src, &corev1.ConfigMap{}, 0, nil, TransformToPartialObjectMetadata)
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan struct{})
	go func() {
		defer close(done)
		c2.RunWithContext(ctx)
	}()
	eventually(t, "sync", c2.HasSynced)
	if _, ok := store.List()[0].(*metav1.PartialObjectMetadata); !ok {
		t.Error("transform not applied")
	}
	cancel()
	<-done
}

func TestInformerResyncPeriodNegotiation(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{ResyncPeriod: time.Minute, Backoff: fastBackoff}).(*sharedIndexInformer)
	tiny := 10 * time.Millisecond
	reg, _ := informer.AddEventHandlerWithOptions(&recorder{}, HandlerOptions{ResyncPeriod: &tiny})
	if got := reg.(*registration).l.resyncPeriod; got != minimumResyncPeriod {
		t.Errorf("resync period = %v, want the minimum %v", got, minimumResyncPeriod)
	}
	if informer.resyncCheckPeriod != minimumResyncPeriod {
		t.Errorf("check period = %v, want it lowered before start", informer.resyncCheckPeriod)
	}
	startInformer(t, informer)
	eventually(t, "sync", informer.HasSynced)
	resync := 2 * time.Second
	reg, _ = informer.AddEventHandlerWithOptions(&recorder{}, HandlerOptions{ResyncPeriod: &resync})
	if got := reg.(*registration).l.resyncPeriod; got != resync {
		t.Errorf("resync period after start = %v", got)
	}

	quiet := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{Backoff: fastBackoff}).(*sharedIndexInformer)
	startInformer(t, quiet)
	eventually(t, "sync", quiet.HasSynced)
	reg, _ = quiet.AddEventHandlerWithResyncPeriod(&recorder{}, time.Hour)
	if got := reg.(*registration).l.resyncPeriod; got != 0 {
		t.Errorf("an informer started without resync gave a late handler resync period %v", got)
	}
}

func TestInformerWritesProgressUnderBusyReaders(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	for i := range 2000 {
		src.apply(watch.Added, "ns"+strconv.Itoa(i%4), "cm"+strconv.Itoa(i), "0")
	}
	informer := newTestInformer(src, 0)
	startInformer(t, informer)
	eventually(t, "sync", informer.HasSynced)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for r := range 10 {
		wg.Go(func() {
			for i := r; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				_ = ListAllByNamespace(informer.GetIndexer(), "ns"+strconv.Itoa(i%4), nil, func(any) {})
				_ = informer.GetStore().List()
			}
		})
	}
	for i := range 2000 {
		src.apply(watch.Modified, "ns"+strconv.Itoa(i%4), "cm"+strconv.Itoa(i), "1")
	}
	eventually(t, "writes under read load", storeHasRV(informer.GetStore(), "ns3/cm1999", "4000"))
	close(stop)
	wg.Wait()
}

// TestInformerWrapListerWatcher: an informer lists and watches through the wrappers set before Run,
// the last one outermost, and refuses new ones once it runs.
func TestInformerWrapListerWatcher(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply(watch.Added, "ns", "a", "1")
	informer := newTestInformer(src, 0)
	var mu sync.Mutex
	var calls []string
	wrapper := func(name string) func(ListerWatcher) ListerWatcher {
		return func(lw ListerWatcher) ListerWatcher {
			inner := ToListerWatcherWithContext(lw)
			return &ListWatch{
				ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
					mu.Lock()
					calls = append(calls, name)
					mu.Unlock()
					return inner.ListWithContext(ctx, opts)
				},
				WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
					mu.Lock()
					calls = append(calls, name)
					mu.Unlock()
					return inner.WatchWithContext(ctx, opts)
				},
			}
		}
	}
	for _, name := range []string{"inner", "outer"} {
		if err := informer.WrapListerWatcher(wrapper(name)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	eventually(t, "sync", informer.HasSynced)
	if err := informer.WrapListerWatcher(wrapper("late")); err == nil {
		t.Error("WrapListerWatcher after start accepted")
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(calls) < 2 || calls[0] != "outer" || calls[1] != "inner" || slices.Contains(calls, "late") {
		t.Fatalf("requests went through %v, want [outer inner ...]", calls)
	}
	if _, ok, _ := informer.GetStore().GetByKey("ns/a"); !ok {
		t.Fatal("object listed through the wrappers is not cached")
	}
}
