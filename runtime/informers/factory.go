package informers

import (
	"context"
	"reflect"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// TweakListOptionsFunc adjusts the list options of every list and watch an informer makes.
type TweakListOptionsFunc func(*metav1.ListOptions)

// FactoryOption configures a Factory.
type FactoryOption func(*Factory)

// WithNamespace limits the factory's informers to one namespace.
func WithNamespace(namespace string) FactoryOption {
	return func(f *Factory) { f.namespace = namespace }
}

// WithTweakListOptions sets a function that adjusts the list options of every informer, for example to
// add a label selector.
func WithTweakListOptions(tweak TweakListOptionsFunc) FactoryOption {
	return func(f *Factory) { f.tweakListOptions = tweak }
}

// WithCustomResyncConfig sets the resync period per object type, overriding the factory default.
func WithCustomResyncConfig(resyncConfig map[metav1.Object]time.Duration) FactoryOption {
	return func(f *Factory) {
		for obj, resync := range resyncConfig {
			f.customResync[reflect.TypeOf(obj)] = resync
		}
	}
}

// WithTransform sets a transform applied by every informer to objects before they are cached, after
// metadata.managedFields has been dropped from them (see WithKeepManagedFields).
func WithTransform(transform cache.TransformFunc) FactoryOption {
	return func(f *Factory) { f.transform = transform }
}

// WithKeepManagedFields(true) makes every informer of the factory keep metadata.managedFields in the
// objects it caches. By default informers drop them, since they are often a third or more of an object
// and controllers rarely read them; code that needs them (Extract* of apply configurations, for one)
// reads the object from the server instead.
func WithKeepManagedFields(keep bool) FactoryOption {
	return func(f *Factory) { f.keepManagedFields = keep }
}

// WithDisableSharing(true) makes every informer of the factory cache objects as they were decoded.
// By default informers share one copy of equal parts of the objects they cache (resource lists,
// probes and tolerations of Pods of one template, label maps, strings, what a watch update repeats),
// which saves a third to two thirds of a cache's memory for some CPU on every object that arrives (see
// cache.SharedIndexInformerOptions.DisableSharing).
func WithDisableSharing(disable bool) FactoryOption {
	return func(f *Factory) { f.disableSharing = disable }
}

// WithShardSelector makes every informer of the factory list, watch and cache only the objects
// shardSelector selects (see cache.SharedInformer.SetShardSelector and cache.NewShardedListWatch).
func WithShardSelector(shardSelector sharding.Selector) FactoryOption {
	return func(f *Factory) { f.shardSelector = shardSelector }
}

// WithInformerName names the factory in informer metrics; each informer is then identified as the name
// followed by its group, version and (plural) resource. Without a name informers emit no metrics.
func WithInformerName(name *cache.InformerName) FactoryOption {
	return func(f *Factory) { f.informerName = name }
}

// Factory shares one informer per object type among all users and starts, stops and waits for them
// together.
type Factory struct {
	namespace         string
	tweakListOptions  TweakListOptionsFunc
	defaultResync     time.Duration
	customResync      map[reflect.Type]time.Duration
	transform         cache.TransformFunc
	keepManagedFields bool
	disableSharing    bool
	shardSelector     sharding.Selector
	informerName      *cache.InformerName

	mu        sync.Mutex
	informers map[reflect.Type]cache.SharedIndexInformer
	started   map[reflect.Type]bool
	wg        sync.WaitGroup
	stopping  bool

	shutdown      context.Context // ends when Shutdown is called
	stopInformers context.CancelFunc
}

// NewFactory returns a Factory whose informers resync every defaultResync (0 disables resync).
func NewFactory(defaultResync time.Duration, options ...FactoryOption) *Factory {
	f := &Factory{
		defaultResync: defaultResync,
		customResync:  map[reflect.Type]time.Duration{},
		informers:     map[reflect.Type]cache.SharedIndexInformer{},
		started:       map[reflect.Type]bool{},
	}
	f.shutdown, f.stopInformers = context.WithCancel(context.Background())
	for _, o := range options {
		o(f)
	}
	return f
}

// Namespace is the namespace informers are limited to ("" for all).
func (f *Factory) Namespace() string { return f.namespace }

// TweakListOptions is the factory-wide list-options tweak, nil if none.
func (f *Factory) TweakListOptions() TweakListOptionsFunc { return f.tweakListOptions }

// InformerName is the name the factory's informers publish metrics under, nil if none.
func (f *Factory) InformerName() *cache.InformerName { return f.informerName }

// InformerFor returns the shared informer for obj's type, creating it with newFunc and the type's
// resync period on first use.
func (f *Factory) InformerFor(obj runtime.Object, newFunc func(resyncPeriod time.Duration) cache.SharedIndexInformer) cache.SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := reflect.TypeOf(obj)
	if informer, ok := f.informers[t]; ok {
		return informer
	}
	resync, ok := f.customResync[t]
	if !ok {
		resync = f.defaultResync
	}
	informer := newFunc(resync)
	// A new informer has not run yet, so setting its transform, managedFields or sharing policy, or its
	// shard selector, cannot fail.
	if f.transform != nil {
		_ = informer.SetTransform(f.transform)
	}
	if f.keepManagedFields {
		_ = informer.SetKeepManagedFields(true)
	}
	if f.disableSharing {
		_ = informer.SetDisableSharing(true)
	}
	if f.shardSelector != nil {
		_ = informer.SetShardSelector(f.shardSelector)
	}
	f.informers[t] = informer
	return informer
}

// Start runs every informer requested so far that is not running yet, until stopCh closes.
// It does not block and may be called again after requesting more informers.
func (f *Factory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext runs every informer requested so far that is not running yet, until ctx ends or
// Shutdown is called.
func (f *Factory) StartWithContext(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopping {
		return
	}
	for t, informer := range f.informers {
		if !f.started[t] {
			run, stop := context.WithCancel(ctx)
			stopOnShutdown := context.AfterFunc(f.shutdown, stop)
			f.wg.Go(func() {
				defer stopOnShutdown()
				defer stop()
				informer.RunWithContext(run)
			})
			f.started[t] = true
		}
	}
}

// Shutdown stops the started informers, makes later Start calls no-ops and waits until every informer
// has returned. Unlike client-go's, it does not wait for the informers' stop channel to close, so
// deferring it before or after cancelling that channel's context both work.
func (f *Factory) Shutdown() {
	f.mu.Lock()
	f.stopping = true
	f.mu.Unlock()
	f.stopInformers()
	f.wg.Wait()
}

// WaitForCacheSync waits until every started informer has synced or stopCh closes, and reports per type
// whether it synced.
func (f *Factory) WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool {
	return f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh)).Synced
}

// WaitForCacheSyncWithContext waits until every started informer has synced or ctx ends.
func (f *Factory) WaitForCacheSyncWithContext(ctx context.Context) cache.SyncResult {
	informers := f.startedInformers()
	checkers := make([]cache.DoneChecker, 0, len(informers))
	for _, informer := range informers {
		checkers = append(checkers, informer.HasSyncedChecker())
	}
	res := cache.SyncResult{Synced: make(map[reflect.Type]bool, len(informers))}
	if !cache.WaitFor(ctx, "", checkers...) {
		res.Err = context.Cause(ctx)
	}
	for t, informer := range informers {
		res.Synced[t] = informer.HasSynced()
	}
	return res
}

func (f *Factory) startedInformers() map[reflect.Type]cache.SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[reflect.Type]cache.SharedIndexInformer{}
	for t, informer := range f.informers {
		if f.started[t] {
			out[t] = informer
		}
	}
	return out
}
