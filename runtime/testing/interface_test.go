package testing_test

import (
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

// countingTracker wraps an ObjectTracker the way tests do to observe calls; ObjectReaction must
// drive it through the interface.
type countingTracker struct {
	ktesting.ObjectTracker
	writes atomic.Int32
}

func (c *countingTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	c.writes.Add(1)
	return c.ObjectTracker.Create(gvr, obj, ns, opts...)
}

func (c *countingTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	c.writes.Add(1)
	return c.ObjectTracker.Update(gvr, obj, ns, opts...)
}

func (c *countingTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	c.writes.Add(1)
	return c.ObjectTracker.Patch(gvr, obj, ns, opts...)
}

func TestObjectReactionDrivesWrappedTrackers(t *testing.T) {
	wrapped := &countingTracker{ObjectTracker: ktesting.NewObjectTracker(scheme, codecs.UniversalDecoder())}
	c := wire(t, wrapped)

	created := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", map[string]string{"k": "v"})))
	if created.ResourceVersion == "" {
		t.Fatal("create did not read back the stored object")
	}
	created.Data["k"] = "w"
	if got := must[*corev1.ConfigMap](t)(c.updateCM(created)); got.Data["k"] != "w" {
		t.Fatalf("update: %v", got.Data)
	}
	if got := must[*corev1.ConfigMap](t)(c.patchCM("ns", "a", types.MergePatchType, `{"data":{"p":"1"}}`)); got.Data["p"] != "1" {
		t.Fatalf("patch: %v", got.Data)
	}
	if got := must[*corev1.ConfigMap](t)(c.applyCM("ns", "a", `{"apiVersion":"v1","kind":"ConfigMap","data":{"s":"1"}}`, "me", false)); got.Data["s"] != "1" {
		t.Fatalf("apply: %v", got.Data)
	}
	if n := wrapped.writes.Load(); n != 3 {
		t.Fatalf("wrapper saw %d writes, want 3 (apply goes through Apply)", n)
	}
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "b", nil)))
	if _, err := c.Invokes(ktesting.NewDeleteCollectionAction(cmResource, "ns", metav1.ListOptions{FieldSelector: "metadata.name=b"}), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.deleteCM("ns", "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if l := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{})); len(l.Items) != 0 {
		t.Fatalf("left %v", l.Items)
	}
}
