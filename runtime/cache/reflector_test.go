package cache

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	clocktesting "k8s.io/utils/clock/testing"
)

// recordingStore is an Indexer that also records the reflector calls it received.
type recordingStore struct {
	Indexer
	mu       sync.Mutex
	replaces []string // resourceVersions of Replace calls
	resyncs  int
	marks    []string
}

func newRecordingStore() *recordingStore {
	return &recordingStore{Indexer: NewIndexer(MetaNamespaceKeyFunc, Indexers{})}
}

func (s *recordingStore) Replace(list []any, rv string) error {
	s.mu.Lock()
	s.replaces = append(s.replaces, rv)
	s.mu.Unlock()
	return s.Indexer.Replace(list, rv)
}

func (s *recordingStore) Resync() error {
	s.mu.Lock()
	s.resyncs++
	s.mu.Unlock()
	return nil
}

func (s *recordingStore) Bookmark(rv string) {
	s.mu.Lock()
	s.marks = append(s.marks, rv)
	s.mu.Unlock()
	s.Indexer.Bookmark(rv)
}

func (s *recordingStore) counts() (replaces []string, resyncs int, marks []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.replaces...), s.resyncs, append([]string(nil), s.marks...)
}

// runReflector runs r until the returned stop function is called.
func runReflector(t *testing.T, r *Reflector) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunWithContext(ctx)
	}()
	return func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("reflector did not stop on context cancellation")
		}
	}
}

// eventually polls cond for up to five seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func storeHasRV(store Store, key, rv string) func() bool {
	return func() bool {
		obj, ok, _ := store.GetByKey(key)
		return ok && obj.(metav1.Object).GetResourceVersion() == rv
	}
}

func listModeOptions() ReflectorOptions {
	return ReflectorOptions{DisableWatchList: true, Backoff: fastBackoff}
}

func TestReflectorListsInChunksAndWatches(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	for i := range 7 {
		src.apply(watch.Added, "ns", "cm"+strconv.Itoa(i), "0")
	}
	store := newRecordingStore()
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, listModeOptions())
	r.WatchListPageSize = 3
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "initial list", func() bool { return len(store.List()) == 7 })
	src.mu.Lock()
	lists := src.lists
	src.mu.Unlock()
	if lists != 3 {
		t.Errorf("listed in %d requests, want 3 pages", lists)
	}
	src.apply(watch.Modified, "ns", "cm1", "1")
	eventually(t, "watched update", storeHasRV(store, "ns/cm1", "8"))
	if rv := r.LastSyncResourceVersion(); rv != "8" {
		t.Errorf("LastSyncResourceVersion = %q", rv)
	}
}

func TestReflectorFallsBackToFullListWhenContinueExpires(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	for i := range 5 {
		src.apply(watch.Added, "ns", "cm"+strconv.Itoa(i), "0")
	}
	src.expireContinue = true
	store := newRecordingStore()
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, listModeOptions())
	r.WatchListPageSize = 2
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "full list", func() bool { return len(store.List()) == 5 })
	if replaces, _, _ := store.counts(); len(replaces) != 1 {
		t.Errorf("Replace called %d times, want once with the full list", len(replaces))
	}
}

func TestReflectorChunkingDisabled(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	for i := range 5 {
		src.apply(watch.Added, "ns", "cm"+strconv.Itoa(i), "0")
	}
	lw := &ListWatch{ListFunc: src.List, WatchFunc: src.Watch, DisableChunking: true}
	store := newRecordingStore()
	r := NewReflectorWithOptions(lw, &corev1.ConfigMap{}, store, listModeOptions())
	r.WatchListPageSize = 2
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "list", func() bool { return len(store.List()) == 5 })
	src.mu.Lock()
	defer src.mu.Unlock()
	if src.lists != 1 {
		t.Errorf("%d list requests with chunking disabled", src.lists)
	}
}

func TestReflectorRelistsAfterGoneAndRetriesWithLatestRV(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	store := newRecordingStore()
	var handled []error
	var mu sync.Mutex
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, listModeOptions())
	r.watchErrorHandler = func(_ context.Context, _ *Reflector, err error) {
		mu.Lock()
		handled = append(handled, err)
		mu.Unlock()
	}
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "initial list", func() bool { return len(store.List()) == 1 })
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })

	// The watch fails with 410 and the reflector's resourceVersion is compacted away: the relist at that
	// resourceVersion fails too, so it must retry with "" and deliver the changes made meanwhile.
	src.apply(watch.Added, "ns", "b", "0")
	eventually(t, "b", storeHasRV(store, "ns/b", "2"))
	src.mu.Lock()
	src.closeWatchesLocked()
	src.applyLocked(watch.Deleted, "ns", "a", "")
	src.applyLocked(watch.Added, "ns", "c", "0")
	src.compactLocked()
	src.mu.Unlock()
	eventually(t, "relist", func() bool {
		_, hasA, _ := store.GetByKey("ns/a")
		_, hasC, _ := store.GetByKey("ns/c")
		return !hasA && hasC
	})
	replaces, _, _ := store.counts()
	if len(replaces) < 2 {
		t.Errorf("replaces = %v, want a relist", replaces)
	}
	mu.Lock()
	defer mu.Unlock()
	found := false
	for _, err := range handled {
		found = found || isExpiredError(err)
	}
	if !found {
		t.Errorf("watch error handler never saw the 410: %v", handled)
	}
}

func TestReflectorTooLargeResourceVersion(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	store := newRecordingStore()
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, listModeOptions())
	r.setLastSyncResourceVersion("100")
	if err := r.list(context.Background()); err != nil {
		t.Fatalf("list with a too-large resourceVersion did not recover: %v", err)
	}
	if len(store.List()) != 1 || r.LastSyncResourceVersion() != "1" {
		t.Errorf("store %v, rv %q", store.ListKeys(), r.LastSyncResourceVersion())
	}
}

func TestReflectorBookmarksAdvanceResourceVersion(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	store := newRecordingStore()
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, listModeOptions())
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	// A change in another collection advances the server's resourceVersion without any event here.
	src.mu.Lock()
	src.rv = 41
	src.mu.Unlock()
	src.bookmark()
	eventually(t, "bookmark", func() bool { return r.LastSyncResourceVersion() == "41" })
	if _, _, marks := store.counts(); len(marks) != 1 || marks[0] != "41" {
		t.Errorf("store bookmarks = %v", marks)
	}
	if store.LastStoreSyncResourceVersion() != "41" {
		t.Errorf("store rv = %q", store.LastStoreSyncResourceVersion())
	}
}

// recordingLW records the options of every list and watch.
type recordingLW struct {
	*source
	mu       sync.Mutex
	opts     []metav1.ListOptions
	listOpts []metav1.ListOptions
}

func (lw *recordingLW) List(options metav1.ListOptions) (runtime.Object, error) {
	lw.mu.Lock()
	lw.listOpts = append(lw.listOpts, options)
	lw.mu.Unlock()
	return lw.source.List(options)
}

func (lw *recordingLW) Watch(options metav1.ListOptions) (watch.Interface, error) {
	lw.mu.Lock()
	lw.opts = append(lw.opts, options)
	lw.mu.Unlock()
	return lw.source.Watch(options)
}

func (lw *recordingLW) watchOptions() []metav1.ListOptions {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return append([]metav1.ListOptions(nil), lw.opts...)
}

func TestReflectorWatchOptions(t *testing.T) {
	checkLeaks(t)
	lw := &recordingLW{source: newSource()}
	options := listModeOptions()
	options.MinWatchTimeout = 100 * time.Second
	r := NewReflectorWithOptions(lw, &corev1.ConfigMap{}, newRecordingStore(), options)
	stop := runReflector(t, r)
	defer stop()
	for range 5 {
		eventually(t, "watch", func() bool { return lw.openWatches() == 1 })
		lw.apply(watch.Added, "ns", "a", strconv.Itoa(len(lw.watchOptions())))
		time.Sleep(5 * time.Millisecond)
		lw.closeWatches()
	}
	seen := map[int64]bool{}
	for _, o := range lw.watchOptions() {
		if o.TimeoutSeconds == nil || *o.TimeoutSeconds < 100 || *o.TimeoutSeconds > 200 {
			t.Errorf("TimeoutSeconds = %v, want within [100, 200]", o.TimeoutSeconds)
			continue
		}
		seen[*o.TimeoutSeconds] = true
		if !o.AllowWatchBookmarks {
			t.Error("bookmarks not requested")
		}
	}
	if len(seen) < 2 {
		t.Errorf("watch timeouts are not jittered: %v", seen)
	}
}

func TestReflectorSurvivesBadEvents(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	store := newRecordingStore()
	var mu sync.Mutex
	var handled []error
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, listModeOptions())
	r.watchErrorHandler = func(_ context.Context, _ *Reflector, err error) {
		mu.Lock()
		handled = append(handled, err)
		mu.Unlock()
	}
	stop := runReflector(t, r)
	defer stop()
	bad := []watch.Event{
		{Type: watch.Added, Object: &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", ResourceVersion: "1"}}},
		{Type: watch.Error, Object: &metav1.Status{Code: 500, Message: "internal"}},
		{Type: watch.Error, Object: &corev1.ConfigMap{}},
		{Type: "WEIRD", Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "w"}}},
		{Type: watch.Modified, Object: nil},
		{Type: watch.Added, Object: &runtime.Unknown{}},
	}
	for i, e := range bad {
		eventually(t, "watch", func() bool { return src.openWatches() == 1 })
		src.sendRaw(e)
		src.apply(watch.Modified, "ns", "a", strconv.Itoa(i+1))
		eventually(t, "recovery", storeHasRV(store, "ns/a", strconv.Itoa(i+2)))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(handled) < len(bad) {
		t.Errorf("watch error handler saw %d errors, want %d: %v", len(handled), len(bad), handled)
	}
	if _, ok, _ := store.GetByKey("s"); ok {
		t.Error("object of the wrong type was stored")
	}
}

func TestReflectorRetriesWatchOnTransportError(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	src.failWatches = 3
	store := newRecordingStore()
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, listModeOptions())
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	src.apply(watch.Added, "ns", "b", "0")
	eventually(t, "b", storeHasRV(store, "ns/b", "2"))
}

func TestReflectorResync(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	store := newRecordingStore()
	options := listModeOptions()
	options.ResyncPeriod = 5 * time.Millisecond
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, options)
	var allow sync.Mutex
	allowed, refused := false, 0
	r.ShouldResync = func() bool {
		allow.Lock()
		defer allow.Unlock()
		if !allowed {
			refused++
		}
		return allowed
	}
	stop := runReflector(t, r)
	defer stop()
	// The resync loop consults ShouldResync and resyncs in one goroutine, so by the second refusal a
	// resync wrongly made after the first one would be counted.
	eventually(t, "two refused resyncs", func() bool {
		allow.Lock()
		defer allow.Unlock()
		return refused >= 2
	})
	if _, n, _ := store.counts(); n != 0 {
		t.Errorf("resynced %d times while ShouldResync said no", n)
	}
	allow.Lock()
	allowed = true
	allow.Unlock()
	eventually(t, "resync", func() bool { _, n, _ := store.counts(); return n >= 2 })
}

func TestReflectorListAndWatchStopsOnCancel(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, newRecordingStore(), listModeOptions())
	stopCh := make(chan struct{})
	errc := make(chan error)
	go func() { errc <- r.ListAndWatch(stopCh) }()
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	close(stopCh)
	if err := <-errc; err != nil {
		t.Errorf("ListAndWatch after stop = %v", err)
	}
	if r.Name() == "" || r.TypeDescription() != "*v1.ConfigMap" {
		t.Errorf("Name %q, TypeDescription %q", r.Name(), r.TypeDescription())
	}
	// Run with a closed channel returns at once.
	r.Run(stopCh)
}

func TestBackoffGrowsAndResetsAfterHealthyPeriod(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	b := &backoff{config: wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.5, Cap: 8 * time.Second}, resetAfter: time.Minute, clock: clk}
	bounds := [][2]float64{{1, 1.5}, {2, 3}, {4, 6}, {8, 12}, {8, 12}}
	for i, want := range bounds {
		d := b.next().Seconds()
		if d < want[0] || d > want[1] {
			t.Errorf("delay %d = %vs, want within [%v, %v]s", i, d, want[0], want[1])
		}
		clk.Step(time.Second)
	}
	clk.Step(2 * time.Minute)
	if d := b.next(); d > 1500*time.Millisecond {
		t.Errorf("after a healthy period, delay = %v, want the initial one", d)
	}
}

// TestBackoffDoesNotGrowWhileUnreachable: failures to reach the server at all (connection refused,
// reset or closed before a response) are retried after the initial delay however many there are,
// while failures the server answered still grow the delay.
func TestBackoffDoesNotGrowWhileUnreachable(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	b := &backoff{config: wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.5, Cap: 8 * time.Second}, resetAfter: time.Minute, clock: clk}
	refused := &url.Error{Op: "Get", URL: "https://api/x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}
	closed := fmt.Errorf("failed to list: %w", &url.Error{Op: "Get", URL: "https://api/x", Err: io.EOF})
	for i, err := range []error{refused, closed, errTransport, refused, closed, refused, refused, refused} {
		if d := b.after(err); d < time.Second || d > 1500*time.Millisecond {
			t.Fatalf("retry %d after %v: delay %v, want the initial one", i, err, d)
		}
		clk.Step(time.Second)
	}
	unavailable := apierrors.NewServiceUnavailable("starting")
	for i, want := range [][2]float64{{1, 1.5}, {2, 3}, {4, 6}} {
		if d := b.after(unavailable).Seconds(); d < want[0] || d > want[1] {
			t.Fatalf("answered failure %d: delay %vs, want within %v s", i, d, want)
		}
	}
	if d := b.after(refused); d > 1500*time.Millisecond {
		t.Fatalf("unreachable after answered failures: delay %v, want the initial one", d)
	}
	if d := b.after(unavailable).Seconds(); d < 8 || d > 12 {
		t.Fatalf("answered failure after an unreachable one: delay %vs, want the grown one", d)
	}
}

type reflectorCounters struct {
	mu     sync.Mutex
	counts map[string]float64
}

type namedMetric struct {
	c    *reflectorCounters
	name string
}

func (m namedMetric) Inc()              { m.add(1) }
func (m namedMetric) Set(v float64)     { m.c.mu.Lock(); m.c.counts[m.name] = v; m.c.mu.Unlock() }
func (m namedMetric) Observe(v float64) { m.add(1) }
func (m namedMetric) add(v float64)     { m.c.mu.Lock(); m.c.counts[m.name] += v; m.c.mu.Unlock() }

func (c *reflectorCounters) get(name string) float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[name]
}

func (c *reflectorCounters) NewListsMetric(string) CounterMetric { return namedMetric{c, "lists"} }
func (c *reflectorCounters) NewListDurationMetric(string) SummaryMetric {
	return namedMetric{c, "listDuration"}
}
func (c *reflectorCounters) NewItemsInListMetric(string) SummaryMetric {
	return namedMetric{c, "itemsInList"}
}
func (c *reflectorCounters) NewWatchesMetric(string) CounterMetric { return namedMetric{c, "watches"} }
func (c *reflectorCounters) NewShortWatchesMetric(string) CounterMetric {
	return namedMetric{c, "shortWatches"}
}
func (c *reflectorCounters) NewWatchDurationMetric(string) SummaryMetric {
	return namedMetric{c, "watchDuration"}
}
func (c *reflectorCounters) NewItemsInWatchMetric(string) SummaryMetric {
	return namedMetric{c, "itemsInWatch"}
}
func (c *reflectorCounters) NewLastResourceVersionMetric(string) GaugeMetric {
	return namedMetric{c, "lastResourceVersion"}
}

func TestReflectorEmitsMetrics(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	metrics := &reflectorCounters{counts: map[string]float64{}}
	options := listModeOptions()
	options.MetricsProvider = metrics
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, newRecordingStore(), options)
	stop := runReflector(t, r)
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })
	src.closeWatches() // a very short watch
	eventually(t, "rewatch", func() bool { return src.openWatches() == 1 })
	src.apply(watch.Added, "ns", "b", "0")
	eventually(t, "rv", func() bool { return metrics.get("lastResourceVersion") == 2 })
	stop()
	for _, name := range []string{"lists", "listDuration", "itemsInList", "watches", "shortWatches", "watchDuration", "itemsInWatch"} {
		if metrics.get(name) == 0 {
			t.Errorf("metric %s never emitted", name)
		}
	}
}

func TestReflectorStreamingList(t *testing.T) {
	checkLeaks(t)
	lw := &recordingLW{source: newSource()}
	for i := range 4 {
		lw.apply(watch.Added, "ns", "cm"+strconv.Itoa(i), "0")
	}
	store := newRecordingStore()
	r := NewReflectorWithOptions(lw, &corev1.ConfigMap{}, store, ReflectorOptions{Backoff: fastBackoff})
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "streamed state", func() bool { return len(store.List()) == 4 })
	lw.apply(watch.Modified, "ns", "cm0", "1")
	eventually(t, "update on the same stream", storeHasRV(store, "ns/cm0", "5"))
	lw.mu.Lock()
	lists, watches := lw.lists, lw.watches
	lw.mu.Unlock()
	if lists != 0 || watches != 1 {
		t.Errorf("%d lists and %d watches, want a single streaming watch", lists, watches)
	}
	o := lw.watchOptions()[0]
	if o.SendInitialEvents == nil || !*o.SendInitialEvents || o.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan || !o.AllowWatchBookmarks {
		t.Errorf("streaming list options = %+v", o)
	}
	if replaces, _, _ := store.counts(); len(replaces) != 1 || replaces[0] != "4" {
		t.Errorf("replaces = %v, want one at the bookmark's resourceVersion", replaces)
	}
}

func TestReflectorStreamingListFallsBack(t *testing.T) {
	cases := map[string]func(*source){
		"rejected":        func(s *source) { s.rejectWatchList = true },
		"no end bookmark": func(s *source) { s.noInitialEventsEnd = true },
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			checkLeaks(t)
			src := newSource()
			src.apply(watch.Added, "ns", "a", "0")
			setup(src)
			store := newRecordingStore()
			r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, ReflectorOptions{Backoff: fastBackoff, WatchListIdleTimeout: 50 * time.Millisecond})
			stop := runReflector(t, r)
			defer stop()
			eventually(t, "list", func() bool { return len(store.List()) == 1 })
			src.apply(watch.Added, "ns", "b", "0")
			eventually(t, "watch", storeHasRV(store, "ns/b", "2"))
			// Later cycles do not try streaming again.
			src.closeWatches()
			src.compact()
			src.sendError(&metav1.Status{Code: 410, Reason: metav1.StatusReasonExpired})
			src.apply(watch.Added, "ns", "c", "0")
			eventually(t, "c", storeHasRV(store, "ns/c", "3"))
			src.mu.Lock()
			defer src.mu.Unlock()
			if src.watchLists != 1 || src.lists == 0 {
				t.Errorf("%d streaming lists and %d lists; want one streaming attempt, then lists", src.watchLists, src.lists)
			}
		})
	}
}

type optOutLW struct{ *source }

func (optOutLW) IsWatchListSemanticsUnSupported() bool { return true }

type optOutClient struct{}

func (optOutClient) IsWatchListSemanticsUnSupported() bool { return true }

func TestReflectorStreamingListSwitches(t *testing.T) {
	cases := map[string]func(*source) (ListerWatcher, ReflectorOptions){
		"option": func(s *source) (ListerWatcher, ReflectorOptions) {
			return s, ReflectorOptions{DisableWatchList: true}
		},
		"opt-out": func(s *source) (ListerWatcher, ReflectorOptions) { return optOutLW{s}, ReflectorOptions{} },
		"client opt-out": func(s *source) (ListerWatcher, ReflectorOptions) {
			return ToListWatcherWithWatchListSemantics(&ListWatch{ListFunc: s.List, WatchFunc: s.Watch}, optOutClient{}), ReflectorOptions{}
		},
		"environment": func(s *source) (ListerWatcher, ReflectorOptions) {
			t.Setenv("KUBE_FEATURE_WatchListClient", "false")
			return s, ReflectorOptions{}
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			checkLeaks(t)
			src := newSource()
			src.apply(watch.Added, "ns", "a", "0")
			lw, options := setup(src)
			options.Backoff = fastBackoff
			store := newRecordingStore()
			stop := runReflector(t, NewReflectorWithOptions(lw, &corev1.ConfigMap{}, store, options))
			defer stop()
			eventually(t, "list", func() bool { return len(store.List()) == 1 })
			src.mu.Lock()
			defer src.mu.Unlock()
			if src.watchLists != 0 {
				t.Errorf("streaming list attempted")
			}
		})
	}
	if lw := ToListWatcherWithWatchListSemantics(&ListWatch{}, struct{}{}); watchListUnsupported(lw) {
		t.Error("a client without the opt-out method opted out")
	}
}

func TestListWatchFunctions(t *testing.T) {
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	var sawCtx bool
	lw := &ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			sawCtx = ctx != nil
			return src.List(o)
		},
		WatchFunc: src.Watch,
	}
	if _, err := lw.List(metav1.ListOptions{}); err != nil || !sawCtx {
		t.Errorf("List = %v (context-taking function used: %v)", err, sawCtx)
	}
	w, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	if _, err := (&ListWatch{}).List(metav1.ListOptions{}); err == nil {
		t.Error("empty ListWatch listed")
	}
	if _, err := (&ListWatch{}).Watch(metav1.ListOptions{}); err == nil {
		t.Error("empty ListWatch watched")
	}
	if _, ok := ToListerWatcherWithContext(src).(contextIgnoringListerWatcher); !ok {
		t.Error("plain ListerWatcher not adapted")
	}
	if _, ok := ToListerWatcherWithContext(lw).(*ListWatch); !ok {
		t.Error("context-taking ListerWatcher wrapped needlessly")
	}
}

func TestReflectorRelistNeverReadsAnOlderState(t *testing.T) {
	checkLeaks(t)
	lw := &recordingLW{source: newSource()}
	lw.apply(watch.Added, "ns", "a", "0")
	store := newRecordingStore()
	r := NewReflectorWithOptions(lw, &corev1.ConfigMap{}, store, listModeOptions())
	stop := runReflector(t, r)
	defer stop()
	eventually(t, "watch", func() bool { return lw.openWatches() == 1 })
	lw.sendError(&metav1.Status{Code: 410, Reason: metav1.StatusReasonExpired})
	eventually(t, "relist", func() bool {
		lw.mu.Lock()
		defer lw.mu.Unlock()
		return len(lw.listOpts) >= 2
	})
	lw.mu.Lock()
	defer lw.mu.Unlock()
	first, relist := lw.listOpts[0], lw.listOpts[1]
	if first.ResourceVersion != "0" || first.ResourceVersionMatch != "" || first.Limit != defaultPageSize {
		t.Errorf("initial list options = %+v", first)
	}
	if relist.ResourceVersion != "1" || relist.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan {
		t.Errorf("relist options = %+v, want resourceVersion 1 and NotOlderThan", relist)
	}
}
