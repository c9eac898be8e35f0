package informers

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// SharedInformerFactory is what a generated factory offers the informers of its types: a generated
// internalinterfaces.SharedInformerFactory satisfies it, with F its internalinterfaces.NewInformerFunc, a
// function building one type's informer from the factory's clientset of type C and the type's resync period.
type SharedInformerFactory[C any, F ~func(C, time.Duration) cache.SharedIndexInformer] interface {
	// InformerFor returns the one informer of obj's type, made by newFunc on first request.
	InformerFor(obj runtime.Object, newFunc F) cache.SharedIndexInformer
	// InformerName is the name the factory's informers publish metrics under, nil if none.
	InformerName() *cache.InformerName
}

// Informer is what a generated <Type>Informer interface offers: a shared informer and a lister of type L
// reading its cache.
type Informer[L any] interface {
	Informer() cache.SharedIndexInformer
	Lister() L
}

// Shared is one object type's shared informer, its lister of type L and its typed view of type I (the
// generated <Type>IndexInformer): the value behind every generated Typed<Type>Informer.
type Shared[L any, I cache.SharedIndexInformer] struct {
	informer func() cache.SharedIndexInformer
	lister   func() L
	typed    func() I
}

// Informer returns the shared informer.
func (s Shared[L, I]) Informer() cache.SharedIndexInformer { return s.informer() }

// Lister returns a lister reading the shared informer's cache.
func (s Shared[L, I]) Lister() L { return s.lister() }

// TypedInformer returns the typed view of the shared informer.
func (s Shared[L, I]) TypedInformer() I { return s.typed() }

// NewShared returns factory f's shared informer of the objects of example's type. On first request
// newInformer builds it with the factory's informer name, a namespace index and tweak; newLister reads its
// cache and toTyped gives its typed view.
func NewShared[C any, F ~func(C, time.Duration) cache.SharedIndexInformer, L any, I cache.SharedIndexInformer](
	f SharedInformerFactory[C, F], example runtime.Object, tweak TweakListOptionsFunc,
	newInformer func(C, InformerOptions) I, newLister func(cache.Indexer) L, toTyped func(cache.SharedIndexInformer) I,
) Shared[L, I] {
	build := F(func(client C, resyncPeriod time.Duration) cache.SharedIndexInformer {
		return newInformer(client, InformerOptions{
			ResyncPeriod:     resyncPeriod,
			Indexers:         cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
			InformerName:     f.InformerName(),
			TweakListOptions: tweak,
		})
	})
	informer := func() cache.SharedIndexInformer { return f.InformerFor(example, build) }
	return Shared[L, I]{
		informer: informer,
		lister:   func() L { return newLister(informer().GetIndexer()) },
		typed:    func() I { return toTyped(informer()) },
	}
}

// InNamespace binds the namespace of a namespaced type's generated New<Type>InformerWithOptions, giving
// the constructor NewShared takes.
func InNamespace[C any, I any](newInformer func(client C, namespace string, options InformerOptions) I, namespace string) func(C, InformerOptions) I {
	return func(client C, options InformerOptions) I { return newInformer(client, namespace, options) }
}

// WithTypedView returns informer with a typed view: the one informer offers when it has a
// TypedInformer method, otherwise toTyped of its shared informer.
func WithTypedView[L any, I cache.SharedIndexInformer](informer Informer[L], toTyped func(cache.SharedIndexInformer) I) Shared[L, I] {
	typed := func() I { return toTyped(informer.Informer()) }
	if own, ok := informer.(interface{ TypedInformer() I }); ok {
		typed = own.TypedInformer
	}
	return Shared[L, I]{informer: informer.Informer, lister: informer.Lister, typed: typed}
}

// TypedView returns the typed view of a shared informer of T objects: the informer itself when it is
// typed already, otherwise a typed wrapper around it.
func TypedView[T cache.Object](informer cache.SharedIndexInformer) cache.TypedSharedIndexInformer[T] {
	if typed, ok := informer.(cache.TypedSharedIndexInformer[T]); ok {
		return typed
	}
	return cache.NewTypedSharedIndexInformer[T](informer)
}
