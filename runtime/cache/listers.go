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

// ListAll calls appendFn for every object in store whose labels match selector.
func ListAll(store Store, selector labels.Selector, appendFn AppendFunc) error {
	visit := selectingVisitor(selector, appendFn)
	if ks, ok := store.(*keyedStore); ok {
		ks.items.visitAll(visit)
		return nil
	}
	for _, obj := range store.List() {
		visit(obj)
	}
	return nil
}

// ListAllByNamespace calls appendFn for every object in namespace whose labels match selector. It uses
// the namespace index when the indexer has one; metav1.NamespaceAll lists every namespace.
func ListAllByNamespace(indexer Indexer, namespace string, selector labels.Selector, appendFn AppendFunc) error {
	if namespace == metav1.NamespaceAll {
		return ListAll(indexer, selector, appendFn)
	}
	visit := selectingVisitor(selector, appendFn)
	if ks, ok := indexer.(*keyedStore); ok {
		if err := ks.items.visitIndex(NamespaceIndex, namespace, visit); err == nil {
			return nil
		}
	} else if items, err := indexer.ByIndex(NamespaceIndex, namespace); err == nil {
		for _, obj := range items {
			visit(obj)
		}
		return nil
	}
	// Without a namespace index, scan everything.
	return ListAll(indexer, selector, func(obj any) {
		if m, err := meta.Accessor(obj); err == nil && m.GetNamespace() == namespace {
			appendFn(obj)
		}
	})
}

// selectingVisitor returns a visitor that passes objects matching selector to appendFn. Objects
// without metadata are skipped.
func selectingVisitor(selector labels.Selector, appendFn AppendFunc) func(any) {
	if selector == nil || selector.Empty() {
		return func(obj any) { appendFn(obj) }
	}
	return func(obj any) {
		m, err := meta.Accessor(obj)
		if err == nil && selector.Matches(labels.Set(m.GetLabels())) {
			appendFn(obj)
		}
	}
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
