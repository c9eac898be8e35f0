package events

import (
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

func testScheme(t testing.TB) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func testPod(namespace, name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: namespace, Name: name, UID: types.UID("uid-" + name), ResourceVersion: "42",
	}}
}

func TestGetReferenceFromScheme(t *testing.T) {
	ref, err := GetReference(testScheme(t), testPod("ns", "p"))
	if err != nil {
		t.Fatal(err)
	}
	want := corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "ns", Name: "p", UID: "uid-p", ResourceVersion: "42"}
	if *ref != want {
		t.Fatalf("got %+v, want %+v", *ref, want)
	}
}

func TestGetReferenceFromTypeMetaWithoutScheme(t *testing.T) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace("ns")
	u.SetName("w")
	u.SetUID("u1")
	ref, err := GetReference(nil, u)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Kind != "Widget" || ref.APIVersion != "example.com/v1" || ref.Name != "w" || ref.Namespace != "ns" || ref.UID != "u1" {
		t.Fatalf("unexpected reference %+v", ref)
	}
}

func TestGetReferenceOfReferenceIsACopy(t *testing.T) {
	in := &corev1.ObjectReference{Kind: "Node", Name: "n1"}
	ref, err := GetReference(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	ref.Name = "changed"
	if in.Name != "n1" {
		t.Fatal("GetReference returned the caller's reference instead of a copy")
	}
}

func TestGetReferenceErrors(t *testing.T) {
	var nilPod *corev1.Pod
	cases := map[string]struct {
		scheme *runtime.Scheme
		obj    runtime.Object
	}{
		"nil":                {testScheme(t), nil},
		"typed nil":          {testScheme(t), nilPod},
		"no kind, no scheme": {nil, testPod("ns", "p")},
		"unregistered kind":  {runtime.NewScheme(), testPod("ns", "p")},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := GetReference(c.scheme, c.obj); err == nil {
				t.Fatal("want an error")
			}
		})
	}
	if _, err := GetReference(nil, nil); !errors.Is(err, ErrNilObject) {
		t.Fatalf("want ErrNilObject, got %v", err)
	}
}

func TestGetReferenceOfList(t *testing.T) {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "7"}}
	ref, err := GetReference(testScheme(t), list)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Kind != "PodList" || ref.ResourceVersion != "7" || ref.Name != "" {
		t.Fatalf("unexpected reference %+v", ref)
	}
}

func TestGetPartialReference(t *testing.T) {
	ref, err := GetPartialReference(testScheme(t), testPod("ns", "p"), "spec.containers{app}")
	if err != nil {
		t.Fatal(err)
	}
	if ref.FieldPath != "spec.containers{app}" || ref.Name != "p" {
		t.Fatalf("unexpected reference %+v", ref)
	}
}
