package e2e_test

import (
	"context"
	"os"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.dynamic.kgen.dev
spec:
  group: dynamic.kgen.dev
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

var (
	widgets    = schema.GroupVersionResource{Group: "dynamic.kgen.dev", Version: "v1", Resource: "widgets"}
	namespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

func widget(name string, size int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "dynamic.kgen.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"app": "w"}},
		"spec":     map[string]any{"size": size},
	}}
}

// setup installs the widget CRD and creates a namespace named prefix plus a random suffix, so tests can
// run repeatedly against one environment; it returns a dynamic client and the namespace.
func setup(t *testing.T, prefix string) (*dynamic.DynamicClient, string) {
	t.Helper()
	ns := prefix + "-" + utilrand.String(5)
	ctx := context.Background()
	if err := env.InstallCRDs(ctx, []byte(widgetCRD)); err != nil {
		t.Fatal(err)
	}
	client, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	nsObj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
	if _, err := client.Resource(namespaces).Create(ctx, nsObj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return client, ns
}

func TestE2EDynamicCRUD(t *testing.T) {
	ctx := context.Background()
	client, ns := setup(t, "dyn")
	w := client.Resource(widgets).Namespace(ns)

	created, err := w.Create(ctx, widget("a", 1), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.GetUID() == "" || created.GetNamespace() != ns {
		t.Fatalf("created %v", created)
	}
	if _, err := w.Create(ctx, widget("a", 1), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("duplicate create: %v", err)
	}
	got, err := w.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = unstructured.SetNestedField(got.Object, int64(2), "spec", "size")
	updated, err := w.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if size, _, _ := unstructured.NestedInt64(updated.Object, "spec", "size"); size != 2 {
		t.Fatalf("size %d", size)
	}
	if _, err := w.Update(ctx, got, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Fatalf("stale update: %v", err)
	}
	_ = unstructured.SetNestedField(updated.Object, "Ready", "status", "phase")
	withStatus, err := w.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if phase, _, _ := unstructured.NestedString(withStatus.Object, "status", "phase"); phase != "Ready" {
		t.Fatalf("status %v", withStatus.Object["status"])
	}
	patched, err := w.Patch(ctx, "a", types.MergePatchType, []byte(`{"spec":{"color":"red"}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c, _, _ := unstructured.NestedString(patched.Object, "spec", "color"); c != "red" {
		t.Fatalf("merge patch %v", patched.Object["spec"])
	}
	if _, err := w.Patch(ctx, "a", types.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/color","value":"blue"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	applied, err := w.Apply(ctx, "b", widget("b", 7), metav1.ApplyOptions{FieldManager: "kgen-test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(applied.GetManagedFields()) == 0 {
		t.Fatal("apply must record managed fields")
	}
	status := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "dynamic.kgen.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "b"}, "status": map[string]any{"phase": "Applied"}}}
	if out, err := w.ApplyStatus(ctx, "b", status, metav1.ApplyOptions{FieldManager: "kgen-test", Force: true}); err != nil {
		t.Fatal(err)
	} else if phase, _, _ := unstructured.NestedString(out.Object, "status", "phase"); phase != "Applied" {
		t.Fatalf("apply status %v", out.Object["status"])
	}
	if _, err := w.Apply(ctx, "b", widget("b", 7), metav1.ApplyOptions{}); err == nil {
		t.Fatal("apply without a field manager must fail")
	}
	list, err := w.List(ctx, metav1.ListOptions{LabelSelector: "app=w"})
	if err != nil || len(list.Items) != 2 || list.GetResourceVersion() == "" {
		t.Fatalf("list: %v %d", err, len(list.Items))
	}
	all, err := client.Resource(widgets).List(ctx, metav1.ListOptions{})
	if err != nil || len(all.Items) < 2 {
		t.Fatalf("cluster-wide list: %v", err)
	}
	if err := w.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get after delete: %v", err)
	}
	if err := w.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=w"}); err != nil {
		t.Fatal(err)
	}
	if list, _ := w.List(ctx, metav1.ListOptions{}); len(list.Items) != 0 {
		t.Fatalf("after delete collection: %d", len(list.Items))
	}
	cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "core"}, "data": map[string]any{"k": "v"}}}
	if _, err := client.Resource(configMaps).Namespace(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatalf("core group via dynamic: %v", err)
	}
	if _, err := w.Get(ctx, "", metav1.GetOptions{}); err == nil {
		t.Fatal("empty name must fail")
	}
}

func TestE2EDynamicWatch(t *testing.T) {
	ctx := context.Background()
	client, ns := setup(t, "dynwatch")
	w := client.Resource(widgets).Namespace(ns)
	list, err := w.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	watcher, err := w.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Stop()
	if _, err := w.Create(ctx, widget("x", 1), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Delete(ctx, "x", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []watch.EventType{watch.Added, watch.Deleted} {
		select {
		case ev := <-watcher.ResultChan():
			u, ok := ev.Object.(*unstructured.Unstructured)
			if ev.Type != want || !ok || u.GetName() != "x" {
				t.Fatalf("got %s %T, want %s", ev.Type, ev.Object, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no %s event", want)
		}
	}
	old, err := w.Watch(ctx, metav1.ListOptions{ResourceVersion: "1"})
	if err == nil {
		ev := <-old.ResultChan()
		old.Stop()
		if ev.Type != watch.Error {
			t.Fatalf("want an error event, got %s", ev.Type)
		}
		if _, ok := ev.Object.(*metav1.Status); !ok {
			t.Fatalf("error event object is %T, want *metav1.Status", ev.Object)
		}
		err = apierrors.FromObject(ev.Object)
	}
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Fatalf("expired watch: %v", err)
	}
}
