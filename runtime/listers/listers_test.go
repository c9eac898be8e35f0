package listers_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	corev1 "k8s.io/api/core/v1"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/listers"
)

func pod(ns, name string, lbls map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}}
}

func TestResourceIndexer(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range []*corev1.Pod{
		pod("a", "one", map[string]string{"app": "x"}),
		pod("a", "two", nil),
		pod("b", "one", map[string]string{"app": "x"}),
	} {
		if err := indexer.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	resource := schema.GroupResource{Resource: "pods"}
	all := listers.New[*corev1.Pod](indexer, resource)

	got, err := all.List(labels.Everything())
	if err != nil || len(got) != 3 {
		t.Fatalf("List(all) = %d objects, %v; want 3", len(got), err)
	}
	sel := labels.SelectorFromSet(labels.Set{"app": "x"})
	if got, _ := all.List(sel); len(got) != 2 {
		t.Fatalf("List(app=x) = %d objects; want 2", len(got))
	}

	inA := listers.NewNamespaced(all, "a")
	if got, _ := inA.List(labels.Everything()); len(got) != 2 {
		t.Fatalf("List in a = %d objects; want 2", len(got))
	}
	if p, err := inA.Get("two"); err != nil || p.Name != "two" || p.Namespace != "a" {
		t.Fatalf("Get(two) = %v, %v", p, err)
	}
	_, err = listers.NewNamespaced(all, "b").Get("two")
	if !errors.IsNotFound(err) {
		t.Fatalf("Get(b/two) error = %v; want NotFound", err)
	}
	if status := err.(errors.APIStatus).Status(); status.Details.Kind != "pods" || status.Details.Name != "two" {
		t.Fatalf("NotFound details = %+v; want the plural resource pods and the name", status.Details)
	}
}

func TestResourceIndexerClusterScoped(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := indexer.Add(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}); err != nil {
		t.Fatal(err)
	}
	nodes := listers.New[*corev1.Node](indexer, schema.GroupResource{Resource: "nodes"})
	if n, err := nodes.Get("n1"); err != nil || n.Name != "n1" {
		t.Fatalf("Get(n1) = %v, %v", n, err)
	}
	if _, err := nodes.Get("n2"); !errors.IsNotFound(err) {
		t.Fatalf("Get(n2) error = %v; want NotFound", err)
	}
}

func TestResourceIndexerWrongType(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := indexer.Add(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}); err != nil {
		t.Fatal(err)
	}
	pods := listers.New[*corev1.Pod](indexer, schema.GroupResource{Resource: "pods"})
	if _, err := pods.Get("n1"); !errors.IsInternalError(err) {
		t.Fatalf("Get of a wrongly typed object: error = %v; want InternalError", err)
	}
	if got, err := pods.List(labels.Everything()); err != nil || len(got) != 0 {
		t.Fatalf("List skips wrongly typed objects: got %d, %v", len(got), err)
	}
}
