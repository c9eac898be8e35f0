package fake_test

import (
	"context"
	"slices"
	"testing"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	kgentesting "github.com/kgen-dev/kgen/runtime/testing"
	examplev1 "github.com/kgen-dev/kgen/testdata/apis/example/v1"
	example2v1 "github.com/kgen-dev/kgen/testdata/apis/example2/v1"
	"github.com/kgen-dev/kgen/testdata/generated/clientset/versioned/fake"
	"github.com/kgen-dev/kgen/testdata/generated/informers/externalversions"
)

func testType(ns, name string, lbls map[string]string) *examplev1.TestType {
	return &examplev1.TestType{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}, Spec: examplev1.TestTypeSpec{Replicas: 1}}
}

func TestFakeClientsetCRUD(t *testing.T) {
	ctx := t.Context()
	cs := fake.NewSimpleClientset(testType("ns", "seeded", nil))
	client := cs.ExampleV1().TestTypes("ns")

	got, err := client.Get(ctx, "seeded", metav1.GetOptions{})
	if err != nil || got.Name != "seeded" {
		t.Fatalf("Get(seeded) = %v, %v", got, err)
	}
	if _, err := client.Create(ctx, testType("ns", "a", map[string]string{"app": "x"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	list, err := client.List(ctx, metav1.ListOptions{LabelSelector: "app=x"})
	if err != nil || len(list.Items) != 1 || list.Items[0].Name != "a" {
		t.Fatalf("List(app=x) = %+v, %v", list, err)
	}
	a := list.Items[0].DeepCopy()
	a.Status.Phase = "Ready"
	if updated, err := client.UpdateStatus(ctx, a, metav1.UpdateOptions{}); err != nil || updated.Status.Phase != "Ready" {
		t.Fatalf("UpdateStatus = %+v, %v", updated, err)
	}
	if err := client.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(ctx, "a", metav1.GetOptions{}); !errors.IsNotFound(err) {
		t.Fatalf("Get after Delete error = %v; want NotFound", err)
	}
	// The hand-written expansion is part of the fake client too.
	if obj, err := client.GetOrNil(ctx, "missing"); obj != nil || err != nil {
		t.Fatalf("GetOrNil(missing) = %v, %v", obj, err)
	}

	// Cluster-scoped types use root actions; a plural exception names the resource.
	if _, err := cs.SecondExampleV1().Fish().Create(ctx, &example2v1.Fish{ObjectMeta: metav1.ObjectMeta{Name: "nemo"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	last := cs.Actions()[len(cs.Actions())-1]
	if last.GetVerb() != "create" || last.GetNamespace() != "" || last.GetResource().Resource != "fish" {
		t.Fatalf("last action = %s %s in %q; want create fish at the root", last.GetVerb(), last.GetResource(), last.GetNamespace())
	}
	// +resourceName renames the resource the fake records.
	if _, err := cs.SecondExampleV1().Gadgets("ns").List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := cs.Actions()[len(cs.Actions())-1].GetResource().Resource; r != "gizmos" {
		t.Fatalf("Gadgets list resource = %s; want gizmos", r)
	}
}

func TestFakeExtensionVerbs(t *testing.T) {
	ctx := t.Context()
	cs := fake.NewSimpleClientset()
	cs.PrependReactor("get", "testtypes", func(action kgentesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "scale" {
			return false, nil, nil
		}
		return true, &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: 7}}, nil
	})
	scale, err := cs.ExampleV1().TestTypes("ns").GetScale(ctx, "a", metav1.GetOptions{})
	if err != nil || scale.Spec.Replicas != 7 {
		t.Fatalf("GetScale = %+v, %v", scale, err)
	}
	action := cs.Actions()[0]
	if action.GetSubresource() != "scale" || action.GetNamespace() != "ns" || action.GetResource() != (schema.GroupVersionResource{Group: "example.kgen.dev", Version: "v1", Resource: "testtypes"}) {
		t.Fatalf("recorded action = %#v", action)
	}
	cs.PrependReactor("update", "clustertesttypes", func(action kgentesting.Action) (bool, runtime.Object, error) {
		return true, &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: 3}}, nil
	})
	if scale, err := cs.ExampleV1().ClusterTestTypes().UpdateScale(ctx, "c", &autoscalingv1.Scale{}, metav1.UpdateOptions{}); err != nil || scale.Spec.Replicas != 3 {
		t.Fatalf("UpdateScale = %+v, %v", scale, err)
	}
	if a := cs.Actions()[1]; a.GetSubresource() != "scale" || a.GetNamespace() != "" || a.GetVerb() != "update" {
		t.Fatalf("cluster-scoped UpdateScale action = %#v", a)
	}
}

func TestFakeInformerFactorySyncs(t *testing.T) {
	cs := fake.NewSimpleClientset(testType("ns", "a", map[string]string{"app": "x"}), testType("other", "b", nil))
	factory := externalversions.NewSharedInformerFactoryWithOptions(cs, 0, externalversions.WithNamespace("ns"))
	informer := factory.Example().V1().TestTypes()
	lister := informer.Lister()
	defer factory.Shutdown() // after cancel: Shutdown waits for the informers to stop
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	factory.Start(ctx.Done())
	if res := factory.WaitForCacheSyncWithContext(ctx); res.AsError() != nil {
		t.Fatal(res.AsError())
	}
	all, err := lister.List(labels.Everything())
	if err != nil || len(all) != 1 || all[0].Name != "a" {
		t.Fatalf("lister.List = %v, %v; want only ns/a (factory limited to ns)", all, err)
	}
	if n := lister.CountAll(); n != 1 {
		t.Fatalf("hand-written lister expansion CountAll = %d", n)
	}
	// The fake's tracker serves streaming lists, so the informer lists the way it does against a server:
	// one watch with sendInitialEvents and no LIST.
	if cs.IsWatchListSemanticsUnSupported() {
		t.Fatal("fake clientset opts out of streaming lists its tracker serves")
	}
	for _, a := range cs.Actions() {
		if a.GetVerb() == "list" {
			t.Fatalf("informer listed (%v); want a streaming list", a)
		}
		if w, ok := a.(kgentesting.WatchActionImpl); ok && (w.ListOptions.SendInitialEvents == nil || !*w.ListOptions.SendInitialEvents) {
			t.Fatalf("informer watch %+v does not ask for initial events", w.ListOptions)
		}
	}

	// Watch events reach the cache.
	if _, err := cs.ExampleV1().TestTypes("ns").Create(ctx, testType("ns", "c", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if obj, err := lister.TestTypes("ns").Get("c"); err == nil && obj.Name == "c" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("created object never reached the lister")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, err = lister.TestTypes("ns").Get("nope")
	if status, ok := err.(errors.APIStatus); !ok || !errors.IsNotFound(err) || status.Status().Details.Kind != "testtype" {
		t.Fatalf("Get(nope) = %v; want NotFound naming the lowercase kind, as client-go's listers do", err)
	}

	// The same informer is shared; ForResource finds it by its plural resource.
	if informer.Informer() != factory.Example().V1().TestTypes().Informer() {
		t.Fatal("factory returned two informers for one type")
	}
	generic, err := factory.ForResource(examplev1.SchemeGroupVersion.WithResource("testtypes"))
	if err != nil || generic.Informer() != informer.Informer() {
		t.Fatalf("ForResource(testtypes) = %v, %v", generic, err)
	}
	if _, err := factory.ForResource(example2v1.SchemeGroupVersion.WithResource("gizmos")); err != nil {
		t.Fatalf("ForResource(gizmos) = %v; +resourceName must name the generic informer", err)
	}
	if _, err := factory.ForResource(example2v1.SchemeGroupVersion.WithResource("gadgets")); err == nil {
		t.Fatal("ForResource(gadgets) found an informer; the resource is gizmos")
	}
}

func TestFakeDiscoveryListsServedResources(t *testing.T) {
	cs := fake.NewSimpleClientset()
	resources, err := cs.Discovery().ServerResourcesForGroupVersion("example.kgen.dev/v1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]metav1.APIResource{}
	for _, r := range resources.APIResources {
		got[r.Name] = r
	}
	for name, want := range map[string]metav1.APIResource{
		"testtypes":               {Kind: "TestType", Namespaced: true, Verbs: metav1.Verbs{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}},
		"testtypes/status":        {Kind: "TestType", Namespaced: true, Verbs: metav1.Verbs{"get", "update"}},
		"testtypes/scale":         {Kind: "Scale", Namespaced: true, Verbs: metav1.Verbs{"get", "update"}},
		"clustertesttypes":        {Kind: "ClusterTestType", Namespaced: false, Verbs: metav1.Verbs{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}},
		"clustertesttypes/status": {Kind: "ClusterTestType", Namespaced: false, Verbs: metav1.Verbs{"update"}},
	} {
		r, ok := got[name]
		if !ok {
			t.Errorf("discovery lacks %s; has %v", name, resources.APIResources)
			continue
		}
		if r.Kind != want.Kind || r.Namespaced != want.Namespaced || !slices.Equal(r.Verbs, want.Verbs) {
			t.Errorf("%s = %+v; want kind %s namespaced %v verbs %v", name, r, want.Kind, want.Namespaced, want.Verbs)
		}
	}

	groups, err := cs.Discovery().ServerGroups()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range groups.Groups {
		names = append(names, g.Name)
	}
	for _, want := range []string{"example.kgen.dev", "example2.kgen.dev", "example3.io", "hyphen-group.kgen.dev", "mixedcase.kgen.dev"} {
		if !slices.Contains(names, want) {
			t.Errorf("ServerGroups = %v; lacks %s", names, want)
		}
	}
	// Each clientset has its own copy: changing one does not change another's discovery.
	cs.Resources[0].APIResources = nil
	if fresh := fake.NewSimpleClientset(); len(fresh.Resources[0].APIResources) == 0 {
		t.Fatal("clientsets share their discovery resources")
	}
}
