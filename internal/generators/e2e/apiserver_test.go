package e2e_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	examplev1 "github.com/kgen-dev/kgen/testdata/apis/example/v1"
	example2v1 "github.com/kgen-dev/kgen/testdata/apis/example2/v1"
	hyphenv1 "github.com/kgen-dev/kgen/testdata/apis/hyphen-group/v1"
	"github.com/kgen-dev/kgen/testdata/generated/clientset/versioned"
	"github.com/kgen-dev/kgen/testdata/generated/informers/externalversions"
	informersexamplev1 "github.com/kgen-dev/kgen/testdata/generated/informers/externalversions/example/v1"
)

var installOnce = sync.OnceValue(func() error {
	crds, err := filepath.Glob("../../../testdata/crds/*.yaml")
	if err != nil {
		return err
	}
	args := make([]any, len(crds))
	for i, c := range crds {
		args[i] = c
	}
	return env.InstallCRDs(context.Background(), args...)
})

func clientset(t *testing.T) *versioned.Clientset {
	t.Helper()
	if err := installOnce(); err != nil {
		t.Fatal(err)
	}
	cs, err := versioned.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestClientCRUDAndStatus(t *testing.T) {
	ctx := t.Context()
	client := clientset(t).ExampleV1().TestTypes("default")

	created, err := client.Create(ctx, testType("default", "crud", map[string]string{"app": "crud"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.UID == "" || created.Spec.Replicas != 1 {
		t.Fatalf("created = %+v", created)
	}
	got, err := client.Get(ctx, "crud", metav1.GetOptions{})
	if err != nil || got.ResourceVersion != created.ResourceVersion {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	got.Spec.Message = "hello"
	updated, err := client.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil || updated.Spec.Message != "hello" {
		t.Fatalf("Update = %+v, %v", updated, err)
	}
	updated.Status.Phase = "Ready"
	updated.Spec.Message = "ignored by the status endpoint"
	status, err := client.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil || status.Status.Phase != "Ready" || status.Spec.Message != "hello" {
		t.Fatalf("UpdateStatus = %+v, %v", status, err)
	}
	patched, err := client.Patch(ctx, "crud", types.MergePatchType, []byte(`{"spec":{"message":"patched"}}`), metav1.PatchOptions{})
	if err != nil || patched.Spec.Message != "patched" {
		t.Fatalf("Patch = %+v, %v", patched, err)
	}
	list, err := client.List(ctx, metav1.ListOptions{LabelSelector: "app=crud"})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	// Hand-written expansion method on the real client.
	if obj, err := client.GetOrNil(ctx, "crud"); err != nil || obj == nil || obj.Name != "crud" {
		t.Fatalf("GetOrNil = %v, %v", obj, err)
	}
	if err := client.Delete(ctx, "crud", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(ctx, "crud", metav1.GetOptions{}); !errors.IsNotFound(err) {
		t.Fatalf("Get after Delete = %v; want NotFound", err)
	}
	for _, name := range []string{"dc1", "dc2"} {
		if _, err := client.Create(ctx, testType("default", name, map[string]string{"app": "dc"}), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := client.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=dc"}); err != nil {
		t.Fatal(err)
	}
	if list, err := client.List(ctx, metav1.ListOptions{LabelSelector: "app=dc"}); err != nil || len(list.Items) != 0 {
		t.Fatalf("List after DeleteCollection = %d items, %v", len(list.Items), err)
	}
}

func TestExtensionVerbs(t *testing.T) {
	ctx := t.Context()
	cs := clientset(t)
	client := cs.ExampleV1().TestTypes("default")
	obj := testType("default", "ext", nil)
	obj.Spec.Replicas = 2
	if _, err := client.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	scale, err := client.GetScale(ctx, "ext", metav1.GetOptions{})
	if err != nil || scale.Spec.Replicas != 2 {
		t.Fatalf("GetScale = %+v, %v", scale, err)
	}
	scale.Spec.Replicas = 5
	if scale, err = client.UpdateScale(ctx, "ext", scale, metav1.UpdateOptions{}); err != nil || scale.Spec.Replicas != 5 {
		t.Fatalf("UpdateScale = %+v, %v", scale, err)
	}
	if got, err := client.GetStatus(ctx, "ext", metav1.GetOptions{}); err != nil || got.Spec.Replicas != 5 {
		t.Fatalf("GetStatus = %+v, %v", got, err)
	}
	touched, err := client.Touch(ctx, "ext", types.MergePatchType, []byte(`{"status":{"phase":"Touched"}}`), metav1.PatchOptions{}, "status")
	if err != nil || touched.Status.Phase != "Touched" {
		t.Fatalf("Touch(status) = %+v, %v", touched, err)
	}

	// Cluster-scoped type with the scale subresource.
	cluster := cs.ExampleV1().ClusterTestTypes()
	if _, err := cluster.Create(ctx, &examplev1.ClusterTestType{ObjectMeta: metav1.ObjectMeta{Name: "cext"}, Spec: examplev1.TestTypeSpec{Replicas: 1}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cluster.UpdateScale(ctx, "cext", &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "cext"}, Spec: autoscalingv1.ScaleSpec{Replicas: 4}}, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if scale, err := cluster.GetScale(ctx, "cext", metav1.GetOptions{}); err != nil || scale.Spec.Replicas != 4 {
		t.Fatalf("cluster GetScale = %+v, %v", scale, err)
	}
}

func TestResourceNamesAndGroups(t *testing.T) {
	ctx := t.Context()
	cs := clientset(t)
	// +resourceName=gizmos.
	if _, err := cs.SecondExampleV1().Gadgets("default").Create(ctx, &example2v1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "g"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Plural exception Fish:Fish, cluster-scoped.
	if _, err := cs.SecondExampleV1().Fish().Create(ctx, &example2v1.Fish{ObjectMeta: metav1.ObjectMeta{Name: "nemo"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// A hyphenated group through its +groupGoName.
	if _, err := cs.HyphenGroupV1().Things("default").Create(ctx, &hyphenv1.Thing{ObjectMeta: metav1.ObjectMeta{Name: "t"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The second version of a group reads objects stored through the first.
	if _, err := cs.ExampleV1().TestTypes("default").Create(ctx, testType("default", "versions", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := cs.ExampleV1beta1().TestTypes("default").Get(ctx, "versions", metav1.GetOptions{}); err != nil || got.Name != "versions" {
		t.Fatalf("v1beta1 Get = %+v, %v", got, err)
	}
}

func TestWatch(t *testing.T) {
	ctx := t.Context()
	client := clientset(t).ExampleV1().TestTypes("default")
	w, err := client.Watch(ctx, metav1.ListOptions{LabelSelector: "app=watch"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := client.Create(ctx, testType("default", "w1", map[string]string{"app": "watch"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-w.ResultChan():
		obj, ok := ev.Object.(*examplev1.TestType)
		if ev.Type != watch.Added || !ok || obj.Name != "w1" {
			t.Fatalf("event = %s %T", ev.Type, ev.Object)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no watch event")
	}
}

func TestInformersAndListers(t *testing.T) {
	cs := clientset(t)
	ctx := t.Context()
	if _, err := cs.ExampleV1().TestTypes("default").Create(ctx, testType("default", "before", map[string]string{"app": "inf"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	factory := externalversions.NewSharedInformerFactoryWithOptions(cs, time.Minute,
		externalversions.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "app=inf" }))
	testTypes := factory.Example().V1().TestTypes()
	fish := factory.SecondExample().V1().Fish()
	added := make(chan string, 10)
	if _, err := testTypes.TypedInformer().AddTypedEventHandler(externalversionsHandler(added)); err != nil {
		t.Fatal(err)
	}
	fish.Informer()
	defer factory.Shutdown()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	factory.StartWithContext(runCtx)
	if res := factory.WaitForCacheSyncWithContext(runCtx); res.AsError() != nil {
		t.Fatal(res.AsError())
	}
	if got, err := testTypes.Lister().TestTypes("default").Get("before"); err != nil || got.Name != "before" {
		t.Fatalf("lister Get(before) = %v, %v", got, err)
	}
	if _, err := cs.ExampleV1().TestTypes("default").Create(ctx, testType("default", "after", map[string]string{"app": "inf"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ExampleV1().TestTypes("default").Create(ctx, testType("default", "filtered", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for !seen["after"] {
		select {
		case name := <-added:
			seen[name] = true
		case <-time.After(30 * time.Second):
			t.Fatalf("handler saw %v; want after", seen)
		}
	}
	all, err := testTypes.Lister().List(labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range all {
		if obj.Name == "filtered" {
			t.Fatal("the tweak's label selector did not filter the informer")
		}
	}
	if _, err := fish.Lister().Get("no-such-fish"); !errors.IsNotFound(err) {
		t.Fatalf("fish lister Get = %v; want NotFound", err)
	}
}

func externalversionsHandler(added chan<- string) informersexamplev1.TestTypeHandlerFuncs {
	return informersexamplev1.TestTypeHandlerFuncs{AddFunc: func(obj *examplev1.TestType) { added <- obj.Name }}
}

func testType(ns, name string, lbls map[string]string) *examplev1.TestType {
	return &examplev1.TestType{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}, Spec: examplev1.TestTypeSpec{Replicas: 1}}
}
