package cache

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kgen-dev/kgen/internal/pause"
)

// ReflectorStore is where a Reflector writes what it lists and watches.
type ReflectorStore interface {
	// Add records an added object.
	Add(obj any) error
	// Update records a modified object.
	Update(obj any) error
	// Delete records a deleted object.
	Delete(obj any) error
	// Replace records a complete list at resourceVersion.
	Replace(list []any, resourceVersion string) error
	// Resync asks for a periodic resync.
	Resync() error
}

// bookmarkStore is a ReflectorStore that also wants the resourceVersions of bookmarks.
type bookmarkStore interface {
	Bookmark(rv string)
}

// WatchErrorHandler is called when a list or watch fails; the reflector then backs off and retries.
type WatchErrorHandler func(r *Reflector, err error)

// WatchErrorHandlerWithContext is WatchErrorHandler with the reflector's context.
type WatchErrorHandlerWithContext func(ctx context.Context, r *Reflector, err error)

// DefaultWatchErrorHandler logs the error. Expected ones are quiet: an expired resourceVersion at
// verbosity 4; transient failures of a server that restarts or cannot be reached (connection refused
// or reset, EOF, timeouts, 429, 503, very short watches) once as a warning when a streak of them
// begins, then at verbosity 4, and once more with their count when the reflector is healthy again.
// Other errors, which need a human, are logged as errors.
func DefaultWatchErrorHandler(ctx context.Context, r *Reflector, err error) {
	logger := klog.FromContext(ctx)
	switch {
	case isExpiredError(err):
		logger.V(4).Info("Watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
	case errors.Is(err, errWatchListIncomplete) && !isTransient(err):
		logger.V(2).Info("Streaming list incomplete; falling back to list and watch", "reflector", r.name, "type", r.typeDescription, "err", err)
	case isTransient(err):
		if r.failures.begin(r.clock.Now()) {
			logger.Info("Warning: list or watch failed; retrying with backoff, further failures are logged at verbosity 4 until it recovers", "reflector", r.name, "type", r.typeDescription, "err", err)
		} else {
			logger.V(4).Info("List or watch failed; retrying with backoff", "reflector", r.name, "type", r.typeDescription, "err", err)
		}
	default:
		logger.Error(err, "Failed to list or watch", "reflector", r.name, "type", r.typeDescription)
	}
}

// isTransient reports failures expected while an API server restarts or is unreachable for a while.
func isTransient(err error) bool {
	var short *VeryShortWatchError
	return utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) || utilnet.IsProbableEOF(err) ||
		utilnet.IsTimeout(err) || utilnet.IsHTTP2ConnectionLost(err) || errors.Is(err, context.DeadlineExceeded) ||
		apierrors.IsTooManyRequests(err) || apierrors.IsServiceUnavailable(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsTimeout(err) || errors.As(err, &short)
}

// failureStreak counts the transient failures since a reflector was last healthy, so that a restart
// of the API server costs two log lines rather than one per retry.
type failureStreak struct {
	mu    sync.Mutex
	count int
	since time.Time
}

// begin counts a failure and reports whether it is the first of a streak.
func (f *failureStreak) begin(now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.count++
	if f.count == 1 {
		f.since = now
	}
	return f.count == 1
}

// end closes the streak, returning how many failures it had and when it began.
func (f *failureStreak) end() (int, time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	count, since := f.count, f.since
	f.count = 0
	return count, since
}

// VeryShortWatchError reports a watch that ended at once without any event, which usually means the
// server is in trouble; the reflector backs off before watching again.
type VeryShortWatchError struct {
	// Name is the reflector's name.
	Name string
}

// Error describes the failure.
func (e *VeryShortWatchError) Error() string {
	return fmt.Sprintf("very short watch: %s: unexpected watch close - watch lasted less than a second and no items received", e.Name)
}

// ReflectorOptions configures NewReflectorWithOptions.
type ReflectorOptions struct {
	// Name identifies the reflector in logs and metrics; it defaults to one built from the type.
	Name string
	// TypeDescription names the reflected type in logs; it defaults to the expected type.
	TypeDescription string
	// ResyncPeriod, if not zero, asks the store for a resync this often (subject to ShouldResync).
	ResyncPeriod time.Duration
	// MinWatchTimeout is the minimum server-side watch timeout; each watch lasts a random duration
	// between it and twice it, so many reflectors do not rewatch in lockstep. Default five minutes.
	MinWatchTimeout time.Duration
	// Clock is the time source; tests use a fake one.
	Clock clock.Clock
	// Backoff sets the retry delays after failures: Duration (initial), Factor, Jitter and Cap.
	// It defaults to 800ms doubling up to 30s, each delay lengthened by a random 0-100%. The delay
	// returns to its initial value once a watch is healthy (see the package documentation).
	Backoff *wait.Backoff
	// BackoffResetAfter also returns the delay to its initial value when no retry was needed for
	// this long. Default two minutes.
	BackoffResetAfter time.Duration
	// DisableWatchList turns streaming lists off. They are also off when the environment variable
	// KUBE_FEATURE_WatchListClient is "false", or when the ListerWatcher opts out.
	DisableWatchList bool
	// WatchListIdleTimeout bounds the wait for the next event while a streaming list has not yet
	// delivered its initial-events-end bookmark; when it expires the reflector falls back to list and
	// watch for the rest of its life. Default ten seconds.
	WatchListIdleTimeout time.Duration
	// MetricsProvider overrides the provider set with SetReflectorMetricsProvider.
	MetricsProvider MetricsProvider
}

// Reflector lists and watches one collection and mirrors it into a store: a full list (or streaming
// list) first, then a watch from the listed resourceVersion, restarted and relisted as needed.
type Reflector struct {
	name            string
	typeDescription string
	expectedType    reflect.Type
	expectedGVK     *schema.GroupVersionKind
	store           ReflectorStore
	lw              ListerWatcherWithContext
	disableChunking bool
	resyncPeriod    time.Duration
	minWatchTimeout time.Duration
	clock           clock.Clock
	backoff         *backoff
	idleTimeout     time.Duration
	metrics         *reflectorMetrics

	watchErrorHandler WatchErrorHandlerWithContext
	failures          failureStreak

	// ShouldResync is consulted each resync period; nil means always resync.
	ShouldResync func() bool
	// WatchListPageSize is the page size of chunked lists; 0 means 500.
	WatchListPageSize int64

	mu            sync.RWMutex
	lastSyncRV    string
	rvUnavailable bool
	useWatchList  bool
}

const (
	defaultPageSize          = 500
	defaultMinWatchTimeout   = 5 * time.Minute
	defaultBackoffResetAfter = 2 * time.Minute
	defaultWatchListIdle     = 10 * time.Second
	// healthyWatch is how long a watch without events must stay open to count as healthy; one that
	// ends sooner without an event is a very short watch.
	healthyWatch = time.Second
)

// NewReflector returns a Reflector mirroring lw into store.
func NewReflector(lw ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{ResyncPeriod: resyncPeriod})
}

// NewNamedReflector is NewReflector with a name for logs and metrics.
func NewNamedReflector(name string, lw ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{Name: name, ResyncPeriod: resyncPeriod})
}

// NewNamespaceKeyedIndexerAndReflector returns an Indexer keyed by namespace/name with a namespace
// index, and a Reflector filling it.
func NewNamespaceKeyedIndexerAndReflector(lw ListerWatcher, expectedType any, resyncPeriod time.Duration) (Indexer, *Reflector) {
	indexer := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	return indexer, NewReflector(lw, expectedType, indexer, resyncPeriod)
}

// NewReflectorWithOptions returns a Reflector mirroring lw into store. expectedType is an object of
// the listed type (an *unstructured.Unstructured with its kind set for unstructured lists); objects
// of another type are logged and make the watch restart.
func NewReflectorWithOptions(lw ListerWatcher, expectedType any, store ReflectorStore, options ReflectorOptions) *Reflector {
	if options.Clock == nil {
		options.Clock = clock.RealClock{}
	}
	if options.MinWatchTimeout <= 0 {
		options.MinWatchTimeout = defaultMinWatchTimeout
	}
	b := wait.Backoff{Duration: 800 * time.Millisecond, Factor: 2, Jitter: 1, Cap: 30 * time.Second}
	if options.Backoff != nil {
		b = *options.Backoff
	}
	if options.BackoffResetAfter <= 0 {
		options.BackoffResetAfter = defaultBackoffResetAfter
	}
	if options.WatchListIdleTimeout <= 0 {
		options.WatchListIdleTimeout = defaultWatchListIdle
	}
	if options.TypeDescription == "" {
		options.TypeDescription = describeExpected(expectedType)
	}
	if options.Name == "" {
		options.Name = "reflector " + options.TypeDescription
	}
	provider := options.MetricsProvider
	if provider == nil {
		provider = reflectorMetricsProvider()
	}
	r := &Reflector{
		name:              options.Name,
		typeDescription:   options.TypeDescription,
		store:             store,
		lw:                ToListerWatcherWithContext(lw),
		resyncPeriod:      options.ResyncPeriod,
		minWatchTimeout:   options.MinWatchTimeout,
		clock:             options.Clock,
		backoff:           &backoff{config: b, resetAfter: options.BackoffResetAfter, clock: options.Clock},
		idleTimeout:       options.WatchListIdleTimeout,
		metrics:           newReflectorMetrics(provider, options.Name),
		watchErrorHandler: DefaultWatchErrorHandler,
		useWatchList:      !options.DisableWatchList && !watchListUnsupported(lw) && os.Getenv("KUBE_FEATURE_WatchListClient") != "false",
	}
	if lwf, ok := lw.(*ListWatch); ok {
		r.disableChunking = lwf.DisableChunking
	} else if lws, ok := lw.(*semanticsListWatch); ok {
		r.disableChunking = lws.DisableChunking
	}
	if expectedType != nil {
		r.expectedType = reflect.TypeOf(expectedType)
		if u, ok := expectedType.(*unstructured.Unstructured); ok {
			if gvk := u.GroupVersionKind(); !gvk.Empty() {
				r.expectedGVK = &gvk
			}
		}
	}
	return r
}

func describeExpected(expectedType any) string {
	if u, ok := expectedType.(*unstructured.Unstructured); ok && u.GetKind() != "" {
		return u.GroupVersionKind().String()
	}
	if expectedType == nil {
		return "<unspecified>"
	}
	return reflect.TypeOf(expectedType).String()
}

// Name returns the reflector's name.
func (r *Reflector) Name() string { return r.name }

// TypeDescription returns the description of the reflected type.
func (r *Reflector) TypeDescription() string { return r.typeDescription }

// LastSyncResourceVersion returns the resourceVersion last observed from the server.
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lastSyncRV
}

func (r *Reflector) setLastSyncResourceVersion(rv string) {
	r.mu.Lock()
	r.lastSyncRV = rv
	r.mu.Unlock()
	if v, ok := resourceVersionNumber(rv); ok {
		r.metrics.lastResourceVersion.Set(v)
	}
}

// relistResourceVersion is the resourceVersion of the next list: "0" (any cached state) at first, the
// last seen one afterwards, and "" (the latest, from storage) once the server could not serve it.
func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch {
	case r.rvUnavailable:
		return ""
	case r.lastSyncRV == "":
		return "0"
	}
	return r.lastSyncRV
}

func (r *Reflector) setResourceVersionUnavailable(unavailable bool) {
	r.mu.Lock()
	r.rvUnavailable = unavailable
	r.mu.Unlock()
}

func (r *Reflector) watchListEnabled() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.useWatchList
}

// Run runs the reflector until stopCh is closed.
func (r *Reflector) Run(stopCh <-chan struct{}) {
	ctx, cancel := stopChannelContext(stopCh)
	defer cancel()
	r.RunWithContext(ctx)
}

// RunWithContext lists and watches until ctx is done, backing off exponentially (with jitter) after
// failures; see the package documentation for the schedule.
func (r *Reflector) RunWithContext(ctx context.Context) {
	for ctx.Err() == nil {
		err := r.ListAndWatchWithContext(ctx)
		if err != nil && ctx.Err() == nil {
			r.watchErrorHandler(ctx, r, err)
		}
		// A watch that expired proves the server answers: relist at once, unless that already
		// happened since the reflector was last healthy.
		if isExpiredError(err) && r.backoff.relistAtOnce() {
			continue
		}
		if !pause.For(ctx, r.clock, r.backoff.after(err)) {
			return
		}
	}
}

// ListAndWatch lists and watches until stopCh closes or the watch needs a relist.
func (r *Reflector) ListAndWatch(stopCh <-chan struct{}) error {
	ctx, cancel := stopChannelContext(stopCh)
	defer cancel()
	return r.ListAndWatchWithContext(ctx)
}

// ListAndWatchWithContext fetches the initial state (by streaming list when possible, otherwise by a
// chunked list), then watches from it until ctx is done or the watch needs a relist, which it reports
// as an error. It returns nil when ctx is done.
func (r *Reflector) ListAndWatchWithContext(ctx context.Context) error {
	var w watch.Interface
	if r.watchListEnabled() {
		var err error
		w, err = r.watchList(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			r.watchErrorHandler(ctx, r, fmt.Errorf("%w: %w", errWatchListIncomplete, err))
			if errors.Is(err, errInitialEventsDeadline) || apierrors.IsBadRequest(err) || apierrors.IsInvalid(err) || apierrors.IsMethodNotSupported(err) {
				r.mu.Lock()
				r.useWatchList = false
				r.mu.Unlock()
			}
			w = nil
		}
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}

	cycleCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	if r.resyncPeriod > 0 {
		wg.Go(func() { r.resyncLoop(cycleCtx) })
	}
	return r.watchLoop(cycleCtx, w)
}

func (r *Reflector) resyncLoop(ctx context.Context) {
	t := r.clock.NewTimer(r.resyncPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
			t.Reset(r.resyncPeriod)
			if r.ShouldResync == nil || r.ShouldResync() {
				if err := r.store.Resync(); err != nil {
					klog.FromContext(ctx).Error(err, "Resync failed", "reflector", r.name)
				}
			}
		}
	}
}

// list fetches the whole collection into the store with one Replace. If the server cannot serve the
// requested resourceVersion, it retries at once with the latest one.
func (r *Reflector) list(ctx context.Context) error {
	pageSize := r.WatchListPageSize
	if pageSize == 0 {
		pageSize = defaultPageSize
	}
	if r.disableChunking {
		pageSize = 0
	}
	start := r.clock.Now()
	r.metrics.lists.Inc()
	options := metav1.ListOptions{ResourceVersion: r.relistResourceVersion()}
	if options.ResourceVersion != "" && options.ResourceVersion != "0" {
		// Without a match, a paged list at a resourceVersion is an exact read: after an API server
		// restart it can return the old state again and again. Ask for that state or newer.
		options.ResourceVersionMatch = metav1.ResourceVersionMatchNotOlderThan
	}
	keep := r.listedItemKeeper(ctx)
	items, rv, err := listPages(ctx, r.lw, options, pageSize, keep)
	if err != nil && (isExpiredError(err) || isTooLargeResourceVersionError(err)) && options.ResourceVersion != "" {
		r.setResourceVersionUnavailable(true)
		options.ResourceVersion, options.ResourceVersionMatch = "", ""
		items, rv, err = listPages(ctx, r.lw, options, pageSize, keep)
	}
	if err != nil {
		return fmt.Errorf("failed to list %s: %w", r.typeDescription, err)
	}
	r.metrics.listDuration.Observe(r.clock.Since(start).Seconds())
	r.metrics.itemsInList.Observe(float64(len(items)))
	r.setResourceVersionUnavailable(false)
	if err := r.replaceList(items, rv); err != nil {
		return fmt.Errorf("unable to sync list result: %w", err)
	}
	r.setLastSyncResourceVersion(rv)
	return nil
}

// listPreparer is a ReflectorStore that prepares listed objects for its cache one by one as they
// arrive (the informer's queue trims and shares them), so that each is prepared while it is fresh in
// memory and what preparing discards is garbage before the rest of the list arrives. replacePrepared
// then takes the prepared list in place of Replace.
type listPreparer interface {
	prepare(obj any) any
	replacePrepared(list []any, resourceVersion string) error
}

// listedItemKeeper returns what listPages applies to each listed object: objects of an unexpected
// type are dropped with a log line, and the others prepared by the store, if it prepares them.
func (r *Reflector) listedItemKeeper(ctx context.Context) func(any) (any, bool) {
	prep, _ := r.store.(listPreparer)
	return func(obj any) (any, bool) {
		if err := r.checkType(obj); err != nil {
			klog.FromContext(ctx).Error(err, "Skipping listed object", "reflector", r.name)
			return nil, false
		}
		if prep != nil {
			obj = prep.prepare(obj)
		}
		return obj, true
	}
}

// replaceList hands a complete list to the store, prepared if the store prepares objects.
func (r *Reflector) replaceList(items []any, rv string) error {
	if prep, ok := r.store.(listPreparer); ok {
		return prep.replacePrepared(items, rv)
	}
	return r.store.Replace(items, rv)
}

func (r *Reflector) checkType(obj any) error {
	if r.expectedType != nil && reflect.TypeOf(obj) != r.expectedType {
		return fmt.Errorf("expected type %v, but got %T", r.expectedType, obj)
	}
	if r.expectedGVK != nil {
		ro, ok := obj.(runtime.Object)
		if !ok || ro.GetObjectKind().GroupVersionKind() != *r.expectedGVK {
			return fmt.Errorf("expected kind %v, but got %T %v", r.expectedGVK, obj, kindOf(obj))
		}
	}
	return nil
}

func kindOf(obj any) schema.GroupVersionKind {
	if ro, ok := obj.(runtime.Object); ok {
		return ro.GetObjectKind().GroupVersionKind()
	}
	return schema.GroupVersionKind{}
}

// watchTimeout returns a server-side timeout between the minimum and twice it.
func (r *Reflector) watchTimeout() *int64 {
	seconds := int64(r.minWatchTimeout.Seconds() * (1 + rand.Float64()))
	return &seconds
}

// watchLoop watches from the last resourceVersion, rewatching when a watch ends cleanly or with an
// error that does not need a relist. w, if not nil, is an already open watch.
func (r *Reflector) watchLoop(ctx context.Context, w watch.Interface) error {
	for {
		if ctx.Err() != nil {
			return nil
		}
		if w == nil {
			options := metav1.ListOptions{
				ResourceVersion:     r.LastSyncResourceVersion(),
				TimeoutSeconds:      r.watchTimeout(),
				AllowWatchBookmarks: true,
			}
			var err error
			w, err = r.lw.WatchWithContext(ctx, options)
			if err == nil && isNil(w) {
				err = errNoWatch
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				if utilnet.IsConnectionRefused(err) || apierrors.IsTooManyRequests(err) {
					r.watchErrorHandler(ctx, r, err)
					if !pause.For(ctx, r.clock, r.backoff.after(err)) {
						return nil
					}
					continue
				}
				return fmt.Errorf("failed to watch %s: %w", r.typeDescription, err)
			}
		}
		err := r.handleWatch(ctx, w)
		w = nil
		switch {
		case err == nil:
			continue
		case ctx.Err() != nil:
			return nil
		case isExpiredError(err) || isTooLargeResourceVersionError(err):
			return err
		}
		// The stream misbehaved (wrong object, error event, transport failure, very short watch):
		// watch again from the last good resourceVersion after a pause.
		r.watchErrorHandler(ctx, r, err)
		if !pause.For(ctx, r.clock, r.backoff.after(err)) {
			return nil
		}
	}
}

// handleWatch applies the events of w to the store until it ends. It returns nil when the server
// closed the watch normally. A watch that delivers an event, or stays open for healthyWatch, shows
// that the server is serving again: the backoff returns to its initial delay.
func (r *Reflector) handleWatch(ctx context.Context, w watch.Interface) error {
	defer w.Stop()
	r.metrics.watches.Inc()
	start := r.clock.Now()
	count := 0
	defer func() {
		lasted := r.clock.Since(start)
		if lasted >= healthyWatch {
			r.healthy(ctx)
		}
		r.metrics.watchDuration.Observe(lasted.Seconds())
		r.metrics.itemsInWatch.Observe(float64(count))
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.ResultChan():
			if !ok {
				if count == 0 && r.clock.Since(start) < healthyWatch {
					r.metrics.shortWatches.Inc()
					return &VeryShortWatchError{Name: r.name}
				}
				return nil
			}
			if err := r.applyEvent(e); err != nil {
				return err
			}
			if count == 0 {
				r.healthy(ctx)
			}
			count++
		}
	}
}

// healthy records that the watch works again: the backoff returns to its initial delay, and a streak
// of transient failures, if any, is closed with one log line.
func (r *Reflector) healthy(ctx context.Context) {
	r.backoff.reset()
	if count, since := r.failures.end(); count > 0 {
		klog.FromContext(ctx).Info("Watch recovered", "reflector", r.name, "type", r.typeDescription, "failures", count, "after", r.clock.Since(since).Round(time.Millisecond))
	}
}

// applyEvent writes one watch event to the store and advances the last resourceVersion.
func (r *Reflector) applyEvent(e watch.Event) error {
	if e.Type == watch.Error {
		return eventError(e.Object)
	}
	if err := r.checkType(e.Object); err != nil {
		return fmt.Errorf("watch event %s: %w", e.Type, err)
	}
	m, err := meta.Accessor(e.Object)
	if err != nil {
		return fmt.Errorf("watch event %s: object without metadata: %w", e.Type, err)
	}
	rv := m.GetResourceVersion()
	switch e.Type {
	case watch.Added:
		err = r.store.Add(e.Object)
	case watch.Modified:
		err = r.store.Update(e.Object)
	case watch.Deleted:
		err = r.store.Delete(e.Object)
	case watch.Bookmark:
		if b, ok := r.store.(bookmarkStore); ok {
			b.Bookmark(rv)
		}
	default:
		return fmt.Errorf("watch event of unknown type %q", e.Type)
	}
	if err != nil {
		return fmt.Errorf("unable to apply watch event %s: %w", e.Type, err)
	}
	r.setLastSyncResourceVersion(rv)
	return nil
}

// eventError turns the object of an ERROR watch event into an error.
func eventError(obj runtime.Object) error {
	if status, ok := obj.(*metav1.Status); ok {
		return apierrors.FromObject(status)
	}
	if u, ok := obj.(*unstructured.Unstructured); ok && u.GetKind() == "Status" {
		status := &metav1.Status{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, status); err == nil {
			return apierrors.FromObject(status)
		}
	}
	return fmt.Errorf("watch error event with object %T", obj)
}

var (
	errNoWatch               = errors.New("watch returned no watch.Interface")
	errWatchListIncomplete   = errors.New("streaming list did not complete")
	errInitialEventsDeadline = errors.New("no initial-events-end bookmark before the deadline")
)

// watchList fetches the initial state with a streaming list: a watch that first sends every object and
// then a bookmark annotated as the end of the initial events. The state is stored with one Replace and
// the still-open watch is returned. If the stream goes idle before that bookmark, it gives up.
func (r *Reflector) watchList(ctx context.Context) (watch.Interface, error) {
	start := r.clock.Now()
	r.metrics.lists.Inc()
	sendInitialEvents := true
	options := metav1.ListOptions{
		ResourceVersion:      r.LastSyncResourceVersion(),
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		SendInitialEvents:    &sendInitialEvents,
		AllowWatchBookmarks:  true,
		TimeoutSeconds:       r.watchTimeout(),
	}
	w, err := r.lw.WatchWithContext(ctx, options)
	if err == nil && isNil(w) {
		err = errNoWatch
	}
	if err != nil {
		return nil, err
	}
	var items []any
	prep, _ := r.store.(listPreparer)
	idle := r.clock.NewTimer(r.idleTimeout)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			w.Stop()
			return nil, ctx.Err()
		case <-idle.C():
			w.Stop()
			return nil, errInitialEventsDeadline
		case e, ok := <-w.ResultChan():
			if !ok {
				return nil, errors.New("watch closed before the initial-events-end bookmark")
			}
			idle.Reset(r.idleTimeout)
			if e.Type == watch.Error {
				w.Stop()
				return nil, eventError(e.Object)
			}
			if err := r.checkType(e.Object); err != nil {
				w.Stop()
				return nil, err
			}
			m, err := meta.Accessor(e.Object)
			if err != nil {
				w.Stop()
				return nil, err
			}
			switch e.Type {
			case watch.Added:
				if prep != nil {
					items = append(items, prep.prepare(e.Object))
				} else {
					items = append(items, e.Object)
				}
			case watch.Bookmark:
				if m.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" {
					continue
				}
				rv := m.GetResourceVersion()
				r.metrics.listDuration.Observe(r.clock.Since(start).Seconds())
				r.metrics.itemsInList.Observe(float64(len(items)))
				if err := r.replaceList(items, rv); err != nil {
					w.Stop()
					return nil, err
				}
				r.setLastSyncResourceVersion(rv)
				r.setResourceVersionUnavailable(false)
				return w, nil
			default:
				w.Stop()
				return nil, fmt.Errorf("unexpected %s event before the initial-events-end bookmark", e.Type)
			}
		}
	}
}

func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

func isTooLargeResourceVersionError(err error) bool {
	return apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge)
}

// backoff hands out the reflector's retry delays: exponentially growing and jittered while failures
// follow one another, and back at the initial delay once the reflector is healthy again (reset), or
// when no delay was handed out for resetAfter. It also allows one relist without delay after a watch
// expired, per healthy period.
type backoff struct {
	config     wait.Backoff
	resetAfter time.Duration
	clock      clock.Clock

	mu       sync.Mutex
	current  time.Duration // base of the next delay; zero means the initial one
	last     time.Time     // when the last delay was handed out
	relisted bool          // the relist without delay was used since the reflector was last healthy
}

// next returns the delay before the next retry and grows the one after it.
func (b *backoff) next() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	if b.current == 0 || now.Sub(b.last) > b.resetAfter {
		b.current = b.config.Duration
	}
	d := b.current
	if b.config.Jitter > 0 {
		d += time.Duration(rand.Float64() * b.config.Jitter * float64(d))
	}
	if b.config.Factor > 1 {
		b.current = time.Duration(float64(b.current) * b.config.Factor)
	}
	if b.config.Cap > 0 && b.current > b.config.Cap {
		b.current = b.config.Cap
	}
	b.last = now
	return d
}

// after returns the delay before retrying after err. A server that could not be reached at all —
// the connection refused, or reset or closed before any response, as by a load balancer in front of
// a server that is down — spent nothing on the attempt, so it is retried after the initial delay
// (jittered) without growing the backoff: the reflector resumes within that delay of the server
// accepting connections again, however long the outage. Failures the server answered (errors, 429,
// timeouts, broken streams) grow the backoff as next does.
func (b *backoff) after(err error) time.Duration {
	if !unreachable(err) {
		return b.next()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.config.Duration
	if b.config.Jitter > 0 {
		d += time.Duration(rand.Float64() * b.config.Jitter * float64(d))
	}
	b.last = b.clock.Now()
	return d
}

// unreachable reports whether err says the request never reached a server that answers: the
// connection was refused, or reset or closed before a response.
func unreachable(err error) bool {
	if err == nil {
		return false
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return false // the server answered
	}
	return utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) || utilnet.IsProbableEOF(err)
}

// relistAtOnce reports whether a relist after an expired watch may go without delay: a watch that
// expired proves the server answers, but a second expiry without a healthy watch in between waits
// for next's delays.
func (b *backoff) relistAtOnce() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.relisted {
		return false
	}
	b.relisted = true
	return true
}

// reset returns to the initial delay: the reflector is healthy.
func (b *backoff) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.current, b.relisted = 0, false
}
