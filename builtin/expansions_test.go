package builtin_test

import (
	"context"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

func newPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
}

func TestHandWrittenExpansionsAgainstKubeAPIServer(t *testing.T) {
	ctx := context.Background()
	cs := kubernetes.NewForConfigOrDie(env.Config())
	ns := newNamespace(t, cs)
	pods := cs.CoreV1().Pods(ns)
	for _, name := range []string{"bound", "evicted-v1", "evicted-policy"} {
		if _, err := pods.Create(ctx, newPod(name), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	// Bind assigns a node, as a scheduler does.
	err := pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "bound"},
		Target: corev1.ObjectReference{Kind: "Node", Name: "node-1"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := pods.Get(ctx, "bound", metav1.GetOptions{}); err != nil || p.Spec.NodeName != "node-1" {
		t.Fatalf("bound pod: %v, %v", p.Spec.NodeName, err)
	}

	// Evictions delete unscheduled pods at once, through either client.
	if err := pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "evicted-v1", Namespace: ns}}); err != nil {
		t.Fatal(err)
	}
	if err := cs.PolicyV1().Evictions(ns).Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "evicted-policy", Namespace: ns}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"evicted-v1", "evicted-policy"} {
		if _, err := pods.Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Fatalf("evicted pod %s: %v", name, err)
		}
	}

	// Logs and proxies need a kubelet or endpoints this server lacks: the server's refusal shows the
	// requests reached the right subresources.
	if _, err := pods.GetLogs("bound", &corev1.PodLogOptions{Container: "c"}).DoRaw(ctx); err == nil || !strings.Contains(err.Error(), "node-1") {
		t.Fatalf("logs of a pod on a node without kubelet: %v", err)
	}
	if _, err := cs.CoreV1().Services(ns).ProxyGet("http", "missing", "80", "/healthz", nil).DoRaw(ctx); !apierrors.IsNotFound(err) {
		t.Fatalf("proxy to a missing service: %v", err)
	}

	// Node status patches.
	if _, err := cs.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	node, err := cs.CoreV1().Nodes().PatchStatus(ctx, "node-1", []byte(`{"status":{"capacity":{"pods":"10"}}}`))
	if err != nil || !node.Status.Capacity.Pods().Equal(resource.MustParse("10")) {
		t.Fatalf("patched node: %v, %v", node.Status.Capacity, err)
	}

	// Events in their own namespace, found again by Search.
	bound, err := pods.Get(ctx, "bound", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	event := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "bound.1", Namespace: ns},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "bound", APIVersion: "v1", UID: bound.UID},
		Reason:         "Bound", Message: "bound to node-1", Type: corev1.EventTypeNormal}
	if _, err := cs.CoreV1().Events("").CreateWithEventNamespace(event); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Events("other").CreateWithEventNamespace(event); err == nil {
		t.Fatal("created an event outside the client's namespace")
	}
	found, err := cs.CoreV1().Events(ns).Search(scheme.Scheme, bound)
	if err != nil || len(found.Items) != 1 || found.Items[0].Reason != "Bound" {
		t.Fatalf("search: %+v, %v", found, err)
	}

	// A terminating namespace goes once its finalizers are cleared.
	if err := cs.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	terminating, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err != nil || len(terminating.Spec.Finalizers) == 0 {
		t.Fatalf("terminating namespace: %+v, %v", terminating, err)
	}
	terminating.Spec.Finalizers = nil
	if _, err := cs.CoreV1().Namespaces().Finalize(ctx, terminating, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the namespace is gone", func() bool {
		_, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}

func TestFakeExpansionsRecordActions(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewSimpleClientset(newPod("p"))
	pods := cs.CoreV1().Pods("ns")
	if err := pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Target: corev1.ObjectReference{Name: "n"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "p"}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range cs.Actions() {
		got = append(got, a.GetVerb()+" "+a.GetResource().Resource+"/"+a.GetSubresource()+" in "+a.GetNamespace())
	}
	if want := []string{"create pods/binding in ns", "create pods/eviction in ns"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("actions %q, want %q", got, want)
	}

	stream, err := pods.GetLogs("p", &corev1.PodLogOptions{}).Stream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	logs, _ := io.ReadAll(stream)
	_ = stream.Close()
	if string(logs) != "fake logs" {
		t.Fatalf("logs %q", logs)
	}
	cs.PrependReactor("get", "pods", func(a ktesting.Action) (bool, runtime.Object, error) {
		return a.GetSubresource() == "log", &runtime.Unknown{Raw: []byte("line 1\n")}, nil
	})
	if logs, err := pods.GetLogs("p", &corev1.PodLogOptions{}).DoRaw(ctx); err != nil || string(logs) != "line 1\n" {
		t.Fatalf("reactor logs %q, %v", logs, err)
	}

	event := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "ns"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p"}}
	if _, err := cs.CoreV1().Events("").CreateWithEventNamespace(event); err != nil {
		t.Fatal(err)
	}
	found, err := cs.CoreV1().Events("ns").Search(scheme.Scheme, &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p"})
	if err != nil || len(found.Items) != 1 {
		t.Fatalf("fake search: %+v, %v", found, err)
	}
}
