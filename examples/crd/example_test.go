package crd_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	stablev1 "example.com/crd/api/stable/v1"
	"example.com/crd/generated/clientset/versioned/fake"
	"example.com/crd/generated/informers/externalversions"
)

// TestControllerReadsThroughLister shows the generated code the way a controller uses it: a clientset
// (here the fake), a shared informer factory, and a lister over the synced cache.
func TestControllerReadsThroughLister(t *testing.T) {
	cs := fake.NewSimpleClientset(&stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "backup"},
		Spec:       stablev1.CronTabSpec{CronSpec: "0 * * * *", Image: "backup:1"},
	})
	factory := externalversions.NewSharedInformerFactory(cs, 0)
	lister := factory.Stable().V1().CronTabs().Lister()
	defer factory.Shutdown()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("%v did not sync", typ)
		}
	}
	ct, err := lister.CronTabs("default").Get("backup")
	if err != nil || ct.Spec.Image != "backup:1" {
		t.Fatalf("lister Get = %+v, %v", ct, err)
	}
}
