package cache

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestObjectNameHelpers(t *testing.T) {
	n := NewObjectName("ns", "a")
	if ns, name := n.Parts(); ns != "ns" || name != "a" {
		t.Fatalf("Parts = %q %q", ns, name)
	}
	if got := n.AsNamespacedName(); got != (types.NamespacedName{Namespace: "ns", Name: "a"}) {
		t.Fatalf("AsNamespacedName = %v", got)
	}
	if got := NamespacedNameAsObjectName(types.NamespacedName{Namespace: "ns", Name: "a"}); got != n {
		t.Fatalf("NamespacedNameAsObjectName = %v", got)
	}
	for _, want := range []ObjectName{n, NewObjectName("", "cluster-scoped")} {
		got, err := ParseObjectName(want.String())
		if err != nil || got != want {
			t.Fatalf("ParseObjectName(%q) = %v, %v", want.String(), got, err)
		}
	}
	if _, err := ParseObjectName("a/b/c"); err == nil {
		t.Fatal("ParseObjectName accepted a key with two slashes")
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}}
	if got := MetaObjectToName(pod); got != n {
		t.Fatalf("MetaObjectToName = %v", got)
	}
	for _, obj := range []any{pod, DeletedFinalStateUnknown{Key: "ns/a"}} {
		if got, err := DeletionHandlingObjectToName(obj); err != nil || got != n {
			t.Fatalf("DeletionHandlingObjectToName(%T) = %v, %v", obj, got, err)
		}
	}
	if _, err := DeletionHandlingObjectToName("not an object"); err == nil {
		t.Fatal("DeletionHandlingObjectToName accepted an object without metadata")
	}
}
