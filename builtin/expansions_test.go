package builtin_test

import (
	"context"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

func newPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
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
