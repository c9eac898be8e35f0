package fake_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	gentypefake "github.com/kgen-dev/kgen/runtime/gentype/fake"
	"github.com/kgen-dev/kgen/runtime/gentype/internal/gentypetest"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

var (
	configMapsGVR = corev1.SchemeGroupVersion.WithResource("configmaps")
	configMapGVK  = corev1.SchemeGroupVersion.WithKind("ConfigMap")
	deploymentGVR = appsv1.SchemeGroupVersion.WithResource("deployments")
	deploymentGVK = appsv1.SchemeGroupVersion.WithKind("Deployment")
	namespacesGVR = corev1.SchemeGroupVersion.WithResource("namespaces")
	namespaceGVK  = corev1.SchemeGroupVersion.WithKind("Namespace")
)

// newFake returns a Fake wired to an ObjectTracker the way a generated fake clientset wires it.
func newFake(objects ...runtime.Object) (*ktesting.Fake, ktesting.ObjectTracker) {
	tracker := ktesting.NewObjectTracker(gentypetest.Scheme, gentypetest.Codecs.UniversalDecoder())
	for _, obj := range objects {
		if err := tracker.Add(obj); err != nil {
			panic(err)
		}
	}
	fake := &ktesting.Fake{}
	fake.AddReactor("*", "*", ktesting.ObjectReaction(tracker))
	fake.AddWatchReactor("*", func(action ktesting.Action) (bool, watch.Interface, error) {
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace())
		return true, w, err
	})
	return fake, tracker
}

func fakeConfigMaps(fake *ktesting.Fake, namespace string) *gentypefake.FakeClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *gentypetest.ApplyConfig] {
	return gentypefake.NewFakeClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *gentypetest.ApplyConfig](
		fake, namespace, configMapsGVR, configMapGVK, gentypetest.NewConfigMap, gentypetest.NewConfigMapList,
		func(dst, src *corev1.ConfigMapList) { dst.ListMeta = src.ListMeta },
		func(l *corev1.ConfigMapList) []*corev1.ConfigMap { return gentypefake.ToPointerSlice(l.Items) },
		func(l *corev1.ConfigMapList, items []*corev1.ConfigMap) {
			l.Items = gentypefake.FromPointerSlice(items)
		})
}

func fakeDeployments(fake *ktesting.Fake, namespace string) *gentypefake.FakeClientWithListAndApply[*appsv1.Deployment, *appsv1.DeploymentList, *gentypetest.ApplyConfig] {
	return gentypefake.NewFakeClientWithListAndApply[*appsv1.Deployment, *appsv1.DeploymentList, *gentypetest.ApplyConfig](
		fake, namespace, deploymentGVR, deploymentGVK, gentypetest.NewDeployment, gentypetest.NewDeploymentList,
		func(dst, src *appsv1.DeploymentList) { dst.ListMeta = src.ListMeta },
		func(l *appsv1.DeploymentList) []*appsv1.Deployment { return gentypefake.ToPointerSlice(l.Items) },
		func(l *appsv1.DeploymentList, items []*appsv1.Deployment) {
			l.Items = gentypefake.FromPointerSlice(items)
		})
}

func fakeNamespaces(fake *ktesting.Fake) *gentypefake.FakeClientWithList[*corev1.Namespace, *corev1.NamespaceList] {
	return gentypefake.NewFakeClientWithList[*corev1.Namespace, *corev1.NamespaceList](
		fake, "", namespacesGVR, namespaceGVK, gentypetest.NewNamespace, gentypetest.NewNamespaceList,
		func(dst, src *corev1.NamespaceList) { dst.ListMeta = src.ListMeta },
		func(l *corev1.NamespaceList) []*corev1.Namespace { return gentypefake.ToPointerSlice(l.Items) },
		func(l *corev1.NamespaceList, items []*corev1.Namespace) {
			l.Items = gentypefake.FromPointerSlice(items)
		})
}

// recorded describes an action by what the fake client is responsible for filling in.
type recorded struct {
	verb, namespace, resource, subresource string
}

func recordedActions(fake *ktesting.Fake) []recorded {
	var out []recorded
	for _, a := range fake.Actions() {
		out = append(out, recorded{a.GetVerb(), a.GetNamespace(), a.GetResource().Resource, a.GetSubresource()})
	}
	return out
}

func TestFakeClientVerbsRecordActionsAndReachTheTracker(t *testing.T) {
	ctx := context.Background()
	fake, tracker := newFake()
	cms := fakeConfigMaps(fake, "team")

	created := must(cms.Create(ctx, gentypetest.ConfigMap("a", map[string]string{"app": "x"}, map[string]string{"k": "1"}), metav1.CreateOptions{FieldManager: "test"}))(t)
	if created.Name != "a" || created.Namespace != "team" {
		t.Fatalf("Create returned %s/%s, want team/a", created.Namespace, created.Name)
	}
	got := must(cms.Get(ctx, "a", metav1.GetOptions{}))(t)
	if got.Data["k"] != "1" {
		t.Fatalf("Get returned data %v", got.Data)
	}
	got.Data["k"] = "2"
	updated := must(cms.Update(ctx, got, metav1.UpdateOptions{}))(t)
	if updated.Data["k"] != "2" {
		t.Fatalf("Update returned data %v", updated.Data)
	}
	patched := must(cms.Patch(ctx, "a", types.MergePatchType, []byte(`{"data":{"p":"yes"}}`), metav1.PatchOptions{}))(t)
	if patched.Data["p"] != "yes" || patched.Data["k"] != "2" {
		t.Fatalf("Patch returned data %v", patched.Data)
	}
	applied := must(cms.Apply(ctx, gentypetest.ConfigMapApply("a", map[string]string{"applied": "1"}), metav1.ApplyOptions{FieldManager: "test", Force: true}))(t)
	if applied.Data["applied"] != "1" {
		t.Fatalf("Apply returned data %v", applied.Data)
	}
	list := must(cms.List(ctx, metav1.ListOptions{}))(t)
	if len(list.Items) != 1 {
		t.Fatalf("List returned %d items, want 1", len(list.Items))
	}
	if err := cms.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := tracker.Get(configMapsGVR, "team", "a"); !apierrors.IsNotFound(err) {
		t.Fatalf("after Delete the tracker still has the object (err %v)", err)
	}
	must(cms.Create(ctx, gentypetest.ConfigMap("b", map[string]string{"app": "x"}, nil), metav1.CreateOptions{}))(t)
	must(cms.Create(ctx, gentypetest.ConfigMap("c", map[string]string{"app": "y"}, nil), metav1.CreateOptions{}))(t)
	if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=x"}); err != nil {
		t.Fatal(err)
	}

	want := []recorded{
		{"create", "team", "configmaps", ""},
		{"get", "team", "configmaps", ""},
		{"update", "team", "configmaps", ""},
		{"patch", "team", "configmaps", ""},
		{"patch", "team", "configmaps", ""},
		{"list", "team", "configmaps", ""},
		{"delete", "team", "configmaps", ""},
		{"create", "team", "configmaps", ""},
		{"create", "team", "configmaps", ""},
		{"delete-collection", "team", "configmaps", ""},
	}
	if got := recordedActions(fake); !slices.Equal(got, want) {
		t.Fatalf("recorded actions\n got %v\nwant %v", got, want)
	}
	remaining := must(tracker.List(configMapsGVR, configMapGVK, "team"))(t).(*corev1.ConfigMapList)
	if got := names(gentypefake.ToPointerSlice(remaining.Items)); !slices.Equal(got, []string{"c"}) {
		t.Errorf("after DeleteCollection(app=x) the tracker holds %v, want [c]", got)
	}

	actions := fake.Actions()
	if opts := actions[0].(ktesting.CreateActionImpl).GetCreateOptions(); opts.FieldManager != "test" {
		t.Errorf("create action carries options %+v, want FieldManager test", opts)
	}
	if p := actions[3].(ktesting.PatchAction); p.GetPatchType() != types.MergePatchType || p.GetName() != "a" {
		t.Errorf("patch action has type %s name %q", p.GetPatchType(), p.GetName())
	}
	apply := actions[4].(ktesting.PatchActionImpl)
	if apply.GetPatchType() != types.ApplyPatchType || apply.GetName() != "a" {
		t.Errorf("apply action has type %s name %q", apply.GetPatchType(), apply.GetName())
	}
	if apply.PatchOptions.FieldManager != "test" || apply.PatchOptions.Force == nil || !*apply.PatchOptions.Force {
		t.Errorf("apply action carries patch options %+v, want FieldManager test and Force", apply.PatchOptions)
	}
	if !strings.Contains(string(apply.GetPatch()), `"applied":"1"`) {
		t.Errorf("apply patch %s does not carry the configuration", apply.GetPatch())
	}
	if dc := actions[9].(ktesting.DeleteCollectionActionImpl); dc.GetListRestrictions().Labels.String() != "app=x" {
		t.Errorf("delete-collection action restricts labels to %q, want app=x", dc.GetListRestrictions().Labels)
	}
}

func TestFakeClientStatusVerbsUseTheStatusSubresource(t *testing.T) {
	ctx := context.Background()
	fake, _ := newFake()
	deployments := fakeDeployments(fake, "apps")

	d := must(deployments.Create(ctx, gentypetest.Deployment("web"), metav1.CreateOptions{}))(t)
	d.Status.ObservedGeneration = 7
	d = must(deployments.UpdateStatus(ctx, d, metav1.UpdateOptions{}))(t)
	if d.Status.ObservedGeneration != 7 {
		t.Fatalf("UpdateStatus returned status %+v", d.Status)
	}
	applied := &gentypetest.ApplyConfig{APIVersion: "apps/v1", Kind: "Deployment", Metadata: gentypetest.ApplyMetadata{Name: &d.Name},
		Status: map[string]any{"collisionCount": 3}}
	d = must(deployments.ApplyStatus(ctx, applied, metav1.ApplyOptions{FieldManager: "status-writer"}))(t)
	if d.Status.CollisionCount == nil || *d.Status.CollisionCount != 3 {
		t.Fatalf("ApplyStatus returned status %+v", d.Status)
	}
	patched := must(deployments.Patch(ctx, "web", types.MergePatchType, []byte(`{"status":{"replicas":2}}`), metav1.PatchOptions{}, "status"))(t)
	if patched.Status.Replicas != 2 {
		t.Fatalf("status Patch returned status %+v", patched.Status)
	}

	want := []recorded{
		{"create", "apps", "deployments", ""},
		{"update", "apps", "deployments", "status"},
		{"patch", "apps", "deployments", "status"},
		{"patch", "apps", "deployments", "status"},
	}
	if got := recordedActions(fake); !slices.Equal(got, want) {
		t.Fatalf("recorded actions\n got %v\nwant %v", got, want)
	}
	if pt := fake.Actions()[2].(ktesting.PatchAction).GetPatchType(); pt != types.ApplyPatchType {
		t.Errorf("ApplyStatus recorded patch type %s", pt)
	}
}

func TestFakeClientListFiltersByLabelSelector(t *testing.T) {
	ctx := context.Background()
	objects := []runtime.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns", Labels: map[string]string{"app": "web", "tier": "front"}}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "ns", Labels: map[string]string{"app": "web"}}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns", Labels: map[string]string{"app": "db"}}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "ns"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "other", Labels: map[string]string{"app": "web"}}},
	}
	fake, _ := newFake(objects...)
	cms := fakeConfigMaps(fake, "ns")

	for _, tc := range []struct {
		selector string
		want     []string
	}{
		{"", []string{"a", "b", "c", "d"}},
		{"app=web", []string{"a", "b"}},
		{"app=web,tier=front", []string{"a"}},
		{"app in (web,db)", []string{"a", "b", "c"}},
		{"app!=web", []string{"c", "d"}},
		{"!app", []string{"d"}},
		{"!missing", []string{"a", "b", "c", "d"}},
		{"app=none", nil},
	} {
		list := must(cms.List(ctx, metav1.ListOptions{LabelSelector: tc.selector}))(t)
		got := names(gentypefake.ToPointerSlice(list.Items))
		slices.Sort(got)
		if !slices.Equal(got, tc.want) && (len(got) != 0 || len(tc.want) != 0) {
			t.Errorf("List(%q) = %v, want %v", tc.selector, got, tc.want)
		}
	}

	all := must(fakeConfigMaps(fake, metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: "app=web"}))(t)
	if got := names(gentypefake.ToPointerSlice(all.Items)); len(got) != 3 {
		t.Errorf("List across namespaces with app=web = %v, want a, b and e", got)
	}
	last := fake.Actions()[len(fake.Actions())-1].(ktesting.ListActionImpl)
	if last.GetNamespace() != "" || last.GetKind() != configMapGVK || last.GetListRestrictions().Labels.String() != "app=web" {
		t.Errorf("list action recorded namespace %q kind %v labels %q", last.GetNamespace(), last.GetKind(), last.GetListRestrictions().Labels)
	}
}

func TestFakeClientListKeepsListMetadataWhenFiltering(t *testing.T) {
	fake, _ := newFake()
	fake.PrependReactor("list", "configmaps", func(ktesting.Action) (bool, runtime.Object, error) {
		return true, &corev1.ConfigMapList{
			ListMeta: metav1.ListMeta{ResourceVersion: "42", Continue: "next"},
			Items: []corev1.ConfigMap{
				{ObjectMeta: metav1.ObjectMeta{Name: "keep", Labels: map[string]string{"k": "v"}}},
				{ObjectMeta: metav1.ObjectMeta{Name: "drop"}},
			},
		}, nil
	})
	list := must(fakeConfigMaps(fake, "ns").List(context.Background(), metav1.ListOptions{LabelSelector: "k=v"}))(t)
	if list.ResourceVersion != "42" || list.Continue != "next" {
		t.Errorf("filtered list lost its metadata: %+v", list.ListMeta)
	}
	if got := names(gentypefake.ToPointerSlice(list.Items)); !slices.Equal(got, []string{"keep"}) {
		t.Errorf("filtered list holds %v, want [keep]", got)
	}
}

func TestFakeClientRejectsMalformedSelectors(t *testing.T) {
	ctx := context.Background()
	fake, _ := newFake()
	cms := fakeConfigMaps(fake, "ns")
	bad := metav1.ListOptions{LabelSelector: "app in (web"}
	if _, err := cms.List(ctx, bad); !apierrors.IsBadRequest(err) {
		t.Errorf("List with a malformed label selector: err %v, want BadRequest", err)
	}
	if _, err := cms.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name"}); !apierrors.IsBadRequest(err) {
		t.Errorf("Watch with a malformed field selector: err %v, want BadRequest", err)
	}
	if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, bad); !apierrors.IsBadRequest(err) {
		t.Errorf("DeleteCollection with a malformed label selector: err %v, want BadRequest", err)
	}
}

func TestFakeClientApplyRejectsBadInputWithoutRecording(t *testing.T) {
	ctx := context.Background()
	fake, _ := newFake()
	cms := fakeConfigMaps(fake, "ns")
	opts := metav1.ApplyOptions{FieldManager: "test"}
	for name, call := range map[string]func() error{
		"nil configuration": func() error { _, err := cms.Apply(ctx, nil, opts); return err },
		"nil name":          func() error { _, err := cms.Apply(ctx, &gentypetest.ApplyConfig{}, opts); return err },
		"empty name":        func() error { _, err := cms.ApplyStatus(ctx, gentypetest.ConfigMapApply("", nil), opts); return err },
		"unencodable": func() error {
			unencodable := gentypetest.ConfigMapApply("a", nil)
			unencodable.Spec = map[string]any{"c": make(chan int)}
			_, err := cms.Apply(ctx, unencodable, opts)
			return err
		},
		"no field manager": func() error {
			_, err := cms.Apply(ctx, gentypetest.ConfigMapApply("a", nil), metav1.ApplyOptions{})
			return err
		},
	} {
		if err := call(); err == nil {
			t.Errorf("%s: Apply succeeded, want an error", name)
		}
	}
	if n := len(fake.Actions()); n != 0 {
		t.Errorf("rejected applies recorded %d actions", n)
	}
}

func TestFakeClientReactorResults(t *testing.T) {
	ctx := context.Background()
	fake, _ := newFake()
	fake.PrependReactor("get", "configmaps", func(ktesting.Action) (bool, runtime.Object, error) {
		return true, &corev1.Secret{}, nil
	})
	fake.PrependReactor("create", "configmaps", func(ktesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(configMapsGVR.GroupResource(), "x", nil)
	})
	cms := fakeConfigMaps(fake, "ns")

	got, err := cms.Get(ctx, "x", metav1.GetOptions{})
	if err == nil || !strings.Contains(err.Error(), "*v1.Secret") || got == nil {
		t.Errorf("Get with a reactor returning a Secret: (%v, %v), want an empty ConfigMap and a type error", got, err)
	}
	created, err := cms.Create(ctx, gentypetest.ConfigMap("x", nil, nil), metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) || created == nil || created.Name != "" {
		t.Errorf("Create with a failing reactor: (%v, %v), want an empty ConfigMap and Forbidden", created, err)
	}

	unhandled := &ktesting.Fake{}
	empty := must(fakeConfigMaps(unhandled, "ns").Get(ctx, "x", metav1.GetOptions{}))(t)
	if empty == nil || empty.Name != "" {
		t.Errorf("Get without reactors returned %v, want the empty object", empty)
	}
}

func TestFakeClientClusterScoped(t *testing.T) {
	ctx := context.Background()
	fake, _ := newFake()
	namespaces := fakeNamespaces(fake)
	for _, name := range []string{"a", "b"} {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"name": name}}}
		must(namespaces.Create(ctx, ns, metav1.CreateOptions{}))(t)
	}
	list := must(namespaces.List(ctx, metav1.ListOptions{LabelSelector: "name=b"}))(t)
	if got := names(gentypefake.ToPointerSlice(list.Items)); !slices.Equal(got, []string{"b"}) {
		t.Errorf("List(name=b) = %v", got)
	}
	if err := namespaces.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, a := range fake.Actions() {
		if a.GetNamespace() != "" {
			t.Errorf("cluster-scoped %s action recorded namespace %q", a.GetVerb(), a.GetNamespace())
		}
	}
	if namespaces.Namespace() != "" || namespaces.Resource() != namespacesGVR || namespaces.Kind() != namespaceGVK {
		t.Errorf("accessors: %q %v %v", namespaces.Namespace(), namespaces.Resource(), namespaces.Kind())
	}
}

func TestFakeClientWatch(t *testing.T) {
	ctx := context.Background()
	fake, _ := newFake()
	cms := fakeConfigMaps(fake, "ns")
	w := must(cms.Watch(ctx, metav1.ListOptions{LabelSelector: "app=web"}))(t)
	defer w.Stop()

	must(cms.Create(ctx, gentypetest.ConfigMap("a", map[string]string{"app": "web"}, nil), metav1.CreateOptions{}))(t)
	select {
	case ev := <-w.ResultChan():
		if cm, ok := ev.Object.(*corev1.ConfigMap); ev.Type != watch.Added || !ok || cm.Name != "a" {
			t.Errorf("watch event %v %T, want ADDED ConfigMap a", ev.Type, ev.Object)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event after Create")
	}
	wa := fake.Actions()[0].(ktesting.WatchActionImpl)
	if wa.GetVerb() != "watch" || wa.GetNamespace() != "ns" || wa.GetWatchRestrictions().Labels.String() != "app=web" {
		t.Errorf("watch action recorded %s in %q with labels %q", wa.GetVerb(), wa.GetNamespace(), wa.GetWatchRestrictions().Labels)
	}
}

func TestFakeClientWithoutListOrApply(t *testing.T) {
	ctx := context.Background()
	fake, _ := newFake()
	plain := gentypefake.NewFakeClient(fake, "ns", configMapsGVR, configMapGVK, gentypetest.NewConfigMap)
	must(plain.Create(ctx, gentypetest.ConfigMap("a", nil, nil), metav1.CreateOptions{}))(t)
	must(plain.Get(ctx, "a", metav1.GetOptions{}))(t)

	withApply := gentypefake.NewFakeClientWithApply[*corev1.ConfigMap, *gentypetest.ApplyConfig](fake, "ns", configMapsGVR, configMapGVK, gentypetest.NewConfigMap)
	got := must(withApply.Apply(ctx, gentypetest.ConfigMapApply("a", map[string]string{"x": "y"}), metav1.ApplyOptions{FieldManager: "m"}))(t)
	if got.Data["x"] != "y" {
		t.Errorf("Apply returned data %v", got.Data)
	}
	if _, err := withApply.ApplyStatus(ctx, nil, metav1.ApplyOptions{FieldManager: "m"}); err == nil {
		t.Error("ApplyStatus(nil) succeeded")
	}
}

func TestPointerSlices(t *testing.T) {
	if gentypefake.ToPointerSlice[int](nil) != nil || gentypefake.FromPointerSlice[int](nil) != nil {
		t.Error("nil slices do not stay nil")
	}
	if got := gentypefake.ToPointerSlice([]int{}); got == nil || len(got) != 0 {
		t.Errorf("ToPointerSlice(empty) = %#v, want an empty non-nil slice", got)
	}
	src := []int{1, 2, 3}
	ptrs := gentypefake.ToPointerSlice(src)
	*ptrs[1] = 20
	if src[1] != 20 {
		t.Error("ToPointerSlice does not point into its input")
	}
	back := gentypefake.FromPointerSlice(ptrs)
	back[0] = 10
	if !slices.Equal(back, []int{10, 20, 3}) || src[0] != 1 {
		t.Errorf("FromPointerSlice = %v (input %v), want copies", back, src)
	}
}
