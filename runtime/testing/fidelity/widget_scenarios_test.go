package fidelity_test

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func newWidget(name string, size int64) *Widget {
	return &Widget{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: WidgetSpec{Size: size}}
}

func mustCreateWidget(ctx context.Context, b backend, ns string, w *Widget, f *facts) *Widget {
	out := &Widget{}
	if err := b.create(ctx, "widgets", ns, w, metav1.CreateOptions{}, out); err != nil {
		f.add("create", errFact(err))
		return nil
	}
	return out
}

// withWidget runs fn on a freshly created Widget "w" of size 1.
func withWidget(fn func(ctx context.Context, b backend, ns string, w *Widget, f *facts)) func(context.Context, backend, string) string {
	return func(ctx context.Context, b backend, ns string) string {
		f := &facts{}
		if w := mustCreateWidget(ctx, b, ns, newWidget("w", 1), f); w != nil {
			fn(ctx, b, ns, w, f)
		}
		return f.String()
	}
}

var widgetScenarios = []scenario{
	{
		name: "custom resource: create sets generation and drops status",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := newWidget("w", 1)
			in.Status.Ready = true
			if w := mustCreateWidget(ctx, b, ns, in, f); w != nil {
				f.add("generation", w.Generation)
				f.add("ready", w.Status.Ready)
				f.add("size", w.Spec.Size)
			}
			return f.String()
		},
		want: "generation=1 ready=false size=1",
	},
	{
		name: "custom resource: main update ignores status and bumps generation on spec",
		run: withWidget(func(ctx context.Context, b backend, ns string, w *Widget, f *facts) {
			w.Labels = map[string]string{"l": "1"}
			w.Status.Ready = true
			f.add("labels", errFact(b.update(ctx, "widgets", "", ns, w, w)))
			f.add("generation", w.Generation)
			f.add("ready", w.Status.Ready)
			w.Spec.Size = 2
			f.add("spec", errFact(b.update(ctx, "widgets", "", ns, w, w)))
			f.add("generation", w.Generation)
		}),
		want: "labels=ok generation=1 ready=false spec=ok generation=2",
	},
	{
		name: "custom resource: status update changes only status",
		run: withWidget(func(ctx context.Context, b backend, ns string, w *Widget, f *facts) {
			w.Labels = map[string]string{"l": "1"}
			w.Spec.Size = 9
			w.Status = WidgetStatus{Ready: true, ObservedGeneration: 1}
			f.add("status", errFact(b.update(ctx, "widgets", "status", ns, w, w)))
			f.add("ready", w.Status.Ready)
			f.add("size", w.Spec.Size)
			f.add("labels", w.Labels)
			f.add("generation", w.Generation)
		}),
		want: "status=ok ready=true size=1 labels=map[] generation=1",
	},
	{
		name: "custom resource: patches",
		run: withWidget(func(ctx context.Context, b backend, ns string, w *Widget, f *facts) {
			f.add("strategic", errFact(b.patch(ctx, "widgets", "", ns, "w", types.StrategicMergePatchType, []byte(`{"spec":{"size":3}}`), metav1.PatchOptions{}, &Widget{})))
			f.add("merge", errFact(b.patch(ctx, "widgets", "", ns, "w", types.MergePatchType, []byte(`{"spec":{"tags":{"a":"1"},"parts":["x","y"]}}`), metav1.PatchOptions{}, w)))
			f.add("generation", w.Generation)
			f.add("json", errFact(b.patch(ctx, "widgets", "status", ns, "w", types.JSONPatchType, []byte(`[{"op":"add","path":"/status","value":{"ready":true}}]`), metav1.PatchOptions{}, w)))
			f.add("ready", w.Status.Ready)
			f.add("generation", w.Generation)
			f.add("spec", w.Spec)
		}),
		want: "strategic=415/UnsupportedMediaType merge=ok generation=2 json=ok ready=true generation=2 spec={1 map[a:1] [x y]}",
	},
	{
		name: "custom resource: server-side apply",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			apply := func(manager, spec string, force bool) (*Widget, string) {
				out := &Widget{}
				err := b.patch(ctx, "widgets", "", ns, "w", types.ApplyYAMLPatchType,
					[]byte(`{"apiVersion":"fidelity.kgen.dev/v1","kind":"Widget","metadata":{"name":"w"},"spec":`+spec+`}`),
					metav1.PatchOptions{FieldManager: manager, Force: &force}, out)
				return out, errFact(err)
			}
			w, e := apply("alice", `{"size":1,"tags":{"a":"1"}}`, false)
			f.add("create", e)
			f.add("generation", w.Generation)
			_, e = apply("bob", `{"tags":{"a":"2","b":"2"}}`, false)
			f.add("conflict", e)
			w, e = apply("bob", `{"tags":{"b":"2"}}`, false)
			f.add("shared", e)
			f.add("tags", w.Spec.Tags)
			f.add("generation", w.Generation)
			return f.String()
		},
		want: "create=ok generation=1 conflict=409/Conflict shared=ok tags=map[a:1 b:2] generation=2",
	},
	{
		name: "custom resource: finalizers and generation on delete",
		run: func(ctx context.Context, b backend, ns string) string {
			f := &facts{}
			in := newWidget("w", 1)
			in.Finalizers = []string{"example.com/x"}
			if mustCreateWidget(ctx, b, ns, in, f) == nil {
				return f.String()
			}
			f.add("delete", errFact(b.delete(ctx, "widgets", ns, "w", metav1.DeleteOptions{})))
			w := &Widget{}
			f.add("get", errFact(b.get(ctx, "widgets", ns, "w", w)))
			f.add("generation", w.Generation)
			f.add("marked", w.DeletionTimestamp != nil)
			w.Finalizers = nil
			f.add("release", errFact(b.update(ctx, "widgets", "", ns, w, &Widget{})))
			f.add("gone", errFact(b.get(ctx, "widgets", ns, "w", &Widget{})))
			return f.String()
		},
		want: "delete=ok get=ok generation=2 marked=true release=ok gone=404/NotFound(widgets.fidelity.kgen.dev w)",
	},
	{
		name: "custom resource: list then watch",
		run: withWidget(func(ctx context.Context, b backend, ns string, w *Widget, f *facts) {
			list := &WidgetList{}
			f.add("list", errFact(b.list(ctx, "widgets", ns, metav1.ListOptions{}, list)))
			f.add("items", len(list.Items))
			w.Status.Ready = true
			f.add("status", errFact(b.update(ctx, "widgets", "status", ns, w, w)))
			mustCreateWidget(ctx, b, ns, newWidget("v", 2), f)
			watcher, err := b.watch(ctx, "widgets", ns, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
			if err != nil {
				f.add("watch", errFact(err))
				return
			}
			f.add("events", collect(watcher, 2, false))
		}),
		want: "list=ok items=1 status=ok events=MODIFIED:w,ADDED:v",
	},
}

func init() { scenarios = append(scenarios, widgetScenarios...) }
