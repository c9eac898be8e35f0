package e2e_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/dynamic/dynamicinformer"
)

func TestE2EDynamicSharedInformerFactory(t *testing.T) {
	ctx := context.Background()
	client, ns := setup(t, "dyninf")
	w := client.Resource(widgets).Namespace(ns)
	if _, err := w.Create(ctx, widget("before", 1), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, ns, func(o *metav1.ListOptions) { o.LabelSelector = "app=w" })
	informer := factory.ForResource(widgets)
	if factory.ForResource(widgets) != informer {
		t.Fatal("ForResource must share informers")
	}
	var mu sync.Mutex
	events := map[string][]string{}
	record := func(kind string) func(obj any) {
		return func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			mu.Lock()
			defer mu.Unlock()
			events[kind] = append(events[kind], obj.(*unstructured.Unstructured).GetName())
		}
	}
	if _, err := informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    record("add"),
		UpdateFunc: func(_, obj any) { record("update")(obj) },
		DeleteFunc: record("delete"),
	}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	factory.Start(stop)
	defer func() {
		close(stop)
		factory.Shutdown()
	}()
	if synced := factory.WaitForCacheSync(stop); !synced[widgets] {
		t.Fatalf("not synced: %v", synced)
	}
	if _, err := w.Create(ctx, widget("after", 2), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	other := widget("unlabelled", 3)
	other.SetLabels(nil)
	if _, err := w.Create(ctx, other, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Delete(ctx, "before", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		done := len(events["add"]) == 2 && len(events["delete"]) == 1
		mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("events %v", events)
		}
		time.Sleep(20 * time.Millisecond)
	}
	obj, err := informer.Lister().ByNamespace(ns).Get("after")
	if err != nil || obj.(*unstructured.Unstructured).GetName() != "after" {
		t.Fatalf("lister get: %v", err)
	}
	all, err := informer.Lister().List(labels.Everything())
	if err != nil || len(all) != 1 {
		t.Fatalf("lister list: %d %v (the unlabelled widget must be filtered out)", len(all), err)
	}
}

// TestE2EDynamicInformerFactoryOptions: a factory's namespace, list options, transform, managedFields and
// sharing policies reach every informer it makes; by default cached objects have no managedFields and
// share their equal parts.
func TestE2EDynamicInformerFactoryOptions(t *testing.T) {
	client, ns := setup(t, "dynopts")
	for _, name := range []string{"one", "two"} {
		if _, err := client.Resource(widgets).Namespace(ns).Create(context.Background(), widget(name, 1), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, opted := range []bool{false, true} {
		factory := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(client, 0,
			dynamicinformer.WithNamespace(ns),
			dynamicinformer.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "app=w" }),
			dynamicinformer.WithKeepManagedFields(opted),
			dynamicinformer.WithDisableSharing(opted),
			dynamicinformer.WithTransform(func(obj any) (any, error) {
				obj.(*unstructured.Unstructured).SetAnnotations(map[string]string{"transformed": "yes"})
				return obj, nil
			}))
		informer := factory.ForResource(widgets)
		stop := make(chan struct{})
		factory.Start(stop)
		if synced := factory.WaitForCacheSync(stop); !synced[widgets] {
			t.Fatalf("not synced: %v", synced)
		}
		objs, err := informer.Lister().List(labels.Everything())
		close(stop)
		factory.Shutdown()
		if err != nil || len(objs) != 2 {
			t.Fatalf("keep and unshare %v: cached %d objects (%v), want two", opted, len(objs), err)
		}
		for _, o := range objs {
			u := o.(*unstructured.Unstructured)
			if u.GetNamespace() != ns || u.GetAnnotations()["transformed"] != "yes" || (len(u.GetManagedFields()) > 0) != opted {
				t.Errorf("keep %v: cached %s/%s, annotations %v, %d managedFields", opted, u.GetNamespace(), u.GetName(), u.GetAnnotations(), len(u.GetManagedFields()))
			}
		}
		spec := func(o any) uintptr { return reflect.ValueOf(o.(*unstructured.Unstructured).Object["spec"]).Pointer() }
		if shared := spec(objs[0]) == spec(objs[1]); shared == opted {
			t.Errorf("share %v: equal specs shared %v", !opted, shared)
		}
	}
}
