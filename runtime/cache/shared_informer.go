package cache

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// SharedInformer keeps a local cache of one collection up to date and fans its changes out to any
// number of handlers, each running in its own goroutine with its own unbounded buffer.
type SharedInformer interface {
	// AddEventHandler adds a handler with the informer's default resync period.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithResyncPeriod adds a handler that is re-sent every object each resyncPeriod.
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithOptions adds a handler configured by options.
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler stops and removes a handler.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// GetStore returns the cache.
	GetStore() Store
	// GetController returns a Controller view of the informer.
	GetController() Controller
	// Run runs the informer until stopCh is closed.
	Run(stopCh <-chan struct{})
	// RunWithContext runs the informer until ctx is done.
	RunWithContext(ctx context.Context)
	// HasSynced reports whether the initial list has been applied to the cache.
	HasSynced() bool
	// HasSyncedChecker returns a DoneChecker for HasSynced.
	HasSyncedChecker() DoneChecker
	// LastSyncResourceVersion returns the resourceVersion last observed from the server.
	LastSyncResourceVersion() string
	// SetWatchErrorHandler sets the handler called when a list or watch fails; only before Run.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	// SetWatchErrorHandlerWithContext is SetWatchErrorHandler with a context; only before Run.
	SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error
	// SetTransform sets a function applied once to every object before it is cached; only before Run.
	// It runs after metadata.managedFields has been dropped (see SetKeepManagedFields).
	SetTransform(handler TransformFunc) error
	// SetKeepManagedFields(true) keeps metadata.managedFields in cached objects, which the informer
	// otherwise drops before its transform runs; only before Run.
	SetKeepManagedFields(keep bool) error
	// SetDisableSharing(true) caches objects as they were decoded, without sharing their equal parts,
	// as SharedIndexInformerOptions.DisableSharing does; only before Run.
	SetDisableSharing(disable bool) error
	// SetShardSelector makes the informer list and watch only the objects selector selects, through
	// NewShardedListWatch around its ListerWatcher (and any wrappers WrapListerWatcher added); only
	// before Run. A nil or empty selector selects every object.
	SetShardSelector(selector sharding.Selector) error
	// WrapListerWatcher makes the informer list and watch through wrap(lw) instead of its own
	// ListerWatcher lw, for example to restrict it to a shard of the objects (sharding.Replica.Shard);
	// only before Run. Wrappers set by repeated calls nest, the last one outermost.
	WrapListerWatcher(wrap func(ListerWatcher) ListerWatcher) error
	// IsStopped reports whether the informer has stopped.
	IsStopped() bool
}

// SharedIndexInformer is a SharedInformer whose cache is an Indexer.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers adds indexes to the cache; it works before and after Run.
	AddIndexers(indexers Indexers) error
	// GetIndexer returns the cache.
	GetIndexer() Indexer
}

// ResourceEventHandlerRegistration identifies an added handler.
type ResourceEventHandlerRegistration interface {
	// HasSynced reports whether the handler has been handed all of the informer's initial contents.
	HasSynced() bool
	// HasSyncedChecker returns a DoneChecker for HasSynced.
	HasSyncedChecker() DoneChecker
}

// HandlerOptions configures a handler.
type HandlerOptions struct {
	// Logger receives the messages about this handler (its registration, slow-handler warnings); nil
	// means klog's default.
	Logger *klog.Logger
	// ResyncPeriod, when set, overrides the informer's default resync period for this handler.
	ResyncPeriod *time.Duration
}

// TransformFunc rewrites an object before it is cached, for example to drop fields the program never
// reads. It may modify the object in place. The informer owns the object it returns, as it owns what its
// ListerWatcher returns: it may share that object's equal parts with other cached objects by rewriting
// its strings, maps, slices and pointers (see SharedIndexInformerOptions.DisableSharing), so a
// transform must not return an object it keeps or shares elsewhere.
type TransformFunc func(any) (any, error)

// SharedIndexInformerOptions configures NewSharedIndexInformerWithOptions.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the default resync period of handlers; 0 disables resync.
	ResyncPeriod time.Duration
	// Indexers are the cache's indexes.
	Indexers Indexers
	// ObjectDescription names the cached type in logs; it defaults to the example object's type.
	ObjectDescription string
	// Identifier names the informer in metrics; informers without one emit no informer metrics.
	Identifier string
	// InformerMetricsProvider overrides the provider set with SetInformerMetricsProvider.
	InformerMetricsProvider InformerMetricsProvider
	// DisableWatchList makes the reflector use LIST and WATCH instead of a streaming list.
	DisableWatchList bool
	// MinWatchTimeout is the minimum server-side timeout of a watch; it defaults to five minutes.
	MinWatchTimeout time.Duration
	// Clock drives resync periods; tests use a fake one.
	Clock clock.Clock
	// Backoff sets the reflector's retry delays; see ReflectorOptions.Backoff.
	Backoff *wait.Backoff
	// WatchListIdleTimeout bounds the wait for a streaming list's end; see ReflectorOptions.
	WatchListIdleTimeout time.Duration
	// MutationDetector checks that nobody modifies cached objects in place. Nil means
	// NewCacheMutationDetector: active in test binaries and when KGEN_CACHE_MUTATION_DETECTOR is true.
	MutationDetector MutationDetector
	// KeepManagedFields keeps metadata.managedFields in cached objects. By default the informer drops
	// them as objects arrive, before any transform, since they are often a third or more of an
	// object and controllers rarely read them; code that needs them reads the object from the server.
	KeepManagedFields bool
	// DisableSharing caches objects as they were decoded. By default the informer makes equal parts of
	// the objects it caches share one copy: before an object is cached, each of its strings, maps,
	// slices and pointed-to values whose content equals the same part of a similar cached object (the
	// object's previous version, or the last one cached with the same controller owner or before it)
	// is replaced by that object's part. The Pods of one template then share their resource lists,
	// probes, tolerations and label maps, custom objects of one kind their specs and labels, and a
	// watch update most of the version it replaces: a cache of Pods holds about 40% of the memory.
	// It costs CPU on every object that arrives: a few microseconds for a listed Pod, about 15 for a
	// watch update of one (walked against a version no longer in the processor's caches), which makes
	// a burst of updates take longer than without sharing. Sharing is safe because cached objects
	// are read-only; a program that modifies cached objects in place (a bug with or without sharing)
	// would then change other objects too. Sharing is off while a mutation detector asked for with
	// KGEN_CACHE_MUTATION_DETECTOR or MutationDetector runs, so that its reports name only the objects
	// actually modified; the detector test binaries run by default keeps it on (see
	// NewCacheMutationDetector).
	DisableSharing bool
	// ShardSelector, when set, restricts the informer to the objects it selects, as SetShardSelector
	// does.
	ShardSelector sharding.Selector
}

// minimumResyncPeriod is the shortest resync period a handler can get.
const minimumResyncPeriod = time.Second

// maxBatch bounds how many events are applied under one hold of the store's write lock, so that readers
// interleave with a long burst of writes. A relist is always applied as one step.
const maxBatch = 512

// NewSharedInformer returns a SharedInformer for lw.
func NewSharedInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultEventHandlerResyncPeriod, Indexers{})
}

// NewSharedIndexInformer returns a SharedIndexInformer for lw with the given indexes.
func NewSharedIndexInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration, indexers Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{
		ResyncPeriod: defaultEventHandlerResyncPeriod,
		Indexers:     indexers,
	})
}

// NewSharedIndexInformerWithOptions returns a SharedIndexInformer for lw. exampleObject is an object
// of the listed type; the reflector logs and skips objects of any other type.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, exampleObject runtime.Object, options SharedIndexInformerOptions) SharedIndexInformer {
	provider := options.InformerMetricsProvider
	if provider == nil {
		provider = informerMetricsProvider()
	}
	if options.Identifier == "" {
		provider = noopMetricsProvider{}
	}
	if options.Clock == nil {
		options.Clock = clock.RealClock{}
	}
	store := newKeyedStore(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers, nil)
	store.items.rvGauge = provider.NewStoreResourceVersionMetric(options.Identifier)
	description := options.ObjectDescription
	if description == "" {
		description = describeType(exampleObject)
	}
	detector := options.MutationDetector
	if detector == nil {
		detector = NewCacheMutationDetector(description)
	}
	queue := newEventQueue(provider.NewQueuedItemMetric(options.Identifier), store)
	queue.keepManagedFields = options.KeepManagedFields
	informer := &sharedIndexInformer{
		indexer:           store,
		queue:             queue,
		latency:           provider.NewProcessingLatencyMetric(options.Identifier),
		metrics:           provider,
		identifier:        options.Identifier,
		lw:                lw,
		exampleObject:     exampleObject,
		description:       description,
		defaultResync:     options.ResyncPeriod,
		resyncCheckPeriod: options.ResyncPeriod,
		reflectorOptions: ReflectorOptions{
			Name:                 options.Identifier,
			TypeDescription:      description,
			MinWatchTimeout:      options.MinWatchTimeout,
			DisableWatchList:     options.DisableWatchList,
			Clock:                options.Clock,
			Backoff:              options.Backoff,
			WatchListIdleTimeout: options.WatchListIdleTimeout,
		},
		clock:            options.Clock,
		shardSelector:    options.ShardSelector,
		mutationDetector: detector,
		syncedCh:         make(chan struct{}),
	}
	queue.setSharing(!options.DisableSharing && !informer.detectorForbidsSharing())
	return informer
}

// sharedIndexInformer is the SharedIndexInformer implementation; see the package documentation for
// the data path.
type sharedIndexInformer struct {
	indexer       *keyedStore
	queue         *eventQueue
	latency       HistogramMetric
	metrics       InformerMetricsProvider
	identifier    string
	lw            ListerWatcher
	exampleObject runtime.Object
	description   string
	clock         clock.Clock

	mutationDetector MutationDetector

	// shardSelector, set before Run, restricts what the informer lists and watches.
	shardSelector sharding.Selector

	reflectorOptions ReflectorOptions
	defaultResync    time.Duration

	// mu guards the lifecycle fields below.
	mu                sync.Mutex
	started, stopped  bool
	reflector         *Reflector
	watchErrorHandler WatchErrorHandlerWithContext
	resyncCheckPeriod time.Duration
	listenerWG        sync.WaitGroup
	registrations     int // handlers ever added, numbering their registrations

	// procMu serialises applying events and changing the handler set, so a new handler's snapshot
	// and the notifications that follow it never overlap or leave a gap.
	procMu    sync.Mutex
	listeners []*listener
	synced    bool
	syncedCh  chan struct{}
}

var _ SharedIndexInformer = &sharedIndexInformer{}

func describeType(obj runtime.Object) string {
	if obj == nil {
		return "<unspecified>"
	}
	if u, ok := obj.(interface{ GetKind() string }); ok && u.GetKind() != "" {
		return u.GetKind()
	}
	return fmt.Sprintf("%T", obj)
}

// Run runs the informer until stopCh is closed.
func (s *sharedIndexInformer) Run(stopCh <-chan struct{}) {
	ctx, cancel := stopChannelContext(stopCh)
	defer cancel()
	s.RunWithContext(ctx)
}

// RunWithContext runs the informer until ctx is done. It returns once every goroutine it started,
// including the handlers', has ended.
func (s *sharedIndexInformer) RunWithContext(ctx context.Context) {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		klog.FromContext(ctx).Info("Warning: informer already started; Run called again is a no-op", "type", s.description)
		return
	}
	s.started = true
	options := s.reflectorOptions
	options.ResyncPeriod = s.resyncCheckPeriod
	s.reflector = NewReflectorWithOptions(NewShardedListWatch(s.lw, s.shardSelector), s.exampleObject, s.queue, options)
	s.reflector.ShouldResync = s.shouldResync
	if s.watchErrorHandler != nil {
		s.reflector.watchErrorHandler = s.watchErrorHandler
	}
	s.procMu.Lock()
	for _, l := range s.listeners {
		s.startListenerLocked(l)
	}
	s.procMu.Unlock()
	s.mu.Unlock()

	detected := make(chan struct{})
	go func() {
		defer close(detected)
		s.mutationDetector.Run(ctx.Done())
	}()
	processed := make(chan struct{})
	go func() {
		defer close(processed)
		s.processLoop()
	}()
	s.reflector.RunWithContext(ctx)
	s.queue.close()
	<-processed
	<-detected

	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.procMu.Lock()
	for _, l := range s.listeners {
		l.stop()
	}
	s.procMu.Unlock()
	s.listenerWG.Wait()
}

func (s *sharedIndexInformer) startListenerLocked(l *listener) {
	l.nextSync = s.clock.Now().Add(l.resyncPeriod)
	s.listenerWG.Add(1)
	go func() {
		defer s.listenerWG.Done()
		l.run()
	}()
}

// processLoop applies queued events to the store and hands the resulting notifications to the
// listeners until the queue closes.
func (s *sharedIndexInformer) processLoop() {
	for s.queue.wait() {
		s.applyQueued()
	}
}

// applyQueued takes the store's write lock, then applies what is queued by then (up to maxBatch
// events), so that events arriving while readers hold the lock join the same batch. It then
// distributes the notifications. No lock is held while handlers run: they run in their listeners'
// goroutines.
func (s *sharedIndexInformer) applyQueued() {
	start := s.clock.Now()
	s.procMu.Lock()
	defer s.procMu.Unlock()
	store := s.indexer.items
	store.lock.Lock()
	events := s.queue.take(maxBatch)
	wantNotes := len(s.listeners) > 0
	var notes []notification
	if wantNotes {
		notes = make([]notification, 0, len(events))
	}
	for _, e := range events {
		switch e.kind {
		case eventAdd, eventUpdate:
			key, err := s.indexer.keyFunc(e.obj)
			if err != nil {
				klog.ErrorS(err, "Cannot compute the key of an object; skipped", "type", s.description)
				continue
			}
			old, existed := store.putLocked(key, e.obj)
			s.mutationDetector.AddObject(e.obj)
			setRVFromObject(store, e.obj)
			if !wantNotes {
				continue
			}
			if existed {
				notes = append(notes, notification{kind: notifyUpdate, oldObj: old, newObj: e.obj})
			} else {
				notes = append(notes, notification{kind: notifyAdd, newObj: e.obj})
			}
		case eventDelete:
			key, err := s.indexer.keyFunc(e.obj)
			if err != nil {
				klog.ErrorS(err, "Cannot compute the key of an object; skipped", "type", s.description)
				continue
			}
			if _, existed := store.removeLocked(key); existed && wantNotes {
				notes = append(notes, notification{kind: notifyDelete, oldObj: e.obj})
			}
			setRVFromObject(store, e.obj)
		case eventReplace:
			notes = s.replaceLocked(e.list, e.rv, notes, wantNotes)
		case eventBookmark:
			store.setRVLocked(e.rv)
		case eventResync:
			s.distributeLocked(notes)
			notes = notes[:0:0]
			s.resyncLocked()
		}
	}
	store.lock.Unlock()
	s.distributeLocked(notes)
	s.latency.Observe(s.clock.Since(start).Seconds())
}

// setRVFromObject records the resourceVersion of a watched object as the store's.
func setRVFromObject(store *threadSafeMap, obj any) {
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if m, err := meta.Accessor(obj); err == nil && m.GetResourceVersion() != "" {
		store.setRVLocked(m.GetResourceVersion())
	}
}

// replaceLocked makes the store hold exactly list, in one step: listed objects are added or updated,
// known objects missing from list are deleted with a DeletedFinalStateUnknown. A listed object whose
// resourceVersion did not change yields a resync notification, which only handlers with a resync
// period receive.
func (s *sharedIndexInformer) replaceLocked(list []any, rv string, notes []notification, wantNotes bool) []notification {
	store := s.indexer.items
	initial := !s.synced
	old := store.items
	next := make(map[string]any, len(list))
	if wantNotes {
		notes = slices.Grow(notes, len(list)+len(old)+1)
	}
	for _, obj := range list {
		key, err := s.indexer.keyFunc(obj)
		if err != nil {
			klog.ErrorS(err, "Cannot compute the key of a listed object; skipped", "type", s.description)
			continue
		}
		prev, existed := next[key]
		if !existed {
			prev, existed = old[key]
		}
		next[key] = obj
		s.mutationDetector.AddObject(obj)
		if existed {
			store.indexLocked(key, prev, obj)
		} else {
			store.indexLocked(key, nil, obj)
		}
		if !wantNotes {
			continue
		}
		switch {
		case !existed:
			notes = append(notes, notification{kind: notifyAdd, newObj: obj, initialList: initial})
		case sameResourceVersion(prev, obj):
			notes = append(notes, notification{kind: notifyUpdate, oldObj: prev, newObj: obj, resync: true})
		default:
			notes = append(notes, notification{kind: notifyUpdate, oldObj: prev, newObj: obj})
		}
	}
	for key, prev := range old {
		if _, kept := next[key]; kept {
			continue
		}
		store.indexLocked(key, prev, nil)
		if wantNotes {
			notes = append(notes, notification{kind: notifyDelete, oldObj: DeletedFinalStateUnknown{Key: key, Obj: prev}})
		}
	}
	store.items = next
	store.setRVLocked(rv)
	if !s.synced {
		s.synced = true
		close(s.syncedCh)
		if wantNotes {
			notes = append(notes, notification{kind: notifySynced})
		}
	}
	return notes
}

func sameResourceVersion(a, b any) bool {
	ma, err1 := meta.Accessor(a)
	mb, err2 := meta.Accessor(b)
	return err1 == nil && err2 == nil && ma.GetResourceVersion() != "" && ma.GetResourceVersion() == mb.GetResourceVersion()
}

func (s *sharedIndexInformer) distributeLocked(notes []notification) {
	if len(notes) == 0 {
		return
	}
	for _, l := range s.listeners {
		l.push(notes)
	}
}

// resyncLocked sends every cached object as an update to the handlers whose resync period elapsed.
// The caller holds the store's lock.
func (s *sharedIndexInformer) resyncLocked() {
	now := s.clock.Now()
	var due []*listener
	for _, l := range s.listeners {
		if l.dueForResync(now) {
			due = append(due, l)
		}
	}
	if len(due) == 0 {
		return
	}
	items := s.indexer.items.items
	notes := make([]notification, 0, len(items))
	for _, obj := range items {
		notes = append(notes, notification{kind: notifyUpdate, oldObj: obj, newObj: obj})
	}
	for _, l := range due {
		l.push(notes)
	}
}

// shouldResync reports whether any handler's resync period elapsed.
func (s *sharedIndexInformer) shouldResync() bool {
	s.procMu.Lock()
	defer s.procMu.Unlock()
	now := s.clock.Now()
	for _, l := range s.listeners {
		if l.resyncPeriod > 0 && !now.Before(l.nextSync) {
			return true
		}
	}
	return false
}

// AddEventHandler adds handler with the default resync period.
func (s *sharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{})
}

// AddEventHandlerWithResyncPeriod adds handler with its own resync period.
func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{ResyncPeriod: &resyncPeriod})
}

// AddEventHandlerWithOptions adds handler. A handler added after the initial list receives the current
// contents as adds (isInInitialList true) before any later change.
func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error) {
	if handler == nil {
		return nil, errors.New("handler must not be nil")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to the %s informer because it has stopped", handler, s.description)
	}
	logger := klog.Background()
	if options.Logger != nil {
		logger = *options.Logger
	}
	resync := s.defaultResync
	if options.ResyncPeriod != nil {
		resync = *options.ResyncPeriod
	}
	if resync > 0 {
		resync = max(resync, minimumResyncPeriod)
		switch {
		case !s.started && (s.resyncCheckPeriod == 0 || resync < s.resyncCheckPeriod):
			s.resyncCheckPeriod = resync
		case s.started && s.resyncCheckPeriod == 0:
			logger.Info("Informer started without resync; the handler will not be resynced", "type", s.description, "requested", resync)
			resync = 0
		case s.started && resync < s.resyncCheckPeriod:
			logger.Info("Resync period is shorter than the running informer's check period; using the check period", "type", s.description, "requested", resync, "checkPeriod", s.resyncCheckPeriod)
			resync = s.resyncCheckPeriod
		}
	}
	s.registrations++
	handlerID := fmt.Sprintf("%T#%d", handler, s.registrations)
	l := newListener(handler, resync, fmt.Sprintf("%s handler %T", s.description, handler), listenerReport{
		informer:     s.description,
		registration: handlerID,
		backlog:      s.metrics.NewHandlerBacklogMetric(s.identifier, handlerID),
		logger:       logger,
		clock:        s.clock,
	})
	s.procMu.Lock()
	defer s.procMu.Unlock()
	if s.synced {
		s.indexer.items.lock.RLock()
		notes := make([]notification, 0, len(s.indexer.items.items)+1)
		for _, obj := range s.indexer.items.items {
			notes = append(notes, notification{kind: notifyAdd, newObj: obj, initialList: true})
		}
		s.indexer.items.lock.RUnlock()
		l.push(append(notes, notification{kind: notifySynced}))
	}
	s.listeners = append(s.listeners, l)
	if s.started {
		s.startListenerLocked(l)
	}
	return &registration{l: l, informer: s}, nil
}

// RemoveEventHandler stops and removes the handler; buffered notifications are dropped.
func (s *sharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	r, ok := handle.(*registration)
	if !ok || r.informer != s {
		return fmt.Errorf("registration %v does not belong to this informer", handle)
	}
	s.procMu.Lock()
	defer s.procMu.Unlock()
	for i, l := range s.listeners {
		if l == r.l {
			s.listeners = append(s.listeners[:i], s.listeners[i+1:]...)
			l.stop()
			return nil
		}
	}
	return nil
}

// GetStore returns the cache.
func (s *sharedIndexInformer) GetStore() Store { return s.indexer }

// GetIndexer returns the cache.
func (s *sharedIndexInformer) GetIndexer() Indexer { return s.indexer }

// AddIndexers adds indexes to the cache.
func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error {
	return s.indexer.AddIndexers(indexers)
}

// GetController returns a Controller view of the informer.
func (s *sharedIndexInformer) GetController() Controller { return informerController{s} }

// HasSynced reports whether the initial list has been applied to the cache.
func (s *sharedIndexInformer) HasSynced() bool { return IsDone(s.HasSyncedChecker()) }

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (s *sharedIndexInformer) HasSyncedChecker() DoneChecker {
	return doneChecker{s.description + " informer", s.syncedCh}
}

// LastSyncResourceVersion returns the resourceVersion last observed from the server.
func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	s.mu.Lock()
	r := s.reflector
	s.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

// SetWatchErrorHandler sets the list/watch error handler; only before Run.
func (s *sharedIndexInformer) SetWatchErrorHandler(handler WatchErrorHandler) error {
	return s.SetWatchErrorHandlerWithContext(func(_ context.Context, r *Reflector, err error) { handler(r, err) })
}

// SetWatchErrorHandlerWithContext sets the list/watch error handler; only before Run.
func (s *sharedIndexInformer) SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error {
	return s.beforeRun(func() { s.watchErrorHandler = handler })
}

// beforeRun applies set under the informer's lock unless Run has started, which is an error.
func (s *sharedIndexInformer) beforeRun(set func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errors.New("informer has already started")
	}
	set()
	return nil
}

// WrapListerWatcher replaces the informer's ListerWatcher with wrap of it; only before Run.
func (s *sharedIndexInformer) WrapListerWatcher(wrap func(ListerWatcher) ListerWatcher) error {
	return s.beforeRun(func() { s.lw = wrap(s.lw) })
}

// SetShardSelector sets the shard selector restricting what the informer lists and watches; only
// before Run.
func (s *sharedIndexInformer) SetShardSelector(selector sharding.Selector) error {
	return s.beforeRun(func() { s.shardSelector = selector })
}

// SetTransform sets the transform applied to objects before they are cached; only before Run.
func (s *sharedIndexInformer) SetTransform(handler TransformFunc) error {
	return s.beforeRun(func() { s.queue.setTransform(handler) })
}

// SetKeepManagedFields sets whether cached objects keep metadata.managedFields; only before Run.
func (s *sharedIndexInformer) SetKeepManagedFields(keep bool) error {
	return s.beforeRun(func() { s.queue.setKeepManagedFields(keep) })
}

// SetDisableSharing sets whether cached objects are kept as decoded instead of sharing equal parts
// (the default); only before Run.
func (s *sharedIndexInformer) SetDisableSharing(disable bool) error {
	return s.beforeRun(func() { s.queue.setSharing(!disable && !s.detectorForbidsSharing()) })
}

// detectorForbidsSharing reports whether the informer's mutation detector runs and wants objects
// cached unshared, so that its reports name only the objects actually modified.
func (s *sharedIndexInformer) detectorForbidsSharing() bool {
	switch d := s.mutationDetector.(type) {
	case noMutationDetector:
		return false
	case *mutationDetector:
		return !d.keepsSharing
	}
	return true
}

// IsStopped reports whether Run has returned.
func (s *sharedIndexInformer) IsStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}
