package fake_test

import (
	"testing"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	kgentesting "github.com/kgen-dev/kgen/runtime/testing"
	acautoscalingv1 "github.com/kgen-dev/kgen/testdata/applyconfiguration/autoscaling/v1"
	acexamplev1 "github.com/kgen-dev/kgen/testdata/applyconfiguration/example/v1"
	"github.com/kgen-dev/kgen/testdata/generated/applyclientset/versioned/fake"
)

func TestFakeClientsetApply(t *testing.T) {
	ctx := t.Context()
	cs := fake.NewClientset()
	ac := acexamplev1.TestType("applied", "ns").WithSpec(acexamplev1.TestTypeSpec().WithMessage("fake"))
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
	scale := acautoscalingv1.Scale().WithSpec(acautoscalingv1.ScaleSpec().WithReplicas(6))
	if got, err := cs.ExampleV1().TestTypes("ns").ApplyScale(ctx, "applied", scale, metav1.ApplyOptions{FieldManager: "test"}); err != nil || got.Spec.Replicas != 6 {
		t.Fatalf("fake ApplyScale = %+v, %v", got, err)
	}
}
