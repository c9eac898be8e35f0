package cache

import "fmt"

// TypedSharedIndexInformer adds typed variants of the handler and index methods, so callers need no
// casts. It is a view of a SharedIndexInformer, not a second cache.
type TypedSharedIndexInformer[T Object] interface {
	SharedIndexInformer
	// AddTypedEventHandler adds a typed handler; at most one HandlerOptions may be given.
	AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error)
	// AddTypedIndexers adds typed indexes.
	AddTypedIndexers(indexers TypedIndexers[T]) error
	// GetTypedIndexer returns a typed view of the cache.
	GetTypedIndexer() TypedIndexer[T]
}

// NewTypedSharedIndexInformer returns a typed view of informer.
func NewTypedSharedIndexInformer[T Object](informer SharedIndexInformer) TypedSharedIndexInformer[T] {
	return typedSharedIndexInformer[T]{informer}
}

type typedSharedIndexInformer[T Object] struct {
	SharedIndexInformer
}

func (s typedSharedIndexInformer[T]) AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error) {
	var o HandlerOptions
	switch len(options) {
	case 0:
	case 1:
		o = options[0]
	default:
		return nil, fmt.Errorf("at most one HandlerOptions may be passed, got %d", len(options))
	}
	return s.AddEventHandlerWithOptions(untypedHandler[T]{handler}, o)
}

func (s typedSharedIndexInformer[T]) AddTypedIndexers(indexers TypedIndexers[T]) error {
	return s.AddIndexers(TypedIndexersToIndexers(indexers))
}

func (s typedSharedIndexInformer[T]) GetTypedIndexer() TypedIndexer[T] {
	return NewTypedIndexer[T](s.GetIndexer())
}
