package consistentread

import (
	"context"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/runtime/listers"
)

// Lister reads objects of type T from a Reader's informer, as a generated lister does, after waiting
// until the cache holds the recorder's writes: Get the last write to that object, List every write
// (to the Lister's namespace, if it has one). The objects are shared with the cache: do not modify
// them.
type Lister[T runtime.Object] struct {
	reader    *Reader
	indexer   listers.ResourceIndexer[T]
	namespace string
}

// NewLister returns a Lister of the objects reader's informer holds, across all namespaces.
func NewLister[T runtime.Object](reader *Reader) Lister[T] {
	return Lister[T]{reader: reader, indexer: listers.New[T](reader.Indexer(), reader.Resource())}
}

// Namespace returns a Lister of the objects in namespace.
func (l Lister[T]) Namespace(namespace string) Lister[T] {
	return Lister[T]{reader: l.reader, indexer: listers.NewNamespaced(l.indexer, namespace), namespace: namespace}
}

// Get waits for the recorder's last write to the object called name (in the Lister's namespace) to
// be in the cache, then returns the object, or a NotFound error naming the resource.
func (l Lister[T]) Get(ctx context.Context, name string) (T, error) {
	if err := l.reader.WaitForObject(ctx, l.namespace, name); err != nil {
		var zero T
		return zero, err
	}
	return l.indexer.Get(name)
}

// List waits for the recorder's writes (to the Lister's namespace, if any) to be in the cache, then
// returns the objects matching selector.
func (l Lister[T]) List(ctx context.Context, selector labels.Selector) ([]T, error) {
	if err := l.reader.waitForWrites(ctx, l.namespace); err != nil {
		return nil, err
	}
	return l.indexer.List(selector)
}
