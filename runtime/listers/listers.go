package listers

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// ResourceIndexer lists and gets objects of type T from an Indexer, optionally within one namespace.
type ResourceIndexer[T runtime.Object] struct {
	indexer   cache.Indexer
	resource  schema.GroupResource
	namespace string // "" means all namespaces (or a cluster-scoped resource)
}

// New returns a ResourceIndexer over indexer for the given (plural) resource, across all namespaces.
func New[T runtime.Object](indexer cache.Indexer, resource schema.GroupResource) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// NewNamespaced returns a copy of parent restricted to namespace.
func NewNamespaced[T runtime.Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: parent.indexer, resource: parent.resource, namespace: namespace}
}

// List returns the objects matching selector. The objects are shared with the cache: do not modify them.
func (l ResourceIndexer[T]) List(selector labels.Selector) (ret []T, err error) {
	appendFn := func(m any) {
		if obj, ok := m.(T); ok {
			ret = append(ret, obj)
		}
	}
	if l.namespace == "" {
		err = cache.ListAll(l.indexer, selector, appendFn)
	} else {
		err = cache.ListAllByNamespace(l.indexer, l.namespace, selector, appendFn)
	}
	return ret, err
}

// Get returns the object with the given name (in the indexer's namespace, if any), or a NotFound error
// naming the resource. The object is shared with the cache: do not modify it.
func (l ResourceIndexer[T]) Get(name string) (T, error) {
	var zero T
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, errors.NewNotFound(l.resource, name)
	}
	typed, ok := obj.(T)
	if !ok {
		return zero, errors.NewInternalError(fmt.Errorf("cache holds a %T under key %q, want %T", obj, key, zero))
	}
	return typed, nil
}
