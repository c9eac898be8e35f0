package e2e_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	acexamplev1 "github.com/kgen-dev/kgen/testdata/applyconfiguration/example/v1"
	"github.com/kgen-dev/kgen/testdata/generated/applyclientset/versioned"
)

func int32Ptr(v int32) *int32    { return &v }
func stringPtr(v string) *string { return &v }

func TestServerSideApply(t *testing.T) {
	clientset(t) // installs the CRDs
	cs, err := versioned.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	client := cs.ExampleV1().TestTypes("default")
	opts := metav1.ApplyOptions{FieldManager: "e2e", Force: true}

	ac := acexamplev1.TestType("applied", "default")
	ac.Spec = &acexamplev1.SpecApplyConfiguration{Replicas: int32Ptr(2), Message: stringPtr("applied")}
	obj, err := client.Apply(ctx, ac, opts)
	if err != nil || obj.Spec.Message != "applied" || obj.Spec.Replicas != 2 {
		t.Fatalf("Apply = %+v, %v", obj, err)
	}

	status := acexamplev1.TestType("applied", "default")
	status.Status = &acexamplev1.StatusApplyConfiguration{Phase: stringPtr("Applied")}
	if obj, err = client.ApplyStatus(ctx, status, opts); err != nil || obj.Status.Phase != "Applied" {
		t.Fatalf("ApplyStatus = %+v, %v", obj, err)
	}

	// kube-apiserver cannot server-side apply to a custom resource's scale subresource ("request to
	// convert CR to an invalid group/version: autoscaling/v1"), so ApplyScale is tested on the fake.

	// An apply extension without a subresource names the object from the configuration.
	again := acexamplev1.TestType("applied", "default")
	again.Spec = &acexamplev1.SpecApplyConfiguration{Message: stringPtr("extension")}
	if got, err := client.ApplyTestType(ctx, again, opts); err != nil || got.Spec.Message != "extension" {
		t.Fatalf("ApplyTestType = %+v, %v", got, err)
	}
	if _, err := client.ApplyTestType(ctx, &acexamplev1.TestTypeApplyConfiguration{}, opts); err == nil {
		t.Fatal("ApplyTestType without a name succeeded")
	}

	cluster := acexamplev1.ClusterTestType("applied-cluster")
	cluster.Spec = &acexamplev1.SpecApplyConfiguration{Replicas: int32Ptr(1)}
	if got, err := cs.ExampleV1().ClusterTestTypes().Apply(ctx, cluster, opts); err != nil || got.Spec.Replicas != 1 {
		t.Fatalf("cluster Apply = %+v, %v", got, err)
	}
}
