package e2e_test

import (
	"testing"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	kgentesting "github.com/kgen-dev/kgen/runtime/testing"

	acautoscalingv1 "github.com/kgen-dev/kgen/testdata/applyconfiguration/autoscaling/v1"
	acexamplev1 "github.com/kgen-dev/kgen/testdata/applyconfiguration/example/v1"
	"github.com/kgen-dev/kgen/testdata/generated/applyclientset/versioned"
	"github.com/kgen-dev/kgen/testdata/generated/applyclientset/versioned/fake"
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

func TestFakeClientsetApply(t *testing.T) {
	ctx := t.Context()
	cs := fake.NewClientset()
	ac := acexamplev1.TestType("applied", "ns")
	ac.Spec = &acexamplev1.SpecApplyConfiguration{Message: stringPtr("fake")}
	obj, err := cs.ExampleV1().TestTypes("ns").Apply(ctx, ac, metav1.ApplyOptions{FieldManager: "test"})
	if err != nil || obj.Spec.Message != "fake" {
		t.Fatalf("fake Apply = %+v, %v", obj, err)
	}
	got, err := cs.ExampleV1().TestTypes("ns").Get(ctx, "applied", metav1.GetOptions{})
	if err != nil || got.Spec.Message != "fake" {
		t.Fatalf("Get after fake Apply = %+v, %v", got, err)
	}
	if a := cs.Actions()[0]; a.GetVerb() != "patch" || a.GetResource().Resource != "testtypes" {
		t.Fatalf("recorded %s %s; want patch testtypes", a.GetVerb(), a.GetResource())
	}

	cs.PrependReactor("patch", "testtypes", func(action kgentesting.Action) (bool, runtime.Object, error) {
		patch := action.(kgentesting.PatchAction)
		if action.GetSubresource() != "scale" || patch.GetPatchType() != types.ApplyPatchType || patch.GetName() != "applied" {
			return false, nil, nil
		}
		return true, &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: 6}}, nil
	})
	scale := acautoscalingv1.Scale()
	scale.Spec = &acautoscalingv1.ScaleSpecApplyConfiguration{Replicas: int32Ptr(6)}
	if got, err := cs.ExampleV1().TestTypes("ns").ApplyScale(ctx, "applied", scale, metav1.ApplyOptions{FieldManager: "test"}); err != nil || got.Spec.Replicas != 6 {
		t.Fatalf("fake ApplyScale = %+v, %v", got, err)
	}
}
