package cache

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// AppendFunc receives each object a list helper selects.
type AppendFunc func(any)

// ListAll calls appendFn for every object in store whose labels match selector. appendFn runs
// without any store lock held, so it may use the store.
func ListAll(store Store, selector labels.Selector, appendFn AppendFunc) error {
	matches := labelMatcher(selector)
	var items []any
	if ks, ok := store.(*keyedStore); ok {
		items = ks.items.selectAll(matches)
	} else {
		items = filter(store.List(), matches)
	}
	for _, obj := range items {
		appendFn(obj)
	}
	return nil
}

// ListAllByNamespace calls appendFn for every object in namespace whose labels match selector. It uses
// the namespace index when the indexer has one; metav1.NamespaceAll lists every namespace.
func ListAllByNamespace(indexer Indexer, namespace string, selector labels.Selector, appendFn AppendFunc) error {
	if namespace == metav1.NamespaceAll {
		return ListAll(indexer, selector, appendFn)
	}
	matches := labelMatcher(selector)
	var items []any
	var err error
	if ks, ok := indexer.(*keyedStore); ok {
		items, err = ks.items.selectIndexed(NamespaceIndex, namespace, matches)
	} else if items, err = indexer.ByIndex(NamespaceIndex, namespace); err == nil {
		items = filter(items, matches)
	}
	if err != nil {
		// Without a namespace index, scan everything.
		return ListAll(indexer, selector, func(obj any) {
			if m, err := meta.Accessor(obj); err == nil && m.GetNamespace() == namespace {
				appendFn(obj)
			}
		})
	}
	for _, obj := range items {
		appendFn(obj)
	}
	return nil
}

// labelMatcher returns a predicate accepting objects whose labels match selector; objects without
// metadata never match a non-empty selector.
func labelMatcher(selector labels.Selector) func(any) bool {
	if selector == nil || selector.Empty() {
		return func(any) bool { return true }
	}
	return func(obj any) bool {
		m, err := meta.Accessor(obj)
		return err == nil && selector.Matches(labels.Set(m.GetLabels()))
	}
}

func filter(items []any, keep func(any) bool) []any {
	out := items[:0]
	for _, obj := range items {
		if keep(obj) {
			out = append(out, obj)
		}
	}
	return out
}

// GenericLister lists and gets objects of any type from an Indexer.
type GenericLister interface {
	// List returns the objects matching selector.
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get returns the object with the given name; for namespaced objects name is "namespace/name".
	Get(name string) (runtime.Object, error)
	// ByNamespace returns a lister scoped to namespace.
	ByNamespace(namespace string) GenericNamespaceLister
}

// GenericNamespaceLister lists and gets objects of one namespace.
type GenericNamespaceLister interface {
	// List returns the objects of the namespace matching selector.
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get returns the object with the given name.
	Get(name string) (runtime.Object, error)
}

// NewGenericLister returns a GenericLister over indexer for resource.
func NewGenericLister(indexer Indexer, resource schema.GroupResource) GenericLister {
	return &genericLister{indexer: indexer, resource: resource}
}

type genericLister struct {
	indexer  Indexer
	resource schema.GroupResource
}

func (l *genericLister) List(selector labels.Selector) (ret []runtime.Object, err error) {
	err = ListAll(l.indexer, selector, func(obj any) { ret = appendObject(ret, obj) })
	return ret, err
}

func (l *genericLister) Get(name string) (runtime.Object, error) {
	return getObject(l.indexer, l.resource, name, name)
}

func (l *genericLister) ByNamespace(namespace string) GenericNamespaceLister {
	return &genericNamespaceLister{indexer: l.indexer, namespace: namespace, resource: l.resource}
}

type genericNamespaceLister struct {
	indexer   Indexer
	namespace string
	resource  schema.GroupResource
}

func (l *genericNamespaceLister) List(selector labels.Selector) (ret []runtime.Object, err error) {
	err = ListAllByNamespace(l.indexer, l.namespace, selector, func(obj any) { ret = appendObject(ret, obj) })
	return ret, err
}

func (l *genericNamespaceLister) Get(name string) (runtime.Object, error) {
	return getObject(l.indexer, l.resource, l.namespace+"/"+name, name)
}

func appendObject(list []runtime.Object, obj any) []runtime.Object {
	if o, ok := obj.(runtime.Object); ok {
		return append(list, o)
	}
	return list
}

func getObject(indexer Indexer, resource schema.GroupResource, key, name string) (runtime.Object, error) {
	obj, exists, err := indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, errors.NewNotFound(resource, name)
	}
	o, ok := obj.(runtime.Object)
	if !ok {
		return nil, errors.NewInternalError(fmt.Errorf("cached object %q is a %T, not a runtime.Object", key, obj))
	}
	return o, nil
}
