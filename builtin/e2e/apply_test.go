package e2e_test

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	acappsv1 "github.com/kgen-dev/kgen/builtin/applyconfigurations/apps/v1"
	accorev1 "github.com/kgen-dev/kgen/builtin/applyconfigurations/core/v1"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	acmetav1 "github.com/kgen-dev/kgen/runtime/applyconfigurations/meta/v1"
)

// TestServerSideApplyOnBuiltinTypes runs one server-side apply scenario on a Deployment against the real
// kube-apiserver and against the fake clientset of NewClientset, which must give the same answers.
func TestServerSideApplyOnBuiltinTypes(t *testing.T) {
	t.Run("kube-apiserver", func(t *testing.T) {
		cs, err := kubernetes.NewForConfig(env.Config())
		if err != nil {
			t.Fatal(err)
		}
		applyScenario(t, cs, newNamespace(t, cs))
	})
	t.Run("fake", func(t *testing.T) {
		applyScenario(t, fake.NewClientset(), "default")
	})
}

func deployment(ns string, replicas int32, image string) *acappsv1.DeploymentApplyConfiguration {
	return acappsv1.Deployment("web", ns).
		WithLabels(map[string]string{"app": "web"}).
		WithSpec(acappsv1.DeploymentSpec().
			WithReplicas(replicas).
			WithSelector(acmetav1.LabelSelector().WithMatchLabels(map[string]string{"app": "web"})).
			WithTemplate(accorev1.PodTemplateSpec().
				WithLabels(map[string]string{"app": "web"}).
				WithSpec(accorev1.PodSpec().WithContainers(accorev1.Container().WithName("c").WithImage(image)))))
}

func applyScenario(t *testing.T, cs kubernetes.Interface, ns string) {
	ctx := context.Background()
	client := cs.AppsV1().Deployments(ns)

	// Create with Apply: alice owns what she applied.
	got, err := client.Apply(ctx, deployment(ns, 2, "nginx:1"), metav1.ApplyOptions{FieldManager: "alice"})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if *got.Spec.Replicas != 2 || got.Spec.Template.Spec.Containers[0].Image != "nginx:1" || !managedBy(got, "alice", "") {
		t.Fatalf("Apply created %+v", got.Spec)
	}

	// bob's conflicting Apply is refused with a conflict naming the field.
	bob := acappsv1.Deployment("web", ns).WithSpec(acappsv1.DeploymentSpec().WithReplicas(3))
	_, err = client.Apply(ctx, bob, metav1.ApplyOptions{FieldManager: "bob"})
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), ".spec.replicas") {
		t.Fatalf("conflicting Apply = %v, want a 409 Conflict naming .spec.replicas", err)
	}

	// With Force bob takes the field over.
	if got, err = client.Apply(ctx, bob, metav1.ApplyOptions{FieldManager: "bob", Force: true}); err != nil || *got.Spec.Replicas != 3 {
		t.Fatalf("forced Apply = %v, %v", got, err)
	}
	extracted, err := acappsv1.ExtractDeployment(got, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if extracted.Spec.Replicas != nil {
		t.Errorf("alice still owns replicas after bob forced them: %v", *extracted.Spec.Replicas)
	}

	// ApplyStatus writes status only.
	status := acappsv1.Deployment("web", ns).WithStatus(acappsv1.DeploymentStatus().WithObservedGeneration(7))
	if got, err = client.ApplyStatus(ctx, status, metav1.ApplyOptions{FieldManager: "status-writer", Force: true}); err != nil {
		t.Fatalf("ApplyStatus: %v", err)
	}
	if got.Status.ObservedGeneration != 7 || *got.Spec.Replicas != 3 || !managedBy(got, "status-writer", "status") {
		t.Fatalf("ApplyStatus gave status %+v, replicas %d", got.Status, *got.Spec.Replicas)
	}
	if ext, err := acappsv1.ExtractDeploymentStatus(got, "status-writer"); err != nil || ext.Status == nil || *ext.Status.ObservedGeneration != 7 {
		t.Fatalf("ExtractDeploymentStatus = %+v, %v", ext, err)
	}

	// Extract, change one field, Apply: only that field changes and alice keeps her fields.
	extracted, err = acappsv1.ExtractDeployment(got, "alice")
	if err != nil {
		t.Fatal(err)
	}
	extracted.Spec.Template.Spec.Containers[0].WithImage("nginx:2")
	if got, err = client.Apply(ctx, extracted, metav1.ApplyOptions{FieldManager: "alice"}); err != nil {
		t.Fatalf("Apply of the extracted configuration: %v", err)
	}
	if got.Spec.Template.Spec.Containers[0].Image != "nginx:2" || *got.Spec.Replicas != 3 || got.Labels["app"] != "web" {
		t.Fatalf("round trip gave image %s, replicas %d, labels %v", got.Spec.Template.Spec.Containers[0].Image, *got.Spec.Replicas, got.Labels)
	}
	again, err := acappsv1.ExtractDeployment(got, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if again.Labels["app"] != "web" || *again.Spec.Template.Spec.Containers[0].Image != "nginx:2" {
		t.Fatalf("alice owns %+v after the round trip", again)
	}
}

// managedBy reports whether obj's managedFields has an entry of manager for subresource.
func managedBy(obj *appsv1.Deployment, manager, subresource string) bool {
	for _, e := range obj.ManagedFields {
		if e.Manager == manager && e.Subresource == subresource && e.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}
