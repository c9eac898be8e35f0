package e2e_test

import (
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	acexamplev1 "github.com/kgen-dev/kgen/testdata/applyconfiguration/example/v1"
	"github.com/kgen-dev/kgen/testdata/generated/applyclientset/versioned"
	"github.com/kgen-dev/kgen/testdata/generated/applyclientset/versioned/fake"
)

func TestServerSideApply(t *testing.T) {
	clientset(t) // installs the CRDs
	cs, err := versioned.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	client := cs.ExampleV1().TestTypes("default")
	opts := metav1.ApplyOptions{FieldManager: "e2e", Force: true}

	ac := acexamplev1.TestType("applied", "default").WithSpec(acexamplev1.TestTypeSpec().WithReplicas(2).WithMessage("applied"))
	obj, err := client.Apply(ctx, ac, opts)
	if err != nil || obj.Spec.Message != "applied" || obj.Spec.Replicas != 2 {
		t.Fatalf("Apply = %+v, %v", obj, err)
	}

	status := acexamplev1.TestType("applied", "default").WithStatus(acexamplev1.TestTypeStatus().WithPhase("Applied"))
	if obj, err = client.ApplyStatus(ctx, status, opts); err != nil || obj.Status.Phase != "Applied" {
		t.Fatalf("ApplyStatus = %+v, %v", obj, err)
	}

	// kube-apiserver cannot server-side apply to a custom resource's scale subresource ("request to
	// convert CR to an invalid group/version: autoscaling/v1"), so ApplyScale is tested on the fake.

	// An apply extension without a subresource names the object from the configuration.
	again := acexamplev1.TestType("applied", "default").WithSpec(acexamplev1.TestTypeSpec().WithMessage("extension"))
	if got, err := client.ApplyTestType(ctx, again, opts); err != nil || got.Spec.Message != "extension" {
		t.Fatalf("ApplyTestType = %+v, %v", got, err)
	}
	if _, err := client.ApplyTestType(ctx, &acexamplev1.TestTypeApplyConfiguration{}, opts); err == nil {
		t.Fatal("ApplyTestType without a name succeeded")
	}

	cluster := acexamplev1.ClusterTestType("applied-cluster").WithSpec(acexamplev1.TestTypeSpec().WithReplicas(1))
	if got, err := cs.ExampleV1().ClusterTestTypes().Apply(ctx, cluster, opts); err != nil || got.Spec.Replicas != 1 {
		t.Fatalf("cluster Apply = %+v, %v", got, err)
	}
}

// TestServerSideApplyOwnership runs one field-ownership scenario on the TestType CRD against the real
// kube-apiserver and against the fake clientset of NewClientset, which must give the same answers.
func TestServerSideApplyOwnership(t *testing.T) {
	t.Run("kube-apiserver", func(t *testing.T) {
		clientset(t) // installs the CRDs
		cs, err := versioned.NewForConfig(env.Config())
		if err != nil {
			t.Fatal(err)
		}
		ownershipScenario(t, cs)
	})
	t.Run("fake", func(t *testing.T) {
		ownershipScenario(t, fake.NewClientset())
	})
}

func ownershipScenario(t *testing.T, cs versioned.Interface) {
	ctx := t.Context()
	client := cs.ExampleV1().TestTypes("default")

	// Create with Apply: alice owns what she applied.
	created := acexamplev1.TestType("owned", "default").WithLabels(map[string]string{"team": "a"}).
		WithSpec(acexamplev1.TestTypeSpec().WithReplicas(2).WithMessage("hello"))
	got, err := client.Apply(ctx, created, metav1.ApplyOptions{FieldManager: "alice"})
	if err != nil || got.Spec.Replicas != 2 || got.Spec.Message != "hello" {
		t.Fatalf("Apply = %+v, %v", got, err)
	}

	// bob's conflicting Apply is refused with a conflict naming the field; Force takes it over.
	bob := acexamplev1.TestType("owned", "default").WithSpec(acexamplev1.TestTypeSpec().WithReplicas(3))
	_, err = client.Apply(ctx, bob, metav1.ApplyOptions{FieldManager: "bob"})
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), ".spec.replicas") {
		t.Fatalf("conflicting Apply = %v, want a 409 Conflict naming .spec.replicas", err)
	}
	if got, err = client.Apply(ctx, bob, metav1.ApplyOptions{FieldManager: "bob", Force: true}); err != nil || got.Spec.Replicas != 3 {
		t.Fatalf("forced Apply = %+v, %v", got, err)
	}

	// ApplyStatus writes status only, owned through the status subresource.
	status := acexamplev1.TestType("owned", "default").WithStatus(acexamplev1.TestTypeStatus().WithPhase("Ready"))
	if got, err = client.ApplyStatus(ctx, status, metav1.ApplyOptions{FieldManager: "carol"}); err != nil || got.Status.Phase != "Ready" || got.Spec.Replicas != 3 {
		t.Fatalf("ApplyStatus = %+v, %v", got, err)
	}
	if ext, err := acexamplev1.ExtractTestTypeStatus(got, "carol"); err != nil || ext.Status == nil || *ext.Status.Phase != "Ready" || ext.Spec != nil {
		t.Fatalf("ExtractTestTypeStatus = %+v, %v", ext, err)
	}

	// Extract, change one field, Apply: only that field changes and alice keeps her other fields.
	mine, err := acexamplev1.ExtractTestType(got, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if mine.Spec == nil || mine.Spec.Replicas != nil || *mine.Spec.Message != "hello" || mine.Labels["team"] != "a" {
		t.Fatalf("alice owns %+v; want message and label, not replicas", mine)
	}
	mine.Spec.WithMessage("changed")
	if got, err = client.Apply(ctx, mine, metav1.ApplyOptions{FieldManager: "alice"}); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Message != "changed" || got.Spec.Replicas != 3 || got.Labels["team"] != "a" || got.Status.Phase != "Ready" {
		t.Fatalf("round trip gave %+v", got)
	}
	if again, err := acexamplev1.ExtractTestType(got, "alice"); err != nil || *again.Spec.Message != "changed" || again.Labels["team"] != "a" {
		t.Fatalf("alice owns %+v after the round trip, %v", again, err)
	}
}
