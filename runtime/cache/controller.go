package cache

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
)

// Controller runs a list/watch loop feeding a cache.
type Controller interface {
	// RunWithContext runs until ctx is done.
	RunWithContext(ctx context.Context)
	// Run runs until stopCh is closed.
	Run(stopCh <-chan struct{})
	// HasSynced reports whether the initial list has been applied.
	HasSynced() bool
	// HasSyncedChecker returns a DoneChecker for HasSynced.
	HasSyncedChecker() DoneChecker
	// LastSyncResourceVersion returns the resourceVersion last observed from the server.
	LastSyncResourceVersion() string
}

type informerController struct{ s *sharedIndexInformer }

func (c informerController) RunWithContext(ctx context.Context) { c.s.RunWithContext(ctx) }
func (c informerController) Run(stopCh <-chan struct{})         { c.s.Run(stopCh) }
func (c informerController) HasSynced() bool                    { return c.s.HasSynced() }
func (c informerController) HasSyncedChecker() DoneChecker      { return c.s.HasSyncedChecker() }
func (c informerController) LastSyncResourceVersion() string    { return c.s.LastSyncResourceVersion() }

// InformerOptions configures NewInformerWithOptions.
type InformerOptions struct {
	// ListerWatcher lists and watches the collection.
	ListerWatcher ListerWatcher
	// ObjectType is an example object of the listed type.
	ObjectType runtime.Object
	// Handler receives the changes.
	Handler ResourceEventHandler
	// ResyncPeriod, if not zero, re-sends every object to Handler each period.
	ResyncPeriod time.Duration
	// MinWatchTimeout is the minimum server-side timeout of a watch.
	MinWatchTimeout time.Duration
	// Indexers are the cache's indexes.
	Indexers Indexers
	// Transform is applied once to every object before it is cached.
	Transform TransformFunc
	// KeepManagedFields keeps metadata.managedFields in cached objects, which are dropped by default;
	// see SharedIndexInformerOptions.KeepManagedFields.
	KeepManagedFields bool
	// DisableSharing caches objects as they were decoded; see SharedIndexInformerOptions.DisableSharing.
	DisableSharing bool
}

// NewInformerWithOptions returns a cache of the collection and the Controller that fills it, calling
// options.Handler for every change. It is a shared informer with exactly one handler.
func NewInformerWithOptions(options InformerOptions) (Store, Controller) {
	indexers := options.Indexers
	if indexers == nil {
		indexers = Indexers{}
	}
	s := NewSharedIndexInformerWithOptions(options.ListerWatcher, options.ObjectType, SharedIndexInformerOptions{
		ResyncPeriod:      options.ResyncPeriod,
		Indexers:          indexers,
		MinWatchTimeout:   options.MinWatchTimeout,
		KeepManagedFields: options.KeepManagedFields,
		DisableSharing:    options.DisableSharing,
	}).(*sharedIndexInformer)
	if options.Transform != nil {
		s.queue.setTransform(options.Transform)
	}
	if options.Handler != nil {
		// A fresh informer is neither started nor stopped, so adding cannot fail.
		_, _ = s.AddEventHandler(options.Handler)
	}
	return s.indexer, informerController{s}
}

// NewInformer returns a cache of the collection and the Controller that fills it, calling h for
// every change.
func NewInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler) (Store, Controller) {
	return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, ResyncPeriod: resyncPeriod, Handler: h})
}

// NewIndexerInformer is NewInformer with an indexed cache.
func NewIndexerInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, indexers Indexers) (Indexer, Controller) {
	store, c := NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, ResyncPeriod: resyncPeriod, Handler: h, Indexers: indexers})
	return store.(Indexer), c
}

// NewTransformingInformer is NewInformer with a transform applied before caching.
func NewTransformingInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, transformer TransformFunc) (Store, Controller) {
	return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, ResyncPeriod: resyncPeriod, Handler: h, Transform: transformer})
}

// NewTransformingIndexerInformer is NewIndexerInformer with a transform applied before caching.
func NewTransformingIndexerInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, indexers Indexers, transformer TransformFunc) (Indexer, Controller) {
	store, c := NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, ResyncPeriod: resyncPeriod, Handler: h, Indexers: indexers, Transform: transformer})
	return store.(Indexer), c
}

// stopChannelContext returns a context that is cancelled when stopCh closes or cancel is called.
func stopChannelContext(stopCh <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-stopCh:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}
