package e2e_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	corev1ac "github.com/kgen-dev/kgen/builtin/applyconfigurations/core/v1"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/dynamic"
)

var (
	configMaps    = schema.GroupResource{Resource: "configmaps"}
	configMapsGVR = corev1.SchemeGroupVersion.WithResource("configmaps")
	services      = schema.GroupResource{Resource: "services"}
)

// namespace creates a namespace for one test.
func namespace(t *testing.T, client kubernetes.Interface) string {
	t.Helper()
	ns, err := client.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "ryw-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// expectLast fails t unless rec's last write to key of resource is at rv (and a delete if deleted).
func expectLast(t *testing.T, rec *consistency.Recorder, resource schema.GroupResource, key, rv string, deleted bool) consistency.Write {
	t.Helper()
	w, ok := rec.Resource(resource).Last(key)
	if !ok || w.ResourceVersion != rv || w.Deleted != deleted {
		t.Fatalf("last write to %s %s = %+v, %v; want resourceVersion %q, deleted %v", resource, key, w, ok, rv, deleted)
	}
	return w
}

func TestTypedClientRecordsItsWrites(t *testing.T) {
	client := kubernetes.NewForConfigOrDie(env.Config())
	ns := namespace(t, client)
	rec := consistency.NewRecorder()
	ctx := consistency.WithRecorder(context.Background(), rec)
	cms := client.CoreV1().ConfigMaps(ns)

	created, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"l": "1"}}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := expectLast(t, rec, configMaps, ns+"/a", created.ResourceVersion, false)
	if w.UID != created.UID || w.Labels["l"] != "1" {
		t.Fatalf("create recorded as %+v", w)
	}
	created.Data = map[string]string{"k": "v"}
	updated, err := cms.Update(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expectLast(t, rec, configMaps, ns+"/a", updated.ResourceVersion, false)
	patched, err := cms.Patch(ctx, "a", types.MergePatchType, []byte(`{"data":{"k":"w"}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expectLast(t, rec, configMaps, ns+"/a", patched.ResourceVersion, false)
	applied, err := cms.Apply(ctx, corev1ac.ConfigMap("a", ns).WithData(map[string]string{"k": "x"}), metav1.ApplyOptions{FieldManager: "ryw", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	expectLast(t, rec, configMaps, ns+"/a", applied.ResourceVersion, false)

	// Status writes record the object's new version.
	svc, err := client.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec:       corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Ports: []corev1.ServicePort{{Port: 80}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "192.0.2.1"}}
	svc, err = client.CoreV1().Services(ns).UpdateStatus(ctx, svc, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expectLast(t, rec, services, ns+"/s", svc.ResourceVersion, false)

	// A delete the server answers with a Status keeps the UID and version of the write before it.
	if err := cms.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	w = expectLast(t, rec, configMaps, ns+"/a", "", true)
	if w.UID != created.UID || w.PreviousResourceVersion != applied.ResourceVersion {
		t.Fatalf("delete recorded as %+v; want the UID %s and previous version %s", w, created.UID, applied.ResourceVersion)
	}

	// A delete that finalizers hold is answered with the object marked for deletion.
	held, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "held", Finalizers: []string{"example.com/hold"}}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cms.Delete(ctx, "held", metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(held.UID))}); err != nil {
		t.Fatal(err)
	}
	marked, err := cms.Get(ctx, "held", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := expectLast(t, rec, configMaps, ns+"/held", marked.ResourceVersion, true); w.UID != held.UID {
		t.Fatalf("delete held by a finalizer recorded as %+v", w)
	}
	if _, err := cms.Patch(ctx, "held", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}

	// Without a recorder nothing is recorded.
	before := rec.Resource(configMaps).Count()
	if _, err := cms.Create(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "unrecorded"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rec.Resource(configMaps).Count() != before {
		t.Fatal("a write without a recorder in its context was recorded")
	}
}

func TestDynamicClientRecordsItsWrites(t *testing.T) {
	ns := namespace(t, kubernetes.NewForConfigOrDie(env.Config()))
	client := dynamic.NewForConfigOrDie(env.Config()).Resource(configMapsGVR).Namespace(ns)
	rec := consistency.NewRecorder()
	ctx := consistency.WithRecorder(context.Background(), rec)

	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a", "labels": map[string]any{"l": "1"}},
	}}
	created, err := client.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := expectLast(t, rec, configMaps, ns+"/a", created.GetResourceVersion(), false); w.UID != created.GetUID() || w.Labels["l"] != "1" {
		t.Fatalf("create recorded as %+v", w)
	}
	if err := unstructured.SetNestedField(created.Object, "v", "data", "k"); err != nil {
		t.Fatal(err)
	}
	updated, err := client.Update(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expectLast(t, rec, configMaps, ns+"/a", updated.GetResourceVersion(), false)
	patched, err := client.Patch(ctx, "a", types.MergePatchType, []byte(`{"data":{"k":"w"}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expectLast(t, rec, configMaps, ns+"/a", patched.GetResourceVersion(), false)
	applied, err := client.Apply(ctx, "a", &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"}, "data": map[string]any{"k": "x"},
	}}, metav1.ApplyOptions{FieldManager: "ryw", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	expectLast(t, rec, configMaps, ns+"/a", applied.GetResourceVersion(), false)

	if err := client.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if w := expectLast(t, rec, configMaps, ns+"/a", "", true); w.UID != created.GetUID() || w.PreviousResourceVersion != applied.GetResourceVersion() {
		t.Fatalf("delete recorded as %+v", w)
	}

	held := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "held", "finalizers": []any{"example.com/hold"}},
	}}
	if held, err = client.Create(ctx, held, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.Delete(ctx, "held", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	marked, err := client.Get(ctx, "held", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := expectLast(t, rec, configMaps, ns+"/held", marked.GetResourceVersion(), true); w.UID != held.GetUID() {
		t.Fatalf("delete held by a finalizer recorded as %+v", w)
	}
	if _, err := client.Patch(ctx, "held", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}
