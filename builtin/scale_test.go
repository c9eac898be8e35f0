package builtin_test

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
)

// TestFakeScaleSubresource: the fake clientset's GetScale and UpdateScale read and write the
// Deployment's replicas, as the API server's scale subresource does.
func TestFakeScaleSubresource(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewSimpleClientset(&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d"},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "d"}}}})
	deployments := cs.AppsV1().Deployments("ns")
	s, err := deployments.GetScale(ctx, "d", metav1.GetOptions{})
	if err != nil || s.Spec.Replicas != 1 || s.Status.Selector != "app=d" {
		t.Fatalf("GetScale: %+v %v", s, err)
	}
	s, err = deployments.UpdateScale(ctx, "d", &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "d"},
		Spec: autoscalingv1.ScaleSpec{Replicas: 3}}, metav1.UpdateOptions{})
	if err != nil || s.Spec.Replicas != 3 {
		t.Fatalf("UpdateScale: %+v %v", s, err)
	}
	d, err := deployments.Get(ctx, "d", metav1.GetOptions{})
	if err != nil || *d.Spec.Replicas != 3 {
		t.Fatalf("deployment after UpdateScale: %v %v", d, err)
	}
}
