package informers

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// InformerOptions configure one informer built by NewTypedInformer.
type InformerOptions struct {
	// ResyncPeriod is the handlers' resync period; 0 disables resync.
	ResyncPeriod time.Duration
	// Indexers are the cache's indexes.
	Indexers cache.Indexers
	// InformerName, when set, identifies the informer in metrics together with its resource; only the
	// first informer of a resource under a name publishes.
	InformerName *cache.InformerName
	// TweakListOptions adjusts the options of every list and watch.
	TweakListOptions TweakListOptionsFunc
	// KeepManagedFields keeps metadata.managedFields in cached objects; by default they are dropped
	// (see cache.SharedIndexInformerOptions.KeepManagedFields).
	KeepManagedFields bool
	// DisableSharing caches objects as they were decoded (see
	// cache.SharedIndexInformerOptions.DisableSharing).
	DisableSharing bool
}

// ListFunc lists objects of one type; a generated informer passes its typed client's List.
type ListFunc[L runtime.Object] func(ctx context.Context, opts metav1.ListOptions) (L, error)

// WatchFunc watches objects of one type; a generated informer passes its typed client's Watch.
type WatchFunc func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)

// NewTypedInformer builds a typed shared index informer for objects like example, of resource gvr,
// listing and watching through list and watchFn (with options.TweakListOptions applied). client is the
// clientset the functions use; a client that cannot serve streaming lists (a fake) says so through
// IsWatchListSemanticsUnSupported.
func NewTypedInformer[T cache.Object, L runtime.Object](client any, example T, gvr schema.GroupVersionResource, options InformerOptions, list ListFunc[L], watchFn WatchFunc) cache.TypedSharedIndexInformer[T] {
	exampleObject, _ := any(example).(runtime.Object)
	lw := ListWatchFor(list, watchFn, options.TweakListOptions)
	return cache.NewTypedSharedIndexInformer[T](cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(lw, client),
		exampleObject,
		cache.SharedIndexInformerOptions{
			ResyncPeriod:      options.ResyncPeriod,
			Indexers:          options.Indexers,
			Identifier:        identifier(options.InformerName.WithResource(gvr)),
			KeepManagedFields: options.KeepManagedFields,
			DisableSharing:    options.DisableSharing,
		},
	))
}

// ListWatchFor builds a ListWatch from typed list and watchFn functions, applying tweak (if any) to the
// options of every call.
func ListWatchFor[L runtime.Object](list ListFunc[L], watchFn WatchFunc, tweak TweakListOptionsFunc) *cache.ListWatch {
	apply := func(opts metav1.ListOptions) metav1.ListOptions {
		if tweak != nil {
			tweak(&opts)
		}
		return opts
	}
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return list(ctx, apply(opts))
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return watchFn(ctx, apply(opts))
		},
	}
}

// identifier is the metrics identity of a registered informer, "name/group/version/resource", or ""
// (no metrics) when its registration is not reserved.
func identifier(r cache.InformerNameAndResource) string {
	if !r.Reserved() {
		return ""
	}
	name, gvr := r.Name(), r.GroupVersionResource()
	group := gvr.Group
	if group == "" {
		group = "core"
	}
	return name + "/" + group + "/" + gvr.Version + "/" + gvr.Resource
}
