package fidelity_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// scenario is one behaviour run against both backends. run describes the outcome as a string of
// facts; the fake agrees with the server when both strings are equal, and both must equal want.
type scenario struct {
	name string
	run  func(ctx context.Context, b backend, ns string) string
	want string
}

// TestFidelity runs every scenario against the fake tracker and a real kube-apiserver and asserts
// identical outcomes; the count of agreeing scenarios is logged.
func TestFidelity(t *testing.T) {
	server, err := newServerBackend()
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			outcomes := map[string]string{}
			for name, b := range map[string]backend{"fake": newFakeBackend(), "server": server} {
				ns, err := b.newNamespace(ctx)
				if err != nil {
					t.Fatalf("%s: namespace: %v", name, err)
				}
				outcomes[name] = sc.run(ctx, b, ns)
			}
			if outcomes["fake"] != outcomes["server"] {
				t.Fatalf("fake and server disagree:\n  fake:   %s\n  server: %s", outcomes["fake"], outcomes["server"])
			}
			if outcomes["server"] != sc.want {
				t.Fatalf("both backends agree on an unexpected outcome:\n  got:  %s\n  want: %s", outcomes["server"], sc.want)
			}
			agree++
		})
	}
	t.Logf("fidelity: %d of %d scenarios agree between the fake tracker and kube-apiserver", agree, len(scenarios))
	if agree < 20 {
		t.Errorf("only %d scenarios agree", agree)
	}
}

// facts builds an outcome string.
type facts []string

func (f *facts) add(key string, value any) { *f = append(*f, fmt.Sprintf("%s=%v", key, value)) }

func (f facts) String() string { return strings.Join(f, " ") }

// errFact describes an error by its HTTP status, reason and the object it names.
func errFact(err error) string {
	if err == nil {
		return "ok"
	}
	status, ok := err.(apierrors.APIStatus)
	if !ok {
		return "error(" + err.Error() + ")"
	}
	s := status.Status()
	out := fmt.Sprintf("%d/%s", s.Code, s.Reason)
	if d := s.Details; d != nil && (d.Kind != "" || d.Name != "") {
		kind := d.Kind
		if d.Group != "" {
			kind += "." + d.Group
		}
		out += fmt.Sprintf("(%s %s)", kind, d.Name)
	}
	return out
}

func configMap(name string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}
}

func newPod(name string, containers ...string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}}
	for _, c := range containers {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: c, Image: "busybox"})
	}
	return p
}

// mustCreate creates a ConfigMap and returns the stored object, or nil after recording the failure.
func mustCreate(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts) *corev1.ConfigMap {
	out := &corev1.ConfigMap{}
	if err := b.create(ctx, "configmaps", ns, cm, metav1.CreateOptions{}, out); err != nil {
		f.add("create", errFact(err))
		return nil
	}
	return out
}

func mustCreatePod(ctx context.Context, b backend, ns string, p *corev1.Pod, f *facts) *corev1.Pod {
	out := &corev1.Pod{}
	if err := b.create(ctx, "pods", ns, p, metav1.CreateOptions{}, out); err != nil {
		f.add("create", errFact(err))
		return nil
	}
	return out
}

func names(list *corev1.ConfigMapList) string {
	var out []string
	for _, i := range list.Items {
		out = append(out, i.Name)
	}
	return "[" + strings.Join(out, ",") + "]"
}

// collect reads n events (then waits briefly for unexpected extra ones) and describes them as
// TYPE:name, sorted when unordered is set.
func collect(w watch.Interface, n int, unordered bool) string {
	defer w.Stop()
	var out []string
	timeout := time.After(10 * time.Second)
	for len(out) < n {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return strings.Join(append(out, "closed"), ",")
			}
			out = append(out, describe(ev))
		case <-timeout:
			return strings.Join(append(out, "timeout"), ",")
		}
	}
	if unordered {
		sort.Strings(out)
	}
	select {
	case ev, ok := <-w.ResultChan():
		if ok {
			out = append(out, "extra "+describe(ev))
		}
	case <-time.After(300 * time.Millisecond):
	}
	return strings.Join(out, ",")
}

func describe(ev watch.Event) string {
	if ev.Type == watch.Error {
		return "ERROR:" + errFact(apierrors.FromObject(ev.Object))
	}
	m, ok := ev.Object.(metav1.Object)
	if !ok {
		return fmt.Sprintf("%s:%T", ev.Type, ev.Object)
	}
	if ev.Type == watch.Bookmark {
		return fmt.Sprintf("BOOKMARK:end=%s", m.GetAnnotations()[metav1.InitialEventsAnnotationKey])
	}
	s := string(ev.Type) + ":" + m.GetName()
	if m.GetDeletionTimestamp() != nil && ev.Type == watch.Modified {
		s += "(deleting)"
	}
	return s
}

// withConfigMap applies fn to a freshly created ConfigMap named "a" and returns its facts.
func withConfigMap(fn func(ctx context.Context, b backend, ns string, cm *corev1.ConfigMap, f *facts)) func(context.Context, backend, string) string {
	return func(ctx context.Context, b backend, ns string) string {
		f := &facts{}
		cm := mustCreate(ctx, b, ns, configMap("a", map[string]string{"k": "v"}), f)
		if cm != nil {
			fn(ctx, b, ns, cm, f)
		}
		return f.String()
	}
}
