package testing_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

func TestCreateSetsSystemFields(t *testing.T) {
	c := newClient(t)
	got := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", nil)))
	if got.ResourceVersion == "" || got.UID == "" || got.CreationTimestamp.IsZero() {
		t.Fatalf("system fields not set: %+v", got.ObjectMeta)
	}
	if got.Generation != 0 {
		t.Errorf("ConfigMap has no spec, generation = %d", got.Generation)
	}
	p := must[*corev1.Pod](t)(c.createPod(pod("ns", "p")))
	if p.Generation != 1 {
		t.Errorf("pod generation = %d, want 1", p.Generation)
	}
	if rv1, _ := strconv.Atoi(got.ResourceVersion); strconv.Itoa(rv1+1) != p.ResourceVersion {
		t.Errorf("resourceVersions %s then %s: not one global counter", got.ResourceVersion, p.ResourceVersion)
	}
}

func TestCreateGenerateName(t *testing.T) {
	c := newClient(t)
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		obj := cm("ns", "", nil)
		obj.GenerateName = "gen-"
		got := must[*corev1.ConfigMap](t)(c.createCM(obj))
		if !strings.HasPrefix(got.Name, "gen-") || len(got.Name) != len("gen-")+5 || seen[got.Name] {
			t.Fatalf("bad generated name %q", got.Name)
		}
		seen[got.Name] = true
	}
	_, err := c.createCM(cm("ns", "", nil))
	wantStatus(t, err, 422, metav1.StatusReasonInvalid)
}

func TestCreateErrors(t *testing.T) {
	c := newClient(t, cm("ns", "a", nil))
	_, err := c.createCM(cm("ns", "a", nil))
	wantStatus(t, err, 409, metav1.StatusReasonAlreadyExists)
	if d := err.(apierrors.APIStatus).Status().Details; d.Name != "a" || d.Kind != "configmaps" {
		t.Errorf("details = %+v", d)
	}
	withRV := cm("ns", "b", nil)
	withRV.ResourceVersion = "7"
	if _, err := c.createCM(withRV); err == nil {
		t.Error("create with resourceVersion accepted")
	}
	wrongNS := cm("other", "c", nil)
	_, err = c.Invokes(ktesting.NewCreateAction(cmResource, "ns", wrongNS), nil)
	wantStatus(t, err, 400, metav1.StatusReasonBadRequest)
}

func TestCreateDryRunDoesNotPersist(t *testing.T) {
	c := newClient(t)
	obj, err := c.Invokes(ktesting.NewCreateActionWithOptions(cmResource, "ns", cm("ns", "a", nil),
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}), nil)
	if err != nil || nameOf(obj) != "a" {
		t.Fatalf("dry run: %v %v", obj, err)
	}
	_, err = c.getCM("ns", "a")
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)
}

func TestGetNotFound(t *testing.T) {
	c := newClient(t)
	_, err := c.getCM("ns", "missing")
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)
	if !apierrors.IsNotFound(err) || apierrors.ReasonForError(err) != metav1.StatusReasonNotFound {
		t.Fatal(err)
	}
	if d := err.(apierrors.APIStatus).Status().Details; d.Kind != "configmaps" || d.Name != "missing" {
		t.Errorf("details = %+v", d)
	}
}

func TestUpdateConflictAndNoop(t *testing.T) {
	c := newClient(t)
	v1 := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", map[string]string{"k": "1"})))
	v2in := v1.DeepCopy()
	v2in.Data["k"] = "2"
	v2 := must[*corev1.ConfigMap](t)(c.updateCM(v2in))
	if v2.ResourceVersion == v1.ResourceVersion || v2.UID != v1.UID || !v2.CreationTimestamp.Equal(&v1.CreationTimestamp) {
		t.Fatalf("update: %+v", v2.ObjectMeta)
	}
	stale := v1.DeepCopy()
	stale.Data["k"] = "3"
	_, err := c.updateCM(stale)
	wantStatus(t, err, 409, metav1.StatusReasonConflict)

	same := must[*corev1.ConfigMap](t)(c.updateCM(v2.DeepCopy()))
	if same.ResourceVersion != v2.ResourceVersion {
		t.Errorf("no-op update bumped resourceVersion %s -> %s", v2.ResourceVersion, same.ResourceVersion)
	}
	unconditional := v2.DeepCopy()
	unconditional.ResourceVersion = ""
	unconditional.Data["k"] = "4"
	if _, err := c.updateCM(unconditional); err != nil {
		t.Fatalf("unconditional update: %v", err)
	}
	_, err = c.updateCM(cm("ns", "missing", nil))
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)
}

func TestUpdateKeepsSystemFields(t *testing.T) {
	c := newClient(t)
	v1 := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", nil)))
	in := v1.DeepCopy()
	in.CreationTimestamp = metav1.Time{}
	in.Generation = 42
	in.Labels = map[string]string{"x": "y"}
	got := must[*corev1.ConfigMap](t)(c.updateCM(in))
	if !got.CreationTimestamp.Equal(&v1.CreationTimestamp) || got.Generation != v1.Generation || got.UID != v1.UID {
		t.Fatalf("system fields changed: %+v", got.ObjectMeta)
	}
}

func TestGenerationBumpsOnSpecChangesOnly(t *testing.T) {
	c := newClient(t)
	p := must[*corev1.Pod](t)(c.createPod(pod("ns", "p")))
	p.Labels = map[string]string{"a": "b"}
	p = must[*corev1.Pod](t)(c.updatePod(p, ""))
	if p.Generation != 1 {
		t.Fatalf("metadata change bumped generation to %d", p.Generation)
	}
	p.Spec.ActiveDeadlineSeconds = new(int64)
	*p.Spec.ActiveDeadlineSeconds = 30
	p = must[*corev1.Pod](t)(c.updatePod(p, ""))
	if p.Generation != 2 {
		t.Fatalf("spec change: generation %d, want 2", p.Generation)
	}
	p.Status.Phase = corev1.PodRunning
	p = must[*corev1.Pod](t)(c.updatePod(p, "status"))
	if p.Generation != 2 || p.Status.Phase != corev1.PodRunning {
		t.Fatalf("status update: generation %d phase %q", p.Generation, p.Status.Phase)
	}
}

func TestStatusSubresourceSeparation(t *testing.T) {
	c := newClient(t)
	in := pod("ns", "p")
	in.Status.Phase = corev1.PodRunning
	p := must[*corev1.Pod](t)(c.createPod(in))
	if p.Status.Phase != "" {
		t.Fatalf("create kept status %q", p.Status.Phase)
	}
	// Main resource update ignores status.
	p.Status.Phase = corev1.PodFailed
	p.Spec.Containers[0].Image = "nginx"
	p = must[*corev1.Pod](t)(c.updatePod(p, ""))
	if p.Status.Phase != "" || p.Spec.Containers[0].Image != "nginx" {
		t.Fatalf("main update: phase %q image %q", p.Status.Phase, p.Spec.Containers[0].Image)
	}
	// Status update ignores everything else.
	p.Status.Phase = corev1.PodSucceeded
	p.Spec.Containers[0].Image = "ignored"
	p = must[*corev1.Pod](t)(c.updatePod(p, "status"))
	if p.Status.Phase != corev1.PodSucceeded || p.Spec.Containers[0].Image != "nginx" {
		t.Fatalf("status update: phase %q image %q", p.Status.Phase, p.Spec.Containers[0].Image)
	}
	// Status patches too.
	p = must[*corev1.Pod](t)(c.patchPod("ns", "p", types.MergePatchType, `{"status":{"phase":"Running"},"spec":{"activeDeadlineSeconds":5}}`, "status"))
	if p.Status.Phase != corev1.PodRunning || p.Spec.ActiveDeadlineSeconds != nil {
		t.Fatalf("status patch: %+v", p)
	}
	got, err := c.Invokes(ktesting.NewGetSubresourceAction(podResource, "ns", "status", "p"), nil)
	if err != nil || got.(*corev1.Pod).Status.Phase != corev1.PodRunning {
		t.Fatalf("get status: %v %v", got, err)
	}
}

func TestListSelectorsAndPaging(t *testing.T) {
	objs := []*corev1.ConfigMap{cm("a", "one", nil), cm("a", "two", nil), cm("b", "one", nil), cm("b", "three", nil)}
	objs[0].Labels = map[string]string{"app": "x"}
	objs[2].Labels = map[string]string{"app": "x"}
	objs[3].Labels = map[string]string{"app": "y"}
	c := newClient(t)
	for _, o := range objs {
		must[*corev1.ConfigMap](t)(c.createCM(o))
	}
	names := func(l *corev1.ConfigMapList) string {
		var s []string
		for _, i := range l.Items {
			s = append(s, i.Namespace+"/"+i.Name)
		}
		return strings.Join(s, ",")
	}
	check := func(ns string, opts metav1.ListOptions, want string) {
		t.Helper()
		l := must[*corev1.ConfigMapList](t)(c.listCM(ns, opts))
		if got := names(l); got != want {
			t.Errorf("list %q %+v = %s, want %s", ns, opts, got, want)
		}
		if l.ResourceVersion == "" {
			t.Error("list has no resourceVersion")
		}
	}
	check("", metav1.ListOptions{}, "a/one,a/two,b/one,b/three")
	check("a", metav1.ListOptions{}, "a/one,a/two")
	check("", metav1.ListOptions{LabelSelector: "app=x"}, "a/one,b/one")
	check("", metav1.ListOptions{LabelSelector: "app"}, "a/one,b/one,b/three")
	check("", metav1.ListOptions{LabelSelector: "app!=x"}, "a/two,b/three")
	check("", metav1.ListOptions{FieldSelector: "metadata.name=one"}, "a/one,b/one")
	check("", metav1.ListOptions{FieldSelector: "metadata.namespace=b,metadata.name!=one"}, "b/three")
	check("b", metav1.ListOptions{LabelSelector: "app=x", FieldSelector: "metadata.name=one"}, "b/one")

	_, err := c.listCM("", metav1.ListOptions{LabelSelector: "app in ("})
	wantStatus(t, err, 400, metav1.StatusReasonBadRequest)

	page1 := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{Limit: 3}))
	if names(page1) != "a/one,a/two,b/one" || page1.Continue == "" {
		t.Fatalf("page 1 = %s continue %q", names(page1), page1.Continue)
	}
	page2 := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{Limit: 3, Continue: page1.Continue}))
	if names(page2) != "b/three" || page2.Continue != "" {
		t.Fatalf("page 2 = %s continue %q", names(page2), page2.Continue)
	}
}

func TestFieldSelectorOnNestedFields(t *testing.T) {
	p1, p2 := pod("ns", "p1"), pod("ns", "p2")
	p2.Spec.NodeName = "node-a"
	c := newClient(t, p1, p2)
	obj, err := c.Invokes(ktesting.NewListActionWithOptions(podResource, podKind, "", metav1.ListOptions{FieldSelector: "spec.nodeName=node-a"}), nil)
	if err != nil || len(obj.(*corev1.PodList).Items) != 1 || obj.(*corev1.PodList).Items[0].Name != "p2" {
		t.Fatalf("got %v %v", obj, err)
	}
	obj, _ = c.Invokes(ktesting.NewListActionWithOptions(podResource, podKind, "", metav1.ListOptions{FieldSelector: "spec.nodeName="}), nil)
	if l := obj.(*corev1.PodList); len(l.Items) != 1 || l.Items[0].Name != "p1" {
		t.Fatalf("unscheduled pods: %v", l.Items)
	}
}

func TestDeleteAndFinalizers(t *testing.T) {
	c := newClient(t)
	err := c.deleteCM("ns", "missing", metav1.DeleteOptions{})
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)

	in := cm("ns", "f", nil)
	in.Finalizers = []string{"example.com/a", "example.com/b"}
	created := must[*corev1.ConfigMap](t)(c.createCM(in))
	if err := c.deleteCM("ns", "f", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	marked := must[*corev1.ConfigMap](t)(c.getCM("ns", "f"))
	if marked.DeletionTimestamp == nil || marked.ResourceVersion == created.ResourceVersion {
		t.Fatalf("delete with finalizers did not mark: %+v", marked.ObjectMeta)
	}
	// Deleting again changes nothing.
	if err := c.deleteCM("ns", "f", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	again := must[*corev1.ConfigMap](t)(c.getCM("ns", "f"))
	if again.ResourceVersion != marked.ResourceVersion {
		t.Fatal("second delete wrote the object")
	}
	// New finalizers are forbidden while deleting.
	add := again.DeepCopy()
	add.Finalizers = append(add.Finalizers, "example.com/c")
	_, err = c.updateCM(add)
	wantStatus(t, err, 422, metav1.StatusReasonInvalid)
	// Removing one keeps the object; removing the last deletes it.
	one := again.DeepCopy()
	one.Finalizers = []string{"example.com/b"}
	one = must[*corev1.ConfigMap](t)(c.updateCM(one))
	if !one.DeletionTimestamp.Equal(marked.DeletionTimestamp) {
		t.Fatal("deletionTimestamp changed")
	}
	one.Finalizers = nil
	must[*corev1.ConfigMap](t)(c.updateCM(one))
	_, err = c.getCM("ns", "f")
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)
}

func TestDeletePreconditions(t *testing.T) {
	c := newClient(t)
	v := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", nil)))
	wrongUID := types.UID("nope")
	err := c.deleteCM("ns", "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &wrongUID}})
	wantStatus(t, err, 409, metav1.StatusReasonConflict)
	oldRV := v.ResourceVersion + "0"
	err = c.deleteCM("ns", "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &oldRV}})
	wantStatus(t, err, 409, metav1.StatusReasonConflict)
	if err := c.deleteCM("ns", "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &v.UID, ResourceVersion: &v.ResourceVersion}}); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteCollection(t *testing.T) {
	keep := cm("ns", "keep", nil)
	gone1, gone2 := cm("ns", "gone1", nil), cm("ns", "gone2", nil)
	other := cm("other", "gone3", nil)
	for _, o := range []*corev1.ConfigMap{gone1, gone2, other} {
		o.Labels = map[string]string{"drop": "yes"}
	}
	c := newClient(t, keep, gone1, gone2, other)
	_, err := c.Invokes(ktesting.NewDeleteCollectionActionWithOptions(cmResource, "ns", metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "drop=yes"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	l := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{}))
	if len(l.Items) != 2 || l.Items[0].Name != "keep" || l.Items[1].Name != "gone3" {
		t.Fatalf("left %v", l.Items)
	}
}

func TestPatchTypes(t *testing.T) {
	c := newClient(t)
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", map[string]string{"k": "v", "drop": "x"})))

	got := must[*corev1.ConfigMap](t)(c.patchCM("ns", "a", types.MergePatchType, `{"data":{"drop":null,"new":"n"}}`))
	if got.Data["new"] != "n" || got.Data["k"] != "v" || len(got.Data) != 2 {
		t.Fatalf("merge patch: %v", got.Data)
	}
	got = must[*corev1.ConfigMap](t)(c.patchCM("ns", "a", types.JSONPatchType, `[{"op":"replace","path":"/data/k","value":"w"}]`))
	if got.Data["k"] != "w" {
		t.Fatalf("json patch: %v", got.Data)
	}
	_, err := c.patchCM("ns", "a", types.JSONPatchType, `[{"op":"test","path":"/data/k","value":"nope"}]`)
	wantStatus(t, err, 422, metav1.StatusReasonInvalid)
	_, err = c.patchCM("ns", "a", types.JSONPatchType, `not json`)
	wantStatus(t, err, 400, metav1.StatusReasonBadRequest)
	got = must[*corev1.ConfigMap](t)(c.patchCM("ns", "a", types.StrategicMergePatchType, `{"data":{"s":"1"}}`))
	if got.Data["s"] != "1" || got.Data["k"] != "w" {
		t.Fatalf("strategic patch: %v", got.Data)
	}
	_, err = c.patchCM("ns", "a", types.MergePatchType, `{"metadata":{"resourceVersion":"1"},"data":{"x":"y"}}`)
	wantStatus(t, err, 409, metav1.StatusReasonConflict)
	_, err = c.patchCM("ns", "missing", types.MergePatchType, `{}`)
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)
}

func TestStrategicMergePatchMergesListsByKey(t *testing.T) {
	c := newClient(t)
	must[*corev1.Pod](t)(c.createPod(pod("ns", "p")))
	p := must[*corev1.Pod](t)(c.patchPod("ns", "p", types.StrategicMergePatchType,
		`{"spec":{"containers":[{"name":"sidecar","image":"envoy"}]}}`))
	if len(p.Spec.Containers) != 2 || p.Generation != 2 {
		t.Fatalf("containers %v generation %d", p.Spec.Containers, p.Generation)
	}
	p = must[*corev1.Pod](t)(c.patchPod("ns", "p", types.MergePatchType, `{"spec":{"containers":[{"name":"only","image":"x"}]}}`))
	if len(p.Spec.Containers) != 1 {
		t.Fatalf("merge patch should replace lists: %v", p.Spec.Containers)
	}
}

func TestStrategicMergePatchUnsupportedForUnstructured(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace("ns")
	u.SetName("w")
	u.Object["spec"] = map[string]interface{}{"size": int64(1)}
	c := newClient(t)
	obj, err := c.Invokes(ktesting.NewCreateAction(gvr, "ns", u), nil)
	if err != nil || obj.(*unstructured.Unstructured).GetGeneration() != 1 {
		t.Fatalf("create: %v %v", obj, err)
	}
	_, err = c.Invokes(ktesting.NewPatchAction(gvr, "ns", "w", types.StrategicMergePatchType, []byte(`{"spec":{"size":2}}`)), nil)
	wantStatus(t, err, 415, metav1.StatusReasonUnsupportedMediaType)
	obj, err = c.Invokes(ktesting.NewPatchAction(gvr, "ns", "w", types.MergePatchType, []byte(`{"spec":{"size":2}}`)), nil)
	if err != nil || obj.(*unstructured.Unstructured).GetGeneration() != 2 {
		t.Fatalf("merge patch: %v %v", obj, err)
	}
	list, err := c.Invokes(ktesting.NewListAction(gvr, schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, "ns", metav1.ListOptions{}), nil)
	if err != nil || len(list.(*unstructured.UnstructuredList).Items) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
}

func TestApplyWithoutTypeConverter(t *testing.T) {
	c := newClient(t)
	_, err := c.applyCM("ns", "a", `{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"v"}}`, "", false)
	wantStatus(t, err, 422, metav1.StatusReasonInvalid)
	got := must[*corev1.ConfigMap](t)(c.applyCM("ns", "a", `{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"v"}}`, "me", false))
	if got.Data["k"] != "v" || got.UID == "" {
		t.Fatalf("apply create: %+v", got)
	}
	got = must[*corev1.ConfigMap](t)(c.applyCM("ns", "a", "apiVersion: v1\nkind: ConfigMap\ndata:\n  k2: v2\n", "me", false))
	if got.Data["k"] != "v" || got.Data["k2"] != "v2" {
		t.Fatalf("apply update: %v", got.Data)
	}
}

func TestApplyWithFieldManagement(t *testing.T) {
	c := newManagedClient(t)
	got := must[*corev1.ConfigMap](t)(c.applyCM("ns", "a", `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1","b":"2"}}`, "alice", false))
	if len(got.ManagedFields) != 1 || got.ManagedFields[0].Manager != "alice" || got.ManagedFields[0].Operation != metav1.ManagedFieldsOperationApply {
		t.Fatalf("managed fields: %+v", got.ManagedFields)
	}
	_, err := c.applyCM("ns", "a", `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"other"}}`, "bob", false)
	wantStatus(t, err, 409, metav1.StatusReasonConflict)
	got = must[*corev1.ConfigMap](t)(c.applyCM("ns", "a", `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"other"}}`, "bob", true))
	if got.Data["a"] != "other" || got.Data["b"] != "2" {
		t.Fatalf("forced apply: %v", got.Data)
	}
	// Alice no longer owns "a": dropping "b" from her config removes it, "a" stays.
	got = must[*corev1.ConfigMap](t)(c.applyCM("ns", "a", `{"apiVersion":"v1","kind":"ConfigMap","data":{}}`, "alice", false))
	if _, ok := got.Data["b"]; ok || got.Data["a"] != "other" {
		t.Fatalf("ownership release: %v", got.Data)
	}
	// Updates are tracked too.
	upd := got.DeepCopy()
	upd.Data["c"] = "3"
	obj, err := c.Invokes(ktesting.NewUpdateActionWithOptions(cmResource, "ns", upd, metav1.UpdateOptions{FieldManager: "carol"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range obj.(*corev1.ConfigMap).ManagedFields {
		found = found || (m.Manager == "carol" && m.Operation == metav1.ManagedFieldsOperationUpdate)
	}
	if !found {
		t.Fatalf("update manager not recorded: %+v", obj.(*corev1.ConfigMap).ManagedFields)
	}
}

func TestApplyStatusSubresourceWithFieldManagement(t *testing.T) {
	c := newManagedClient(t)
	must[*corev1.Pod](t)(c.createPod(pod("ns", "p")))
	force := true
	obj, err := c.Invokes(ktesting.NewPatchSubresourceActionWithOptions(podResource, "ns", "p", types.ApplyYAMLPatchType,
		[]byte(`{"apiVersion":"v1","kind":"Pod","status":{"phase":"Running"},"spec":{"nodeName":"ignored"}}`),
		metav1.PatchOptions{FieldManager: "kubelet", Force: &force}, "status"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := obj.(*corev1.Pod)
	if p.Status.Phase != corev1.PodRunning || p.Spec.NodeName != "" {
		t.Fatalf("status apply: phase %q node %q", p.Status.Phase, p.Spec.NodeName)
	}
}

func TestTrackerAddListAndConflicts(t *testing.T) {
	o := ktesting.NewObjectTracker(scheme, codecs.UniversalDecoder())
	list := &corev1.ConfigMapList{Items: []corev1.ConfigMap{*cm("ns", "a", nil), *cm("ns", "b", nil)}}
	if err := o.Add(list); err != nil {
		t.Fatal(err)
	}
	if err := o.Add(cm("ns", "a", nil)); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("re-add: %v", err)
	}
	got, err := o.Get(cmResource, "ns", "b")
	if err != nil || !equality.Semantic.DeepEqual(got, &list.Items[1]) {
		t.Fatalf("get: %v %v", got, err)
	}
	if _, err := o.Get(cmResource, "ns", "b", metav1.GetOptions{}, metav1.GetOptions{}); err == nil {
		t.Fatal("two option arguments accepted")
	}
	if err := o.Delete(cmResource, "ns", "a"); err != nil {
		t.Fatal(err)
	}
	if err := o.Delete(cmResource, "ns", "a"); !apierrors.IsNotFound(err) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestConcurrentRetryOnConflict(t *testing.T) {
	// A fixture keeps the resourceVersion it is given, and an update without one is unconditional, as
	// on the API server: give the counter one so that every update is checked.
	counter := cm("ns", "counter", map[string]string{"n": "0"})
	counter.ResourceVersion = "1"
	c := newClient(t, counter)
	var wg sync.WaitGroup
	const workers, increments = 4, 25
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < increments; j++ {
				for {
					cur, err := c.getCM("ns", "counter")
					if err != nil {
						t.Error(err)
						return
					}
					n, _ := strconv.Atoi(cur.Data["n"])
					cur.Data["n"] = strconv.Itoa(n + 1)
					if _, err = c.updateCM(cur); err == nil {
						break
					} else if !apierrors.IsConflict(err) {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if got := must[*corev1.ConfigMap](t)(c.getCM("ns", "counter")); got.Data["n"] != strconv.Itoa(workers*increments) {
		t.Fatalf("lost updates: %s", got.Data["n"])
	}
}

func TestSubresourceOfAnotherKindIsEchoed(t *testing.T) {
	c := newClient(t, pod("ns", "p"))
	ev := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
	obj, err := c.Invokes(ktesting.NewCreateSubresourceAction(podResource, "p", "binding", "ns", ev), nil)
	if err != nil || obj.(*corev1.Binding).Name != "p" {
		t.Fatalf("got %v %v", obj, err)
	}
	_, err = c.Invokes(ktesting.NewGetSubresourceAction(podResource, "ns", "log", "p"), nil)
	wantStatus(t, err, 405, metav1.StatusReasonMethodNotAllowed)
}

func TestStatusOfResourceWithoutStatusIsNotFound(t *testing.T) {
	c := newClient(t, cm("ns", "a", nil))
	obj := must[*corev1.ConfigMap](t)(c.getCM("ns", "a"))
	_, err := c.Invokes(ktesting.NewUpdateSubresourceAction(cmResource, "status", "ns", obj), nil)
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)
	_, err = c.Invokes(ktesting.NewGetSubresourceAction(cmResource, "ns", "status", "a"), nil)
	wantStatus(t, err, 404, metav1.StatusReasonNotFound)
	withRV := cm("ns", "b", nil)
	withRV.ResourceVersion = "5"
	_, err = c.createCM(withRV)
	wantStatus(t, err, 500, "")
}

func TestDeploymentGenerationFollowsAnnotations(t *testing.T) {
	c := newClient(t)
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d"}}
	obj, err := c.Invokes(ktesting.NewCreateAction(deployments, "ns", d), nil)
	if err != nil {
		t.Fatal(err)
	}
	d = obj.(*appsv1.Deployment)
	d.Labels = map[string]string{"a": "b"}
	obj, _ = c.Invokes(ktesting.NewUpdateAction(deployments, "ns", d), nil)
	if g := obj.(*appsv1.Deployment).Generation; g != 1 {
		t.Fatalf("label change: generation %d", g)
	}
	d = obj.(*appsv1.Deployment)
	d.Annotations = map[string]string{"a": "b"}
	obj, _ = c.Invokes(ktesting.NewUpdateAction(deployments, "ns", d), nil)
	if g := obj.(*appsv1.Deployment).Generation; g != 2 {
		t.Fatalf("annotation change: generation %d", g)
	}
}

func TestUnstructuredStatusSubresource(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"namespace": "ns", "name": "w"},
		"spec":     map[string]interface{}{"size": int64(1)},
	}}
	c := newClient(t)
	obj, err := c.Invokes(ktesting.NewCreateAction(gvr, "ns", u), nil)
	if err != nil {
		t.Fatal(err)
	}
	in := obj.(*unstructured.Unstructured).DeepCopy()
	in.Object["status"] = map[string]interface{}{"ready": true}
	in.Object["spec"] = map[string]interface{}{"size": int64(9)}
	in.SetLabels(map[string]string{"ignored": "yes"})
	obj, err = c.Invokes(ktesting.NewUpdateSubresourceAction(gvr, "status", "ns", in), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := obj.(*unstructured.Unstructured)
	size, _, _ := unstructured.NestedInt64(out.Object, "spec", "size")
	ready, _, _ := unstructured.NestedBool(out.Object, "status", "ready")
	if size != 1 || !ready || out.GetGeneration() != 1 || len(out.GetLabels()) != 0 {
		t.Fatalf("status update of a custom resource: %v", out.Object)
	}
}

func TestBuiltinStatusUpdateKeepsMetadataChanges(t *testing.T) {
	c := newClient(t)
	p := must[*corev1.Pod](t)(c.createPod(pod("ns", "p")))
	p.Labels = map[string]string{"via": "status"}
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "x", UID: "u"}}
	p.Status.Phase = corev1.PodRunning
	p = must[*corev1.Pod](t)(c.updatePod(p, "status"))
	if p.Labels["via"] != "status" || len(p.OwnerReferences) != 0 || p.Status.Phase != corev1.PodRunning {
		t.Fatalf("pod status update: labels %v owners %v phase %q", p.Labels, p.OwnerReferences, p.Status.Phase)
	}
}

func TestFieldSelectorsLimitedToWhatTheServerSupports(t *testing.T) {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s"}, Type: corev1.SecretTypeOpaque}
	c := newClient(t, cm("ns", "a", map[string]string{"k": "v"}), s)
	_, err := c.listCM("", metav1.ListOptions{FieldSelector: "data.k=v"})
	wantStatus(t, err, 400, metav1.StatusReasonBadRequest)
	_, err = c.watchCM("", metav1.ListOptions{FieldSelector: "data.k=v"})
	wantStatus(t, err, 400, metav1.StatusReasonBadRequest)
	obj, err := c.Invokes(ktesting.NewListAction(secretResource, schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, "", metav1.ListOptions{FieldSelector: "type=Opaque"}), nil)
	if err != nil || len(obj.(*corev1.SecretList).Items) != 1 {
		t.Fatalf("secret type selector: %v %v", obj, err)
	}
	// Custom resources may declare selectable fields the tracker cannot know: any path is accepted.
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"namespace": "ns", "name": "w"},
		"spec":     map[string]interface{}{"color": "red"},
	}}
	if _, err := c.Invokes(ktesting.NewCreateAction(gvr, "ns", u), nil); err != nil {
		t.Fatal(err)
	}
	obj, err = c.Invokes(ktesting.NewListAction(gvr, schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, "", metav1.ListOptions{FieldSelector: "spec.color=red"}), nil)
	if err != nil || len(obj.(*unstructured.UnstructuredList).Items) != 1 {
		t.Fatalf("custom field selector: %v %v", obj, err)
	}
}

func TestSecretStringDataAndDefaultType(t *testing.T) {
	c := newClient(t)
	in := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s"}, StringData: map[string]string{"user": "admin"}}
	obj, err := c.Invokes(ktesting.NewCreateAction(secretResource, "ns", in), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := obj.(*corev1.Secret)
	if s.Type != corev1.SecretTypeOpaque || string(s.Data["user"]) != "admin" || s.StringData != nil {
		t.Fatalf("secret = %+v", s)
	}
}

func TestTrackerNeverMutatesCallersObjects(t *testing.T) {
	o := ktesting.NewObjectTracker(scheme, codecs.UniversalDecoder())
	in := cm("", "a", map[string]string{"k": "v"})
	if err := o.Create(cmResource, in, "ns"); err != nil {
		t.Fatal(err)
	}
	upd := cm("", "a", map[string]string{"k": "w"})
	if err := o.Update(cmResource, upd, "ns"); err != nil {
		t.Fatal(err)
	}
	if in.Namespace != "" || in.UID != "" || in.ResourceVersion != "" || upd.Namespace != "" || upd.ResourceVersion != "" {
		t.Fatalf("caller's objects changed: %+v %+v", in.ObjectMeta, upd.ObjectMeta)
	}
}

func TestListAtExactResourceVersionAndConsistentPages(t *testing.T) {
	c := newClient(t)
	for _, n := range []string{"a", "b", "c"} {
		must[*corev1.ConfigMap](t)(c.createCM(cm("ns", n, map[string]string{"v": "1"})))
	}
	before := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{}))
	page1 := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{Limit: 2}))

	// Change everything after the first page.
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "d", nil)))
	must[*corev1.ConfigMap](t)(c.patchCM("ns", "c", types.MergePatchType, `{"data":{"v":"2"}}`))
	if err := c.deleteCM("ns", "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	page2 := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{Limit: 2, Continue: page1.Continue}))
	if len(page2.Items) != 1 || page2.Items[0].Name != "c" || page2.Items[0].Data["v"] != "1" || page2.ResourceVersion != page1.ResourceVersion {
		t.Fatalf("second page is not the first page's snapshot: %+v", page2)
	}
	exact := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{ResourceVersion: before.ResourceVersion, ResourceVersionMatch: metav1.ResourceVersionMatchExact}))
	var names []string
	for _, i := range exact.Items {
		names = append(names, i.Name+"="+i.Data["v"])
	}
	if strings.Join(names, ",") != "a=1,b=1,c=1" || exact.ResourceVersion != before.ResourceVersion {
		t.Fatalf("exact list = %v at %s", names, exact.ResourceVersion)
	}
	now := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{}))
	if len(now.Items) != 3 {
		t.Fatalf("current list = %d items", len(now.Items))
	}
}

func TestPodsOnANodeAreDeletedGracefully(t *testing.T) {
	running := pod("ns", "running")
	running.Spec.NodeName = "node-1"
	c := newClient(t, running, pod("ns", "unscheduled"))
	del := func(name string, grace *int64) error {
		_, err := c.Invokes(ktesting.NewDeleteActionWithOptions(podResource, "ns", name, metav1.DeleteOptions{GracePeriodSeconds: grace}), nil)
		return err
	}
	get := func(name string) (*corev1.Pod, error) {
		obj, err := c.Invokes(ktesting.NewGetAction(podResource, "ns", name), nil)
		return asPod(obj, err)
	}
	if err := del("unscheduled", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := get("unscheduled"); !apierrors.IsNotFound(err) {
		t.Fatalf("unscheduled pod not deleted at once: %v", err)
	}
	if err := del("running", nil); err != nil {
		t.Fatal(err)
	}
	p := must[*corev1.Pod](t)(get("running"))
	if p.DeletionTimestamp == nil || *p.DeletionGracePeriodSeconds != 30 {
		t.Fatalf("graceful deletion: %+v", p.ObjectMeta)
	}
	// An update does not end a pending grace period; a delete with grace period zero does.
	p.Labels = map[string]string{"still": "here"}
	must[*corev1.Pod](t)(c.updatePod(p, ""))
	must[*corev1.Pod](t)(get("running"))
	zero := int64(0)
	if err := del("running", &zero); err != nil {
		t.Fatal(err)
	}
	if _, err := get("running"); !apierrors.IsNotFound(err) {
		t.Fatalf("zero grace period did not delete: %v", err)
	}
}

func TestObjectMetadataIsValidated(t *testing.T) {
	c := newClient(t)
	_, err := c.createCM(cm("ns", "Not_Valid", nil))
	wantStatus(t, err, 422, metav1.StatusReasonInvalid)
	bad := cm("ns", "l", nil)
	bad.Labels = map[string]string{"app": "has spaces"}
	_, err = c.createCM(bad)
	wantStatus(t, err, 422, metav1.StatusReasonInvalid)
	ok := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "ok", nil)))
	ok.Annotations = map[string]string{"bad key!": "v"}
	_, err = c.updateCM(ok)
	wantStatus(t, err, 422, metav1.StatusReasonInvalid)
	if causes := err.(apierrors.APIStatus).Status().Details.Causes; len(causes) == 0 || causes[0].Field != "metadata.annotations" {
		t.Fatalf("causes = %+v", causes)
	}
}

func TestMissingObjectsAreBadRequests(t *testing.T) {
	c := newClient(t)
	var nilCM *corev1.ConfigMap
	for _, action := range []ktesting.Action{
		ktesting.NewCreateAction(cmResource, "ns", nil),
		ktesting.NewUpdateAction(cmResource, "ns", nil),
		ktesting.NewCreateAction(cmResource, "ns", nilCM),
		ktesting.NewUpdateAction(cmResource, "ns", nilCM),
	} {
		_, err := c.Invokes(action, nil)
		wantStatus(t, err, 400, metav1.StatusReasonBadRequest)
	}
}

// TestTrackerKeepsFixturesAsGiven: seeded objects read back exactly as seeded (client-go's tracker
// keeps them so, and tests compare recorded actions with their fixtures), lists still carry a
// resourceVersion a watch can start from, writes through the clientset get the server's
// resourceVersions, and an owner reference may leave out a uid the test cannot know.
func TestTrackerKeepsFixturesAsGiven(t *testing.T) {
	deployResource := appsv1.SchemeGroupVersion.WithResource("deployments")
	deployKind := appsv1.SchemeGroupVersion.WithKind("Deployment")
	owner := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "owner"}}
	c := newClient(t, owner)
	got, err := c.tracker.Get(deployResource, "ns", "owner")
	if err != nil || !equality.Semantic.DeepEqual(got, owner) {
		t.Fatalf("fixture read back as %v, %v", got, err)
	}
	list, err := c.tracker.List(deployResource, deployKind, "ns")
	if err != nil || list.(*appsv1.DeploymentList).ResourceVersion == "" {
		t.Fatalf("list %v, %v", list, err)
	}
	ref := *metav1.NewControllerRef(owner, appsv1.SchemeGroupVersion.WithKind("Deployment"))
	owned := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "owned", OwnerReferences: []metav1.OwnerReference{ref}}}
	obj, err := c.Invokes(ktesting.NewCreateAction(cmResource, "ns", owned), nil)
	if err != nil {
		t.Fatalf("create owned by a uid-less fixture: %v", err)
	}
	if m := obj.(*corev1.ConfigMap); m.ResourceVersion == "" || m.UID == "" || m.OwnerReferences[0].UID != "" {
		t.Fatalf("created %+v", m.ObjectMeta)
	}
	ref.Name = "in-another-clientset"
	owned = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "owned2", OwnerReferences: []metav1.OwnerReference{ref}}}
	if _, err := c.Invokes(ktesting.NewCreateAction(cmResource, "ns", owned), nil); err != nil {
		t.Fatalf("create owned by an object this tracker does not store: %v", err)
	}
	created, err := c.Invokes(ktesting.NewCreateAction(deployResource, "ns", &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "with-uid"}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref.Name = created.(*appsv1.Deployment).Name
	owned = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "owned3", OwnerReferences: []metav1.OwnerReference{ref}}}
	if _, err := c.Invokes(ktesting.NewCreateAction(cmResource, "ns", owned), nil); !apierrors.IsInvalid(err) {
		t.Fatalf("owner reference without the uid of a stored owner that has one: %v", err)
	}
	updated := owner.DeepCopy()
	updated.Labels = map[string]string{"a": "b"}
	obj, err = c.Invokes(ktesting.NewUpdateAction(deployResource, "ns", updated), nil)
	if err != nil || obj.(*appsv1.Deployment).ResourceVersion == "" {
		t.Fatalf("update of a fixture: %v %v", obj, err)
	}
}

// TestTrackerUpdatesFixtureSeededWithoutName: a fixture seeded without a name is stored as given,
// and, as with client-go's fake, the test may update it (status included) through the clientset; an
// update without a name of anything else stays a BadRequest, as on the server.
func TestTrackerUpdatesFixtureSeededWithoutName(t *testing.T) {
	nameless := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"}, Data: map[string]string{"a": "1"}}
	c := newClient(t, nameless)
	updated := nameless.DeepCopy()
	updated.Data["a"] = "2"
	obj, err := c.Invokes(ktesting.NewUpdateAction(cmResource, "ns", updated), nil)
	if err != nil || obj.(*corev1.ConfigMap).Data["a"] != "2" {
		t.Fatalf("update of a nameless fixture: %v, %v", obj, err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"}}
	c = newClient(t, pod)
	pod = pod.DeepCopy()
	pod.Status.Phase = corev1.PodRunning
	podResource := corev1.SchemeGroupVersion.WithResource("pods")
	if obj, err := c.Invokes(ktesting.NewUpdateSubresourceAction(podResource, "status", "ns", pod), nil); err != nil || obj.(*corev1.Pod).Status.Phase != corev1.PodRunning {
		t.Fatalf("status update of a nameless fixture: %v, %v", obj, err)
	}
	_, err = c.Invokes(ktesting.NewUpdateAction(cmResource, "ns", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"}}), nil)
	wantStatus(t, err, 400, metav1.StatusReasonBadRequest)
}
