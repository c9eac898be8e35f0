// Package dynamicinformer provides shared informers over the dynamic client, caching any resource as
// unstructured.Unstructured. Its surface mirrors client-go's dynamic/dynamicinformer.
package dynamicinformer

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/informers"
)

// TweakListOptionsFunc adjusts the list and watch options of an informer, e.g. to add a label selector.
type TweakListOptionsFunc = informers.TweakListOptionsFunc

// GenericInformer gives access to a shared informer and a lister over its cache.
type GenericInformer interface {
	// Informer returns the shared informer.
	Informer() cache.SharedIndexInformer
	// Lister returns a lister over the informer's cache.
	Lister() cache.GenericLister
}

// DynamicSharedInformerFactory hands out one shared informer per resource.
type DynamicSharedInformerFactory interface {
	// Start runs every informer requested so far that is not running yet, until stopCh closes.
	Start(stopCh <-chan struct{})
	// StartWithContext runs every informer requested so far that is not running yet, until ctx
	// ends.
	StartWithContext(ctx context.Context)
	// ForResource returns the shared informer for gvr, creating it on first request.
	ForResource(gvr schema.GroupVersionResource) GenericInformer
	// WaitForCacheSync waits until every started informer has synced or stopCh closes.
	WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool
	// WaitForCacheSyncWithContext waits until every started informer has synced or ctx ends, and
	// reports why it stopped and which informers synced.
	WaitForCacheSyncWithContext(ctx context.Context) cache.GVRSyncResult
	// Shutdown stops accepting Start calls and waits for started informers to return.
	Shutdown()
}

// NewDynamicSharedInformerFactory returns a factory for informers over all namespaces.
func NewDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration) DynamicSharedInformerFactory {
	return NewFilteredDynamicSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredDynamicSharedInformerFactory returns a factory for informers restricted to namespace and
// with list options adjusted by tweakListOptions.
func NewFilteredDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) DynamicSharedInformerFactory {
	return NewSharedInformerFactoryFor(func(gvr schema.GroupVersionResource) GenericInformer {
		return NewFilteredDynamicInformer(client, gvr, namespace, defaultResync,
			cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, tweakListOptions)
	})
}

// SharedInformerOption configures a factory made by NewDynamicSharedInformerFactoryWithOptions (or
// metadatainformer.NewSharedInformerFactoryWithOptions).
type SharedInformerOption func(*FactoryOptions)

// FactoryOptions are what SharedInformerOptions set.
type FactoryOptions struct {
	// Namespace limits the informers to one namespace ("" for all).
	Namespace string
	// TweakListOptions adjusts the list options of every list and watch.
	TweakListOptions TweakListOptionsFunc
	// Transform is applied by every informer to objects before they are cached, after
	// metadata.managedFields has been dropped from them.
	Transform cache.TransformFunc
	// KeepManagedFields makes every informer keep metadata.managedFields in the objects it caches, which
	// informers drop by default.
	KeepManagedFields bool
	// DisableSharing makes every informer cache objects as they were decoded, without sharing their
	// equal parts (see cache.SharedIndexInformerOptions.DisableSharing).
	DisableSharing bool
	// ShardSelector restricts every informer to the objects it selects (see
	// cache.SharedInformer.SetShardSelector).
	ShardSelector sharding.Selector
}

// WithNamespace limits the factory's informers to one namespace.
func WithNamespace(namespace string) SharedInformerOption {
	return func(o *FactoryOptions) { o.Namespace = namespace }
}

// WithTweakListOptions sets a function that adjusts the list options of every informer, for example to
// add a label selector.
func WithTweakListOptions(tweak TweakListOptionsFunc) SharedInformerOption {
	return func(o *FactoryOptions) { o.TweakListOptions = tweak }
}

// WithTransform sets a transform applied by every informer to objects before they are cached, after
// metadata.managedFields has been dropped from them (see WithKeepManagedFields).
func WithTransform(transform cache.TransformFunc) SharedInformerOption {
	return func(o *FactoryOptions) { o.Transform = transform }
}

// WithKeepManagedFields(true) makes every informer of the factory keep metadata.managedFields in the
// objects it caches; by default informers drop them (see cache.SharedIndexInformerOptions.KeepManagedFields).
func WithKeepManagedFields(keep bool) SharedInformerOption {
	return func(o *FactoryOptions) { o.KeepManagedFields = keep }
}

// WithDisableSharing(true) makes every informer of the factory cache objects as they were decoded;
// by default informers share one copy of equal parts of the objects they cache (see
// cache.SharedIndexInformerOptions.DisableSharing).
func WithDisableSharing(disable bool) SharedInformerOption {
	return func(o *FactoryOptions) { o.DisableSharing = disable }
}

// WithShardSelector makes every informer of the factory list, watch and cache only the objects
// shardSelector selects (see cache.SharedInformer.SetShardSelector and cache.NewShardedListWatch).
func WithShardSelector(shardSelector sharding.Selector) SharedInformerOption {
	return func(o *FactoryOptions) { o.ShardSelector = shardSelector }
}

// NewDynamicSharedInformerFactoryWithOptions returns a factory configured by options (all namespaces unless
// WithNamespace says otherwise).
func NewDynamicSharedInformerFactoryWithOptions(client dynamic.Interface, defaultResync time.Duration, options ...SharedInformerOption) DynamicSharedInformerFactory {
	var o FactoryOptions
	for _, option := range options {
		option(&o)
	}
	return NewSharedInformerFactoryFor(func(gvr schema.GroupVersionResource) GenericInformer {
		return NewFilteredDynamicInformer(client, gvr, o.Namespace, defaultResync,
			cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, o.TweakListOptions)
	}, options...)
}

// NewSharedInformerFactoryFor returns a factory that creates each resource's informer with newInformer
// on first request and applies the transform and managedFields policy of options to it;
// metadatainformer builds its factory with it.
func NewSharedInformerFactoryFor(newInformer func(gvr schema.GroupVersionResource) GenericInformer, options ...SharedInformerOption) DynamicSharedInformerFactory {
	f := &factory{
		newInformer: newInformer,
		informers:   map[schema.GroupVersionResource]GenericInformer{},
		started:     map[schema.GroupVersionResource]bool{},
	}
	for _, option := range options {
		option(&f.options)
	}
	return f
}

type factory struct {
	newInformer func(gvr schema.GroupVersionResource) GenericInformer
	options     FactoryOptions

	mu        sync.Mutex
	informers map[schema.GroupVersionResource]GenericInformer
	started   map[schema.GroupVersionResource]bool
	stopping  bool
	wg        sync.WaitGroup
}

func (f *factory) ForResource(gvr schema.GroupVersionResource) GenericInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if informer, ok := f.informers[gvr]; ok {
		return informer
	}
	informer := f.newInformer(gvr)
	// A new informer has not run yet, so setting its transform, managedFields or sharing policy, or its
	// shard selector, cannot fail.
	if f.options.Transform != nil {
		_ = informer.Informer().SetTransform(f.options.Transform)
	}
	if f.options.KeepManagedFields {
		_ = informer.Informer().SetKeepManagedFields(true)
	}
	if f.options.DisableSharing {
		_ = informer.Informer().SetDisableSharing(true)
	}
	if f.options.ShardSelector != nil {
		_ = informer.Informer().SetShardSelector(f.options.ShardSelector)
	}
	f.informers[gvr] = informer
	return informer
}

func (f *factory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

func (f *factory) StartWithContext(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopping {
		return
	}
	for gvr, informer := range f.informers {
		if !f.started[gvr] {
			inf := informer.Informer()
			f.wg.Go(func() { inf.RunWithContext(ctx) })
			f.started[gvr] = true
		}
	}
}

func (f *factory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	return f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh)).Synced
}

func (f *factory) WaitForCacheSyncWithContext(ctx context.Context) cache.GVRSyncResult {
	f.mu.Lock()
	started := map[schema.GroupVersionResource]cache.SharedIndexInformer{}
	for gvr, informer := range f.informers {
		if f.started[gvr] {
			started[gvr] = informer.Informer()
		}
	}
	f.mu.Unlock()
	checkers := make([]cache.DoneChecker, 0, len(started))
	for _, informer := range started {
		checkers = append(checkers, informer.HasSyncedChecker())
	}
	res := cache.GVRSyncResult{Synced: make(map[schema.GroupVersionResource]bool, len(started))}
	if !cache.WaitFor(ctx, "", checkers...) {
		res.Err = context.Cause(ctx)
	}
	for gvr, informer := range started {
		res.Synced[gvr] = informer.HasSynced()
	}
	return res
}

func (f *factory) Shutdown() {
	f.mu.Lock()
	f.stopping = true
	f.mu.Unlock()
	f.wg.Wait()
}

// NewFilteredDynamicInformer returns a standalone (unshared) informer for gvr in namespace.
func NewFilteredDynamicInformer(client dynamic.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions TweakListOptionsFunc) GenericInformer {
	resource := client.Resource(gvr).Namespace(namespace)
	lw := informers.ListWatchFor(resource.List, resource.Watch, tweakListOptions)
	informer := cache.NewSharedIndexInformerWithOptions(lw, &unstructured.Unstructured{}, cache.SharedIndexInformerOptions{
		ResyncPeriod:      resyncPeriod,
		Indexers:          indexers,
		ObjectDescription: gvr.String(),
	})
	return NewGenericInformer(informer, gvr.GroupResource())
}

// NewGenericInformer pairs informer with a generic lister over its cache for resource.
func NewGenericInformer(informer cache.SharedIndexInformer, resource schema.GroupResource) GenericInformer {
	return &genericInformer{informer: informer, resource: resource}
}

type genericInformer struct {
	informer cache.SharedIndexInformer
	resource schema.GroupResource
}

func (g *genericInformer) Informer() cache.SharedIndexInformer { return g.informer }

func (g *genericInformer) Lister() cache.GenericLister {
	return cache.NewGenericLister(g.informer.GetIndexer(), g.resource)
}
