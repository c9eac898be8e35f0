package testing_test

import (
	"strings"
	"testing"

	appsv1beta2 "k8s.io/api/apps/v1beta2"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

func init() {
	if err := appsv1beta2.AddToScheme(scheme); err != nil {
		panic(err)
	}
}

var gizmos = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gizmos"}

func gizmo(spec map[string]interface{}) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{"spec": spec,
		"status": map[string]interface{}{"replicas": int64(1), "selector": "app=g", "count": int64(4)}}}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Gizmo")
	u.SetNamespace("ns")
	u.SetName("g")
	return u
}

// TestScaleOfCustomResources: a custom resource with spec.replicas gets the scale subresource
// from the usual paths; one without it gets NotFound naming the way out; ScaleReaction serves
// other paths.
func TestScaleOfCustomResources(t *testing.T) {
	c := newClient(t, gizmo(map[string]interface{}{"replicas": int64(2)}))
	obj, err := c.Invokes(ktesting.NewGetSubresourceAction(gizmos, "ns", "scale", "g"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := obj.(*autoscalingv1.Scale); s.Spec.Replicas != 2 || s.Status.Replicas != 1 || s.Status.Selector != "app=g" || s.Name != "g" {
		t.Fatalf("scale %+v", s)
	}
	obj, err = c.Invokes(ktesting.NewUpdateSubresourceAction(gizmos, "scale", "ns",
		&autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "g"}, Spec: autoscalingv1.ScaleSpec{Replicas: 7}}), nil)
	if err != nil || obj.(*autoscalingv1.Scale).Spec.Replicas != 7 {
		t.Fatalf("update: %v %v", obj, err)
	}
	stored, err := c.tracker.Get(gizmos, "ns", "g")
	if r, _, _ := unstructured.NestedInt64(stored.(*unstructured.Unstructured).Object, "spec", "replicas"); err != nil || r != 7 {
		t.Fatalf("stored replicas %d, %v", r, err)
	}

	other := newClient(t, gizmo(map[string]interface{}{"size": int64(3)}))
	_, err = other.Invokes(ktesting.NewGetSubresourceAction(gizmos, "ns", "scale", "g"), nil)
	if !apierrors.IsNotFound(err) || !strings.Contains(err.Error(), "ScaleReaction") {
		t.Fatalf("no spec.replicas: %v", err)
	}
	other.PrependReactor("*", "gizmos/scale", ktesting.ScaleReaction(other.tracker, ktesting.ScalePaths{
		SpecReplicasPath: ".spec.size", StatusReplicasPath: ".status.count"}))
	obj, err = other.Invokes(ktesting.NewPatchSubresourceAction(gizmos, "ns", "g", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`), "scale"), nil)
	if s, ok := obj.(*autoscalingv1.Scale); err != nil || !ok || s.Spec.Replicas != 5 || s.Status.Replicas != 4 || s.Status.Selector != "" {
		t.Fatalf("custom paths: %v %v", obj, err)
	}
}

// TestScaleOfBuiltins: ReplicationControllers select by label set, legacy group versions answer
// with their own Scale kinds, and kinds without the subresource answer NotFound.
func TestScaleOfBuiltins(t *testing.T) {
	rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "rc"},
		Spec: corev1.ReplicationControllerSpec{Replicas: ptr.To[int32](1), Selector: map[string]string{"a": "b"}}}
	d := &appsv1beta2.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d"},
		Spec: appsv1beta2.DeploymentSpec{Replicas: ptr.To[int32](3), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"x": "y"}}}}
	c := newClient(t, rc, d, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}})

	obj, err := c.Invokes(ktesting.NewGetSubresourceAction(corev1.SchemeGroupVersion.WithResource("replicationcontrollers"), "ns", "scale", "rc"), nil)
	if s, ok := obj.(*autoscalingv1.Scale); err != nil || !ok || s.Spec.Replicas != 1 || s.Status.Selector != "a=b" {
		t.Fatalf("rc scale: %v %v", obj, err)
	}
	deployments := appsv1beta2.SchemeGroupVersion.WithResource("deployments")
	obj, err = c.Invokes(ktesting.NewUpdateSubresourceAction(deployments, "scale", "ns",
		&appsv1beta2.Scale{ObjectMeta: metav1.ObjectMeta{Name: "d"}, Spec: appsv1beta2.ScaleSpec{Replicas: 4}}), nil)
	s, ok := obj.(*appsv1beta2.Scale)
	if err != nil || !ok || s.Spec.Replicas != 4 || s.Status.TargetSelector != "x=y" || s.Status.Selector["x"] != "y" {
		t.Fatalf("apps/v1beta2 scale: %v %v", obj, err)
	}
	_, err = c.Invokes(ktesting.NewGetSubresourceAction(podResource, "ns", "scale", "p"), nil)
	if !apierrors.IsNotFound(err) {
		t.Fatalf("pod scale: %v", err)
	}
}
