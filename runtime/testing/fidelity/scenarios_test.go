package fidelity_test

import (
	"context"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

var scenarios = []scenario{
	{
		name: "create assigns system fields",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			if cm := mustCreate(ctx, b, ns, configMap("a", nil), f); cm != nil {
				f.add("uid", cm.UID != "")
				f.add("rv", cm.ResourceVersion != "")
				f.add("created", !cm.CreationTimestamp.IsZero())
				f.add("generation", cm.Generation)
				f.add("namespace", cm.Namespace == ns)
			}
			return f.String()
		},
		want: "uid=true rv=true created=true generation=0 namespace=true",
	},
	{
		name: "get returns the stored object",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			got := &corev1.ConfigMap{}
			f.add("get", errFact(b.get(ctx, "configmaps", ns, "a", got)))
			f.add("sameRV", got.ResourceVersion == cm.ResourceVersion)
			f.add("sameUID", got.UID == cm.UID)
			f.add("data", got.Data)
		}),
		want: "get=ok sameRV=true sameUID=true data=map[k:v]",
	},
	{
		name: "update bumps resourceVersion and keeps identity",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			in := cm.DeepCopy()
			in.Data["k"] = "w"
			in.CreationTimestamp = metav1.Time{}
			out := &corev1.ConfigMap{}
			f.add("update", errFact(b.update(ctx, "configmaps", "", ns, in, out)))
			f.add("rvChanged", out.ResourceVersion != cm.ResourceVersion)
			f.add("uidSame", out.UID == cm.UID)
			f.add("createdSame", out.CreationTimestamp.Equal(&cm.CreationTimestamp))
			f.add("data", out.Data)
		}),
		want: "update=ok rvChanged=true uidSame=true createdSame=true data=map[k:w]",
	},
	{
		name: "update with a stale resourceVersion conflicts",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			first := cm.DeepCopy()
			first.Data["k"] = "1"
			f.add("first", errFact(b.update(ctx, "configmaps", "", ns, first, &corev1.ConfigMap{})))
			stale := cm.DeepCopy()
			stale.Data["k"] = "2"
			f.add("stale", errFact(b.update(ctx, "configmaps", "", ns, stale, &corev1.ConfigMap{})))
		}),
		want: "first=ok stale=409/Conflict(configmaps a)",
	},
	{
		name: "update without resourceVersion is unconditional",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			in := cm.DeepCopy()
			in.ResourceVersion = ""
			in.Data["k"] = "x"
			out := &corev1.ConfigMap{}
			f.add("update", errFact(b.update(ctx, "configmaps", "", ns, in, out)))
			f.add("data", out.Data)
		}),
		want: "update=ok data=map[k:x]",
	},
	{
		name: "update with another uid conflicts",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			in := cm.DeepCopy()
			in.UID = types.UID("00000000-0000-0000-0000-000000000000")
			f.add("update", errFact(b.update(ctx, "configmaps", "", ns, in, &corev1.ConfigMap{})))
		}),
		want: "update=409/Conflict(configmaps a)",
	},
	{
		name: "no-op update keeps resourceVersion",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			out := &corev1.ConfigMap{}
			f.add("update", errFact(b.update(ctx, "configmaps", "", ns, cm.DeepCopy(), out)))
			f.add("rvSame", out.ResourceVersion == cm.ResourceVersion)
		}),
		want: "update=ok rvSame=true",
	},
	{
		name: "create of a taken name",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, _ *corev1.ConfigMap, f *facts) {
			f.add("again", errFact(b.create(ctx, "configmaps", ns, configMap("a", nil), metav1.CreateOptions{}, &corev1.ConfigMap{})))
		}),
		want: "again=409/AlreadyExists(configmaps a)",
	},
	{
		name: "missing objects are NotFound for get, update, patch and delete",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			f.add("get", errFact(b.get(ctx, "configmaps", ns, "missing", &corev1.ConfigMap{})))
			missing := configMap("missing", nil)
			missing.Namespace = ns
			f.add("update", errFact(b.update(ctx, "configmaps", "", ns, missing, &corev1.ConfigMap{})))
			f.add("patch", errFact(b.patch(ctx, "configmaps", "", ns, "missing", types.MergePatchType, []byte(`{}`), metav1.PatchOptions{}, &corev1.ConfigMap{})))
			f.add("delete", errFact(b.delete(ctx, "configmaps", ns, "missing", metav1.DeleteOptions{})))
			return f.String()
		},
		want: "get=404/NotFound(configmaps missing) update=404/NotFound(configmaps missing) patch=404/NotFound(configmaps missing) delete=404/NotFound(configmaps missing)",
	},
	{
		name: "generateName",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := configMap("", nil)
			in.GenerateName = "gen-"
			if cm := mustCreate(ctx, b, ns, in, f); cm != nil {
				f.add("prefix", strings.HasPrefix(cm.Name, "gen-"))
				f.add("suffix", len(cm.Name)-len("gen-"))
				f.add("generateName", cm.GenerateName)
			}
			return f.String()
		},
		want: "prefix=true suffix=5 generateName=gen-",
	},
	{
		name: "create without a name is invalid",
		run: func(ctx context.Context, b backend, ns string) string {
			err := b.create(ctx, "configmaps", ns, configMap("", nil), metav1.CreateOptions{}, &corev1.ConfigMap{})
			return errFact(err)
		},
		want: "422/Invalid(ConfigMap )",
	},
	{
		name: "create in another namespace than the object's",
		run: func(ctx context.Context, b backend, ns string) string {
			in := configMap("a", nil)
			in.Namespace = "elsewhere"
			return errFact(b.create(ctx, "configmaps", ns, in, metav1.CreateOptions{}, &corev1.ConfigMap{}))
		},
		want: "400/BadRequest",
	},
	{
		name: "dry-run create does not persist",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			out := &corev1.ConfigMap{}
			f.add("create", errFact(b.create(ctx, "configmaps", ns, configMap("dry", nil), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}, out)))
			f.add("name", out.Name)
			f.add("get", errFact(b.get(ctx, "configmaps", ns, "dry", &corev1.ConfigMap{})))
			return f.String()
		},
		want: "create=ok name=dry get=404/NotFound(configmaps dry)",
	},
	{
		name: "pod generation follows spec changes only",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			p := mustCreatePod(ctx, b, ns, newPod("p", "c"), f)
			if p == nil {
				return f.String()
			}
			f.add("created", p.Generation)
			p.Labels = map[string]string{"x": "y"}
			f.add("labels", errFact(b.update(ctx, "pods", "", ns, p, p)))
			f.add("afterLabels", p.Generation)
			p.Spec.Containers[0].Image = "nginx"
			f.add("image", errFact(b.update(ctx, "pods", "", ns, p, p)))
			f.add("afterImage", p.Generation)
			return f.String()
		},
		want: "created=1 labels=ok afterLabels=1 image=ok afterImage=2",
	},
	{
		name: "status subresource is separated from the main resource",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			p := mustCreatePod(ctx, b, ns, newPod("p", "c"), f)
			if p == nil {
				return f.String()
			}
			phase := p.Status.Phase
			main := p.DeepCopy()
			main.Status.Phase = corev1.PodFailed
			main.Spec.Containers[0].Image = "nginx"
			f.add("main", errFact(b.update(ctx, "pods", "", ns, main, p)))
			f.add("phaseKept", p.Status.Phase == phase)
			f.add("image", p.Spec.Containers[0].Image)
			status := p.DeepCopy()
			status.Status.Phase = corev1.PodRunning
			status.Spec.Containers[0].Image = "ignored"
			f.add("status", errFact(b.update(ctx, "pods", "status", ns, status, p)))
			f.add("phase", p.Status.Phase)
			f.add("imageKept", p.Spec.Containers[0].Image)
			f.add("generation", p.Generation)
			return f.String()
		},
		want: "main=ok phaseKept=true image=nginx status=ok phase=Running imageKept=nginx generation=2",
	},
	{
		name: "status patch changes only status",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			if p := mustCreatePod(ctx, b, ns, newPod("p", "c"), f); p == nil {
				return f.String()
			}
			out := &corev1.Pod{}
			f.add("patch", errFact(b.patch(ctx, "pods", "status", ns, "p", types.MergePatchType,
				[]byte(`{"status":{"phase":"Running"},"spec":{"activeDeadlineSeconds":5}}`), metav1.PatchOptions{}, out)))
			f.add("phase", out.Status.Phase)
			f.add("deadline", out.Spec.ActiveDeadlineSeconds != nil)
			return f.String()
		},
		want: "patch=ok phase=Running deadline=false",
	},
	{
		name: "label selectors on list",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			for name, app := range map[string]string{"a": "web", "b": "db", "c": "web", "d": ""} {
				cm := configMap(name, nil)
				if app != "" {
					cm.Labels = map[string]string{"app": app}
				}
				mustCreate(ctx, b, ns, cm, f)
			}
			for _, sel := range []string{"app=web", "app!=web", "app", "!app", "app in (db,web)"} {
				list := &corev1.ConfigMapList{}
				if err := b.list(ctx, "configmaps", ns, metav1.ListOptions{LabelSelector: sel}, list); err != nil {
					f.add(sel, errFact(err))
					continue
				}
				f.add(sel, names(list))
			}
			return f.String()
		},
		want: "app=web=[a,c] app!=web=[b,d] app=[a,b,c] !app=[d] app in (db,web)=[a,b,c]",
	},
	{
		name: "field selectors on list",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			mustCreate(ctx, b, ns, configMap("a", nil), f)
			mustCreate(ctx, b, ns, configMap("b", nil), f)
			for _, sel := range []string{"metadata.name=a", "metadata.name!=a", "metadata.namespace=" + ns, "metadata.namespace=other"} {
				list := &corev1.ConfigMapList{}
				if err := b.list(ctx, "configmaps", ns, metav1.ListOptions{FieldSelector: sel}, list); err != nil {
					f.add(strings.ReplaceAll(sel, ns, "NS"), errFact(err))
					continue
				}
				f.add(strings.ReplaceAll(sel, ns, "NS"), names(list))
			}
			return f.String()
		},
		want: "metadata.name=a=[a] metadata.name!=a=[b] metadata.namespace=NS=[a,b] metadata.namespace=other=[]",
	},
	{
		name: "invalid label selector",
		run: func(ctx context.Context, b backend, ns string) string {
			return errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{LabelSelector: "app in ("}, &corev1.ConfigMapList{}))
		},
		want: "400/BadRequest",
	},
	{
		name: "list pages with limit and continue",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			for _, n := range []string{"a", "b", "c"} {
				mustCreate(ctx, b, ns, configMap(n, nil), f)
			}
			first := &corev1.ConfigMapList{}
			f.add("first", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{Limit: 2}, first)))
			f.add("items", names(first))
			f.add("continue", first.Continue != "")
			second := &corev1.ConfigMapList{}
			f.add("second", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{Limit: 2, Continue: first.Continue}, second)))
			f.add("items", names(second))
			f.add("continue", second.Continue != "")
			return f.String()
		},
		want: "first=ok items=[a,b] continue=true second=ok items=[c] continue=false",
	},
	{
		name: "delete-collection with a label selector",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			for _, n := range []string{"keep", "drop1", "drop2"} {
				cm := configMap(n, nil)
				if strings.HasPrefix(n, "drop") {
					cm.Labels = map[string]string{"drop": "yes"}
				}
				mustCreate(ctx, b, ns, cm, f)
			}
			f.add("delete", errFact(b.deleteCollection(ctx, "configmaps", ns, metav1.ListOptions{LabelSelector: "drop=yes"})))
			list := &corev1.ConfigMapList{}
			f.add("list", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{}, list)))
			f.add("left", names(list))
			return f.String()
		},
		want: "delete=ok list=ok left=[keep]",
	},
	{
		name: "finalizers hold deletion until the last one is removed",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := configMap("f", nil)
			in.Finalizers = []string{"example.com/a", "example.com/b"}
			if mustCreate(ctx, b, ns, in, f) == nil {
				return f.String()
			}
			f.add("delete", errFact(b.delete(ctx, "configmaps", ns, "f", metav1.DeleteOptions{})))
			cm := &corev1.ConfigMap{}
			f.add("get", errFact(b.get(ctx, "configmaps", ns, "f", cm)))
			f.add("marked", cm.DeletionTimestamp != nil)
			add := cm.DeepCopy()
			add.Finalizers = append(add.Finalizers, "example.com/c")
			f.add("addFinalizer", errFact(b.update(ctx, "configmaps", "", ns, add, &corev1.ConfigMap{})))
			cm.Finalizers = []string{"example.com/b"}
			f.add("removeOne", errFact(b.update(ctx, "configmaps", "", ns, cm, cm)))
			f.add("stillThere", errFact(b.get(ctx, "configmaps", ns, "f", &corev1.ConfigMap{})))
			cm.Finalizers = nil
			f.add("removeLast", errFact(b.update(ctx, "configmaps", "", ns, cm, &corev1.ConfigMap{})))
			f.add("gone", errFact(b.get(ctx, "configmaps", ns, "f", &corev1.ConfigMap{})))
			return f.String()
		},
		want: "delete=ok get=ok marked=true addFinalizer=422/Invalid(ConfigMap f) removeOne=ok stillThere=ok removeLast=ok gone=404/NotFound(configmaps f)",
	},
	{
		name: "delete preconditions",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			wrong := types.UID("00000000-0000-0000-0000-000000000000")
			f.add("uid", errFact(b.delete(ctx, "configmaps", ns, "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &wrong}})))
			stale := cm.ResourceVersion + "0"
			f.add("rv", errFact(b.delete(ctx, "configmaps", ns, "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &stale}})))
			f.add("match", errFact(b.delete(ctx, "configmaps", ns, "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &cm.UID, ResourceVersion: &cm.ResourceVersion}})))
		}),
		want: "uid=409/Conflict(ConfigMap a) rv=409/Conflict(ConfigMap a) match=ok",
	},
	{
		name: "merge patch",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, _ *corev1.ConfigMap, f *facts) {
			out := &corev1.ConfigMap{}
			f.add("patch", errFact(b.patch(ctx, "configmaps", "", ns, "a", types.MergePatchType,
				[]byte(`{"data":{"k":null,"n":"1"},"metadata":{"labels":{"l":"x"}}}`), metav1.PatchOptions{}, out)))
			f.add("data", out.Data)
			f.add("labels", out.Labels)
		}),
		want: "patch=ok data=map[n:1] labels=map[l:x]",
	},
	{
		name: "JSON patch",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, _ *corev1.ConfigMap, f *facts) {
			out := &corev1.ConfigMap{}
			f.add("patch", errFact(b.patch(ctx, "configmaps", "", ns, "a", types.JSONPatchType,
				[]byte(`[{"op":"test","path":"/data/k","value":"v"},{"op":"add","path":"/data/j","value":"2"}]`), metav1.PatchOptions{}, out)))
			f.add("data", out.Data)
			f.add("failedTest", errFact(b.patch(ctx, "configmaps", "", ns, "a", types.JSONPatchType,
				[]byte(`[{"op":"test","path":"/data/k","value":"nope"}]`), metav1.PatchOptions{}, &corev1.ConfigMap{})))
		}),
		want: "patch=ok data=map[j:2 k:v] failedTest=422/Invalid",
	},
	{
		name: "strategic merge patch merges containers by name",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			if mustCreatePod(ctx, b, ns, newPod("p", "c1", "c2"), f) == nil {
				return f.String()
			}
			out := &corev1.Pod{}
			f.add("patch", errFact(b.patch(ctx, "pods", "", ns, "p", types.StrategicMergePatchType,
				[]byte(`{"spec":{"containers":[{"name":"c2","image":"nginx"}]}}`), metav1.PatchOptions{}, out)))
			var cs []string
			for _, c := range out.Spec.Containers {
				cs = append(cs, c.Name+":"+c.Image)
			}
			f.add("containers", strings.Join(cs, ","))
			f.add("generation", out.Generation)
			return f.String()
		},
		want: "patch=ok containers=c1:busybox,c2:nginx generation=2",
	},
	{
		name: "patch with a stale resourceVersion conflicts",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			patch := `{"metadata":{"resourceVersion":"` + cm.ResourceVersion + `0"},"data":{"k":"x"}}`
			f.add("patch", errFact(b.patch(ctx, "configmaps", "", ns, "a", types.MergePatchType, []byte(patch), metav1.PatchOptions{}, &corev1.ConfigMap{})))
		}),
		want: "patch=409/Conflict(configmaps a)",
	},
	{
		name: "server-side apply owns fields and reports conflicts",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			apply := func(manager, body string, force bool) (*corev1.ConfigMap, string) {
				out := &corev1.ConfigMap{}
				err := b.patch(ctx, "configmaps", "", ns, "s", types.ApplyYAMLPatchType,
					[]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s"},"data":`+body+`}`),
					metav1.PatchOptions{FieldManager: manager, Force: &force}, out)
				return out, errFact(err)
			}
			out, e := apply("alice", `{"a":"1","b":"2"}`, false)
			f.add("create", e)
			f.add("managers", managers(out))
			_, e = apply("bob", `{"a":"other"}`, false)
			f.add("conflict", e)
			out, e = apply("bob", `{"a":"other"}`, true)
			f.add("force", e)
			f.add("data", out.Data)
			out, e = apply("alice", `{}`, false)
			f.add("release", e)
			f.add("data", out.Data)
			f.add("managers", managers(out))
			return f.String()
		},
		want: "create=ok managers=[alice:Apply] conflict=409/Conflict force=ok data=map[a:other b:2] release=ok data=map[a:other] managers=[alice:Apply,bob:Apply]",
	},
	{
		name: "server-side apply requires a field manager",
		run: func(ctx context.Context, b backend, ns string) string {
			err := b.patch(ctx, "configmaps", "", ns, "s", types.ApplyYAMLPatchType,
				[]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s"}}`), metav1.PatchOptions{}, &corev1.ConfigMap{})
			return errFact(err)
		},
		want: "422/Invalid(PatchOptions.meta.k8s.io )",
	},
	{
		name: "list then watch from its resourceVersion loses nothing",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, _ *corev1.ConfigMap, f *facts) {
			list := &corev1.ConfigMapList{}
			if err := b.list(ctx, "configmaps", ns, metav1.ListOptions{}, list); err != nil {
				f.add("list", errFact(err))
				return
			}
			bcm := mustCreate(ctx, b, ns, configMap("b", nil), f)
			if bcm == nil {
				return
			}
			bcm.Data = map[string]string{"x": "y"}
			f.add("update", errFact(b.update(ctx, "configmaps", "", ns, bcm, bcm)))
			f.add("delete", errFact(b.delete(ctx, "configmaps", ns, "a", metav1.DeleteOptions{})))
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
			if err != nil {
				f.add("watch", errFact(err))
				return
			}
			f.add("events", collect(w, 3, false))
		}),
		want: "update=ok delete=ok events=ADDED:b,MODIFIED:b,DELETED:a",
	},
	{
		name: "watch without resourceVersion starts with the current objects",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			mustCreate(ctx, b, ns, configMap("a", nil), f)
			mustCreate(ctx, b, ns, configMap("b", nil), f)
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{})
			if err != nil {
				return errFact(err)
			}
			f.add("events", collect(w, 2, true))
			return f.String()
		},
		want: "events=ADDED:a,ADDED:b",
	},
	{
		name: "watch with a label selector sees objects enter and leave",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{LabelSelector: "app=web", ResourceVersion: cm.ResourceVersion})
			if err != nil {
				f.add("watch", errFact(err))
				return
			}
			mustCreate(ctx, b, ns, configMap("unlabelled", nil), f)
			cm.Labels = map[string]string{"app": "web"}
			f.add("enter", errFact(b.update(ctx, "configmaps", "", ns, cm, cm)))
			cm.Data = map[string]string{"k": "changed"}
			f.add("change", errFact(b.update(ctx, "configmaps", "", ns, cm, cm)))
			cm.Labels = nil
			f.add("leave", errFact(b.update(ctx, "configmaps", "", ns, cm, cm)))
			f.add("delete", errFact(b.delete(ctx, "configmaps", ns, "a", metav1.DeleteOptions{})))
			f.add("events", collect(w, 3, false))
		}),
		want: "enter=ok change=ok leave=ok delete=ok events=ADDED:a,MODIFIED:a,DELETED:a",
	},
	{
		name: "watch with a field selector",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{FieldSelector: "metadata.name=target", ResourceVersion: cm.ResourceVersion})
			if err != nil {
				f.add("watch", errFact(err))
				return
			}
			mustCreate(ctx, b, ns, configMap("decoy", nil), f)
			mustCreate(ctx, b, ns, configMap("target", nil), f)
			f.add("events", collect(w, 1, false))
		}),
		want: "events=ADDED:target",
	},
	{
		name: "watch sees the finalizer lifecycle",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := configMap("f", nil)
			in.Finalizers = []string{"example.com/x"}
			cm := mustCreate(ctx, b, ns, in, f)
			if cm == nil {
				return f.String()
			}
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{ResourceVersion: cm.ResourceVersion})
			if err != nil {
				return errFact(err)
			}
			f.add("delete", errFact(b.delete(ctx, "configmaps", ns, "f", metav1.DeleteOptions{})))
			f.add("get", errFact(b.get(ctx, "configmaps", ns, "f", cm)))
			cm.Finalizers = nil
			f.add("release", errFact(b.update(ctx, "configmaps", "", ns, cm, &corev1.ConfigMap{})))
			f.add("events", collect(w, 2, false))
			return f.String()
		},
		want: "delete=ok get=ok release=ok events=MODIFIED:f(deleting),DELETED:f",
	},
	{
		name: "streaming list ends its initial events with a bookmark",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			mustCreate(ctx, b, ns, configMap("a", nil), f)
			mustCreate(ctx, b, ns, configMap("b", nil), f)
			yes := true
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{
				SendInitialEvents:    &yes,
				ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
				AllowWatchBookmarks:  true,
			})
			if err != nil {
				return errFact(err)
			}
			f.add("events", collect(w, 3, false))
			return f.String()
		},
		want: "events=ADDED:a,ADDED:b,BOOKMARK:end=true",
	},
	{
		name: "create with a resourceVersion",
		run: func(ctx context.Context, b backend, ns string) string {
			in := configMap("a", nil)
			in.ResourceVersion = "12345"
			return errFact(b.create(ctx, "configmaps", ns, in, metav1.CreateOptions{}, &corev1.ConfigMap{}))
		},
		want: "500/",
	},
	{
		name: "client-set generation of a spec-less object",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := configMap("a", nil)
			in.Generation = 7
			if cm := mustCreate(ctx, b, ns, in, f); cm != nil {
				f.add("generation", cm.Generation)
			}
			return f.String()
		},
		want: "generation=7",
	},
	{
		name: "pod deletion with a finalizer bumps generation",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := newPod("p", "c")
			in.Finalizers = []string{"example.com/x"}
			if mustCreatePod(ctx, b, ns, in, f) == nil {
				return f.String()
			}
			f.add("delete", errFact(b.delete(ctx, "pods", ns, "p", metav1.DeleteOptions{})))
			p := &corev1.Pod{}
			f.add("get", errFact(b.get(ctx, "pods", ns, "p", p)))
			f.add("generation", p.Generation)
			f.add("marked", p.DeletionTimestamp != nil)
			p.Finalizers = nil
			f.add("release", errFact(b.update(ctx, "pods", "", ns, p, &corev1.Pod{})))
			f.add("gone", errFact(b.get(ctx, "pods", ns, "p", &corev1.Pod{})))
			return f.String()
		},
		want: "delete=ok get=ok generation=2 marked=true release=ok gone=404/NotFound(pods p)",
	},
	{
		name: "status of a resource without a status subresource",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) {
			f.add("update", errFact(b.update(ctx, "configmaps", "status", ns, cm, &corev1.ConfigMap{})))
		}),
		want: "update=404/NotFound",
	},
	{
		name: "patch renaming the object",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, _ *corev1.ConfigMap, f *facts) {
			f.add("patch", errFact(b.patch(ctx, "configmaps", "", ns, "a", types.MergePatchType, []byte(`{"metadata":{"name":"b"}}`), metav1.PatchOptions{}, &corev1.ConfigMap{})))
		}),
		want: "patch=400/BadRequest",
	},
	{
		name: "malformed patches",
		run: withConfigMap(func(ctx context.Context, b backend, ns string, _ *corev1.ConfigMap, f *facts) {
			for _, pt := range []types.PatchType{types.JSONPatchType, types.MergePatchType, types.StrategicMergePatchType} {
				f.add(string(pt), errFact(b.patch(ctx, "configmaps", "", ns, "a", pt, []byte(`{not json`), metav1.PatchOptions{}, &corev1.ConfigMap{})))
			}
		}),
		want: "application/json-patch+json=400/BadRequest application/merge-patch+json=400/BadRequest application/strategic-merge-patch+json=400/BadRequest",
	},
	{
		name: "watch without resourceVersion honours the label selector",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			for _, n := range []string{"a", "b"} {
				cm := configMap(n, nil)
				if n == "b" {
					cm.Labels = map[string]string{"app": "web"}
				}
				mustCreate(ctx, b, ns, cm, f)
			}
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{LabelSelector: "app=web"})
			if err != nil {
				return errFact(err)
			}
			f.add("events", collect(w, 1, false))
			return f.String()
		},
		want: "events=ADDED:b",
	},
	{
		name: "second delete of an object being deleted changes nothing",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := configMap("f", nil)
			in.Finalizers = []string{"example.com/x"}
			if mustCreate(ctx, b, ns, in, f) == nil {
				return f.String()
			}
			first, second := &corev1.ConfigMap{}, &corev1.ConfigMap{}
			f.add("delete1", errFact(b.delete(ctx, "configmaps", ns, "f", metav1.DeleteOptions{})))
			f.add("get1", errFact(b.get(ctx, "configmaps", ns, "f", first)))
			f.add("delete2", errFact(b.delete(ctx, "configmaps", ns, "f", metav1.DeleteOptions{})))
			f.add("get2", errFact(b.get(ctx, "configmaps", ns, "f", second)))
			f.add("sameRV", first.ResourceVersion == second.ResourceVersion)
			second.Finalizers = nil
			f.add("release", errFact(b.update(ctx, "configmaps", "", ns, second, &corev1.ConfigMap{})))
			return f.String()
		},
		want: "delete1=ok get1=ok delete2=ok get2=ok sameRV=true release=ok",
	},
	{
		name: "deployment generation and status",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			labels := map[string]string{"app": "d"}
			in := &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: "d"},
				Spec: appsv1.DeploymentSpec{
					Selector: &metav1.LabelSelector{MatchLabels: labels},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: labels},
						Spec:       newPod("", "c").Spec,
					},
				},
				Status: appsv1.DeploymentStatus{Replicas: 5},
			}
			d := &appsv1.Deployment{}
			f.add("create", errFact(b.create(ctx, "deployments", ns, in, metav1.CreateOptions{}, d)))
			f.add("generation", d.Generation)
			f.add("statusReplicas", d.Status.Replicas)
			d.Status.ObservedGeneration = 1
			d.Status.Replicas = 1
			d.Labels = map[string]string{"via": "status"}
			f.add("status", errFact(b.update(ctx, "deployments", "status", ns, d, d)))
			f.add("generation", d.Generation)
			f.add("observed", d.Status.ObservedGeneration)
			f.add("labels", d.Labels)
			d.Labels = map[string]string{"x": "y"}
			f.add("labels", errFact(b.update(ctx, "deployments", "", ns, d, d)))
			f.add("generation", d.Generation)
			d.Annotations = map[string]string{"note": "1"}
			f.add("annotations", errFact(b.update(ctx, "deployments", "", ns, d, d)))
			f.add("generation", d.Generation)
			f.add("patch", errFact(b.patch(ctx, "deployments", "", ns, "d", types.MergePatchType, []byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{}, d)))
			f.add("generation", d.Generation)
			f.add("statusReplicas", d.Status.Replicas)
			return f.String()
		},
		want: "create=ok generation=1 statusReplicas=0 status=ok generation=1 observed=1 labels=map[] labels=ok generation=1 annotations=ok generation=2 patch=ok generation=3 statusReplicas=1",
	},
	{
		name: "server-side apply of pod status",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			if mustCreatePod(ctx, b, ns, newPod("p", "c"), f) == nil {
				return f.String()
			}
			force := true
			out := &corev1.Pod{}
			f.add("apply", errFact(b.patch(ctx, "pods", "status", ns, "p", types.ApplyYAMLPatchType,
				[]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"status":{"phase":"Running"}}`),
				metav1.PatchOptions{FieldManager: "kubelet", Force: &force}, out)))
			f.add("phase", out.Status.Phase)
			var subs []string
			for _, m := range out.ManagedFields {
				if m.Manager == "kubelet" {
					subs = append(subs, string(m.Operation)+"/"+m.Subresource)
				}
			}
			f.add("kubelet", subs)
			return f.String()
		},
		want: "apply=ok phase=Running kubelet=[Apply/status]",
	},
	{
		name: "status updates of built-in types keep metadata changes",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			p := mustCreatePod(ctx, b, ns, newPod("p", "c"), f)
			if p == nil {
				return f.String()
			}
			p.Labels = map[string]string{"via": "status"}
			p.Annotations = map[string]string{"a": "1"}
			p.Status.Phase = corev1.PodRunning
			f.add("status", errFact(b.update(ctx, "pods", "status", ns, p, p)))
			f.add("labels", p.Labels)
			f.add("annotations", p.Annotations)
			f.add("generation", p.Generation)
			return f.String()
		},
		want: "status=ok labels=map[via:status] annotations=map[a:1] generation=1",
	},
	{
		name: "field selectors the server does not support",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			mustCreate(ctx, b, ns, configMap("a", map[string]string{"k": "v"}), f)
			f.add("configmapData", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{FieldSelector: "data.k=v"}, &corev1.ConfigMapList{})))
			_, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{FieldSelector: "data.k=v"})
			f.add("watch", errFact(err))
			secrets := &corev1.SecretList{}
			f.add("secretType", errFact(b.list(ctx, "secrets", ns, metav1.ListOptions{FieldSelector: "type=Opaque"}, secrets)))
			pods := &corev1.PodList{}
			f.add("podNode", errFact(b.list(ctx, "pods", ns, metav1.ListOptions{FieldSelector: "spec.nodeName=n1,status.phase!=Failed"}, pods)))
			f.add("podImage", errFact(b.list(ctx, "pods", ns, metav1.ListOptions{FieldSelector: "spec.containers=x"}, pods)))
			return f.String()
		},
		want: "configmapData=400/BadRequest watch=400/BadRequest secretType=ok podNode=ok podImage=400/BadRequest",
	},
	{
		name: "secrets: stringData and default type",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s"}, StringData: map[string]string{"user": "admin"}, Data: map[string][]byte{"k": []byte("v")}}
			out := &corev1.Secret{}
			f.add("create", errFact(b.create(ctx, "secrets", ns, in, metav1.CreateOptions{}, out)))
			f.add("type", out.Type)
			f.add("data", len(out.Data))
			f.add("user", string(out.Data["user"]))
			f.add("stringData", len(out.StringData))
			out.StringData = map[string]string{"user": "root"}
			f.add("update", errFact(b.update(ctx, "secrets", "", ns, out, out)))
			f.add("user", string(out.Data["user"]))
			f.add("stringData", len(out.StringData))
			return f.String()
		},
		want: "create=ok type=Opaque data=2 user=admin stringData=0 update=ok user=root stringData=0",
	},
	{
		name: "pages and exact lists read a consistent snapshot",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			for _, n := range []string{"a", "b", "c"} {
				mustCreate(ctx, b, ns, configMap(n, map[string]string{"v": "1"}), f)
			}
			before := &corev1.ConfigMapList{}
			f.add("list", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{}, before)))
			page1 := &corev1.ConfigMapList{}
			f.add("page1", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{Limit: 2}, page1)))
			mustCreate(ctx, b, ns, configMap("d", nil), f)
			f.add("patch", errFact(b.patch(ctx, "configmaps", "", ns, "c", types.MergePatchType, []byte(`{"data":{"v":"2"}}`), metav1.PatchOptions{}, &corev1.ConfigMap{})))
			f.add("delete", errFact(b.delete(ctx, "configmaps", ns, "b", metav1.DeleteOptions{})))
			page2 := &corev1.ConfigMapList{}
			f.add("page2", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{Limit: 2, Continue: page1.Continue}, page2)))
			f.add("items", namesAndValues(page2))
			f.add("sameRV", page2.ResourceVersion == page1.ResourceVersion)
			exact := &corev1.ConfigMapList{}
			f.add("exact", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{ResourceVersion: before.ResourceVersion, ResourceVersionMatch: metav1.ResourceVersionMatchExact}, exact)))
			f.add("items", namesAndValues(exact))
			now := &corev1.ConfigMapList{}
			f.add("now", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{}, now)))
			f.add("items", namesAndValues(now))
			return f.String()
		},
		want: "list=ok page1=ok patch=ok delete=ok page2=ok items=[c=1] sameRV=true exact=ok items=[a=1,b=1,c=1] now=ok items=[a=1,c=2,d=]",
	},
	{
		name: "pods on a node are deleted gracefully",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := newPod("p", "c")
			in.Spec.NodeName = "node-1"
			if mustCreatePod(ctx, b, ns, in, f) == nil {
				return f.String()
			}
			f.add("delete", errFact(b.delete(ctx, "pods", ns, "p", metav1.DeleteOptions{})))
			p := &corev1.Pod{}
			f.add("get", errFact(b.get(ctx, "pods", ns, "p", p)))
			f.add("marked", p.DeletionTimestamp != nil)
			if p.DeletionGracePeriodSeconds != nil {
				f.add("grace", *p.DeletionGracePeriodSeconds)
			}
			f.add("generation", p.Generation)
			ten := int64(10)
			f.add("shorten", errFact(b.delete(ctx, "pods", ns, "p", metav1.DeleteOptions{GracePeriodSeconds: &ten})))
			f.add("get", errFact(b.get(ctx, "pods", ns, "p", p)))
			if p.DeletionGracePeriodSeconds != nil {
				f.add("grace", *p.DeletionGracePeriodSeconds)
			}
			zero := int64(0)
			f.add("force", errFact(b.delete(ctx, "pods", ns, "p", metav1.DeleteOptions{GracePeriodSeconds: &zero})))
			f.add("gone", errFact(b.get(ctx, "pods", ns, "p", &corev1.Pod{})))
			return f.String()
		},
		want: "delete=ok get=ok marked=true grace=30 generation=2 shorten=ok get=ok grace=10 force=ok gone=404/NotFound(pods p)",
	},
	{
		name: "object metadata is validated",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			f.add("name", errFact(b.create(ctx, "configmaps", ns, configMap("Not_Valid", nil), metav1.CreateOptions{}, &corev1.ConfigMap{})))
			badLabel := configMap("l", nil)
			badLabel.Labels = map[string]string{"app": "has spaces"}
			f.add("label", errFact(b.create(ctx, "configmaps", ns, badLabel, metav1.CreateOptions{}, &corev1.ConfigMap{})))
			badFinalizer := configMap("f", nil)
			badFinalizer.Finalizers = []string{"not a/valid/finalizer"}
			f.add("finalizer", errFact(b.create(ctx, "configmaps", ns, badFinalizer, metav1.CreateOptions{}, &corev1.ConfigMap{})))
			if cm := mustCreate(ctx, b, ns, configMap("ok", nil), f); cm != nil {
				cm.Annotations = map[string]string{"bad key!": "v"}
				f.add("annotation", errFact(b.update(ctx, "configmaps", "", ns, cm, &corev1.ConfigMap{})))
				f.add("patch", errFact(b.patch(ctx, "configmaps", "", ns, "ok", types.MergePatchType, []byte(`{"metadata":{"labels":{"a":"-bad-"}}}`), metav1.PatchOptions{}, &corev1.ConfigMap{})))
			}
			w := newWidget("Bad_Widget", 1)
			f.add("customName", errFact(b.create(ctx, "widgets", ns, w, metav1.CreateOptions{}, &Widget{})))
			return f.String()
		},
		want: "name=422/Invalid(ConfigMap Not_Valid) label=422/Invalid(ConfigMap l) finalizer=422/Invalid(ConfigMap f) annotation=422/Invalid(ConfigMap ok) patch=422/Invalid(ConfigMap ok) customName=422/Invalid(Widget.fidelity.kgen.dev Bad_Widget)",
	},
	{
		name: "watch from resourceVersion 0 starts with the current objects",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			mustCreate(ctx, b, ns, configMap("a", nil), f)
			w, err := b.watch(ctx, "configmaps", ns, metav1.ListOptions{ResourceVersion: "0"})
			if err != nil {
				return errFact(err)
			}
			f.add("events", collect(w, 1, false))
			return f.String()
		},
		want: "events=ADDED:a",
	},
	{
		name: "delete-collection marks objects with finalizers",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			held := configMap("held", nil)
			held.Finalizers = []string{"example.com/x"}
			mustCreate(ctx, b, ns, held, f)
			mustCreate(ctx, b, ns, configMap("free", nil), f)
			f.add("delete", errFact(b.deleteCollection(ctx, "configmaps", ns, metav1.ListOptions{})))
			list := &corev1.ConfigMapList{}
			f.add("list", errFact(b.list(ctx, "configmaps", ns, metav1.ListOptions{}, list)))
			f.add("left", names(list))
			if len(list.Items) == 1 {
				f.add("marked", list.Items[0].DeletionTimestamp != nil)
			}
			return f.String()
		},
		want: "delete=ok list=ok left=[held] marked=true",
	},
	{
		name: "secrets: conflict and selector deletion",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Labels: map[string]string{"t": "x"}}, Type: corev1.SecretTypeOpaque,
				Data: map[string][]byte{"k": []byte("v")}}
			out := &corev1.Secret{}
			f.add("create", errFact(b.create(ctx, "secrets", ns, s, metav1.CreateOptions{}, out)))
			stale := out.DeepCopy()
			out.Data["k"] = []byte("w")
			f.add("update", errFact(b.update(ctx, "secrets", "", ns, out, out)))
			f.add("stale", errFact(b.update(ctx, "secrets", "", ns, stale, &corev1.Secret{})))
			f.add("deleteCollection", errFact(b.deleteCollection(ctx, "secrets", ns, metav1.ListOptions{LabelSelector: "t=x"})))
			f.add("get", errFact(b.get(ctx, "secrets", ns, "s", &corev1.Secret{})))
			return f.String()
		},
		want: "create=ok update=ok stale=409/Conflict(secrets s) deleteCollection=ok get=404/NotFound(secrets s)",
	},
}

// namesAndValues lists the ConfigMaps as name=data[v].
func namesAndValues(list *corev1.ConfigMapList) string {
	var out []string
	for _, i := range list.Items {
		out = append(out, i.Name+"="+i.Data["v"])
	}
	return "[" + strings.Join(out, ",") + "]"
}

// managers lists the managed-fields entries as manager:operation.
// managers lists cm's field managers sorted by name. Both backends order
// managedFields by operation, then timestamp in whole seconds, then name, so
// the listed order depends on whether the calls straddle a second boundary.
func managers(obj metav1.Object) string {
	var out []string
	for _, m := range obj.GetManagedFields() {
		out = append(out, m.Manager+":"+string(m.Operation))
	}
	slices.Sort(out)
	return "[" + strings.Join(out, ",") + "]"
}
