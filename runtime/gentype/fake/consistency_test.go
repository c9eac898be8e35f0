package fake_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/gentype/internal/gentypetest"
)

func TestFakeClientRecordsWritesLikeTheRealOne(t *testing.T) {
	rec := consistency.NewRecorder()
	ctx := consistency.WithRecorder(context.Background(), rec)
	fake, _ := newFake()
	cms := fakeConfigMaps(fake, "team")
	writes := rec.Resource(configMapsGVR.GroupResource())
	expect := func(what string, rv string, deleted bool) {
		t.Helper()
		w, ok := writes.Last("team/a")
		if !ok || w.ResourceVersion != rv || w.Deleted != deleted {
			t.Fatalf("after %s the last write is %+v, %v; want resourceVersion %q, deleted %v", what, w, ok, rv, deleted)
		}
	}

	created := must(cms.Create(ctx, gentypetest.ConfigMap("a", nil, nil), metav1.CreateOptions{}))(t)
	expect("Create", created.ResourceVersion, false)
	updated := must(cms.Update(ctx, created, metav1.UpdateOptions{}))(t)
	expect("Update", updated.ResourceVersion, false)
	patched := must(cms.Patch(ctx, "a", types.MergePatchType, []byte(`{"data":{"p":"1"}}`), metav1.PatchOptions{}))(t)
	expect("Patch", patched.ResourceVersion, false)
	applied := must(cms.Apply(ctx, gentypetest.ConfigMapApply("a", map[string]string{"k": "v"}), metav1.ApplyOptions{FieldManager: "test", Force: true}))(t)
	expect("Apply", applied.ResourceVersion, false)
	if err := cms.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if w, _ := writes.Last("team/a"); !w.Deleted || w.UID != applied.UID {
		t.Fatalf("after Delete the last write is %+v", w)
	}
	if got := writes.Count(); got != 5 {
		t.Fatalf("%d writes recorded, want 5", got)
	}
	// Without a recorder in the context nothing is recorded.
	must(cms.Create(context.Background(), gentypetest.ConfigMap("b", nil, nil), metav1.CreateOptions{}))(t)
	if got := writes.Count(); got != 5 {
		t.Fatalf("a write without a recorder was recorded (%d writes)", got)
	}
}
