package informers_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
)

// A generated factory's informers cache objects without managedFields unless WithKeepManagedFields(true).
func TestFactoryManagedFields(t *testing.T) {
	for _, keep := range []bool{false, true} {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "c", ManagedFields: []metav1.ManagedFieldsEntry{
			{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "v1"},
		}}}
		factory := informers.NewSharedInformerFactoryWithOptions(fake.NewSimpleClientset(cm), time.Hour, informers.WithKeepManagedFields(keep))
		lister := factory.Core().V1().ConfigMaps().Lister()
		ctx, cancel := context.WithCancel(context.Background())
		factory.Start(ctx.Done())
		factory.WaitForCacheSync(ctx.Done())
		got, err := lister.ConfigMaps("a").Get("c")
		cancel()
		factory.Shutdown()
		if err != nil {
			t.Fatal(err)
		}
		if (len(got.ManagedFields) == 1) != keep {
			t.Errorf("WithKeepManagedFields(%v): lister returns managedFields %v", keep, got.ManagedFields)
		}
	}
}
