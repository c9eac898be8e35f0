package cache

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/sets"
)

// Indexer is a Store that also maintains secondary indexes over its objects.
type Indexer interface {
	Store
	// Index returns the objects that share at least one indexed value with obj in the named index.
	Index(indexName string, obj any) ([]any, error)
	// IndexKeys returns the keys of the objects indexed under indexedValue.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// ListIndexFuncValues returns every value present in the named index.
	ListIndexFuncValues(indexName string) []string
	// ByIndex returns the objects indexed under indexedValue.
	ByIndex(indexName, indexedValue string) ([]any, error)
	// GetIndexers returns the index functions.
	GetIndexers() Indexers
	// AddIndexers adds indexes; it works on a store that already holds objects.
	AddIndexers(newIndexers Indexers) error
}

// IndexFunc computes the indexed values of an object.
type IndexFunc func(obj any) ([]string, error)

// Indexers maps an index name to its IndexFunc.
type Indexers map[string]IndexFunc

// Index maps an indexed value to the set of keys of the objects that have it.
type Index map[string]sets.Set[string]

// Indices maps an index name to its Index.
type Indices map[string]Index

// NamespaceIndex is the conventional name of the index by namespace.
const NamespaceIndex string = "namespace"

// MetaNamespaceIndexFunc indexes an object by its namespace.
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("object has no meta: %w", err)
	}
	return []string{m.GetNamespace()}, nil
}

// IndexFuncToKeyFuncAdapter turns an IndexFunc that yields exactly one value into a KeyFunc.
func IndexFuncToKeyFuncAdapter(indexFunc IndexFunc) KeyFunc {
	return func(obj any) (string, error) {
		values, err := indexFunc(obj)
		if err != nil {
			return "", err
		}
		if len(values) != 1 {
			return "", fmt.Errorf("index function returned %d values, want exactly 1", len(values))
		}
		return values[0], nil
	}
}

// TypedIndexFunc is an IndexFunc over objects of type T.
type TypedIndexFunc[T any] func(obj T) ([]string, error)

// TypedIndexers maps an index name to its TypedIndexFunc.
type TypedIndexers[T any] map[string]TypedIndexFunc[T]

// TypedIndexer is a typed view of an Indexer: the same store, without casts.
type TypedIndexer[T any] interface {
	Indexer
	// TypedIndex is Index for objects of type T.
	TypedIndex(indexName string, obj T) ([]T, error)
	// ByTypedIndex is ByIndex for objects of type T.
	ByTypedIndex(indexName, indexedValue string) ([]T, error)
	// AddTypedIndexers is AddIndexers for typed index functions.
	AddTypedIndexers(newIndexers TypedIndexers[T]) error
}

// TypedIndexerFuncToIndexerFunc adapts a TypedIndexFunc to an IndexFunc; objects of another type
// produce an error instead of a panic.
func TypedIndexerFuncToIndexerFunc[T any](indexFunc TypedIndexFunc[T]) IndexFunc {
	return func(obj any) ([]string, error) {
		typed, ok := obj.(T)
		if !ok {
			var zero T
			return nil, fmt.Errorf("index function expects %T, got %T", zero, obj)
		}
		return indexFunc(typed)
	}
}

// TypedIndexersToIndexers adapts a set of typed index functions to Indexers.
func TypedIndexersToIndexers[T any](indexers TypedIndexers[T]) Indexers {
	out := make(Indexers, len(indexers))
	for name, f := range indexers {
		out[name] = TypedIndexerFuncToIndexerFunc(f)
	}
	return out
}

// NewTypedIndexer returns a typed view over indexer; it shares the underlying store.
func NewTypedIndexer[T any](indexer Indexer) TypedIndexer[T] {
	return typedIndexer[T]{indexer}
}

type typedIndexer[T any] struct {
	Indexer
}

func (i typedIndexer[T]) TypedIndex(indexName string, obj T) ([]T, error) {
	items, err := i.Index(indexName, obj)
	if err != nil {
		return nil, err
	}
	return castAll[T](items), nil
}

func (i typedIndexer[T]) ByTypedIndex(indexName, indexedValue string) ([]T, error) {
	items, err := i.ByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return castAll[T](items), nil
}

func (i typedIndexer[T]) AddTypedIndexers(newIndexers TypedIndexers[T]) error {
	return i.AddIndexers(TypedIndexersToIndexers(newIndexers))
}

// castAll converts items to T, dropping any object of another type.
func castAll[T any](items []any) []T {
	out := make([]T, 0, len(items))
	for _, item := range items {
		if typed, ok := item.(T); ok {
			out = append(out, typed)
		}
	}
	return out
}
