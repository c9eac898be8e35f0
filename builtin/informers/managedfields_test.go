package informers_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

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

// A generated factory's informers share equal parts of cached objects unless WithDisableSharing(true).
func TestFactoryDisableSharing(t *testing.T) {
	for _, disable := range []bool{false, true} {
		var objs []runtime.Object
		for _, name := range []string{"c1", "c2"} {
			objs = append(objs, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: name},
				Data: map[string]string{"config.yaml": "level: debug"}})
		}
		factory := informers.NewSharedInformerFactoryWithOptions(fake.NewSimpleClientset(objs...), time.Hour, informers.WithDisableSharing(disable))
		lister := factory.Core().V1().ConfigMaps().Lister()
		ctx, cancel := context.WithCancel(context.Background())
		factory.Start(ctx.Done())
		factory.WaitForCacheSync(ctx.Done())
		c1, err1 := lister.ConfigMaps("a").Get("c1")
		c2, err2 := lister.ConfigMaps("a").Get("c2")
		cancel()
		factory.Shutdown()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if shared := reflect.ValueOf(c1.Data).UnsafePointer() == reflect.ValueOf(c2.Data).UnsafePointer(); shared == disable {
			t.Errorf("WithDisableSharing(%v): equal data maps shared %v", disable, shared)
		}
	}
}
