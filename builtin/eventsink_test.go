package builtin_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	typedcorev1 "github.com/kgen-dev/kgen/builtin/kubernetes/typed/core/v1"
	"github.com/kgen-dev/kgen/runtime/events"
)

// TestEventSinkImplWritesToEachEventsNamespace: the sink built as client-go's is, over the Event
// client of all namespaces, creates, patches and updates each event in the event's own namespace.
func TestEventSinkImplWritesToEachEventsNamespace(t *testing.T) {
	cs := fake.NewSimpleClientset()
	var sink events.EventSink = &typedcorev1.EventSinkImpl{Interface: cs.CoreV1().Events("")}
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "e"}, Reason: "Synced", Count: 1,
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p"}}
	created, err := sink.Create(ev)
	if err != nil || created.Namespace != "ns" {
		t.Fatalf("create: %v, %v", created, err)
	}
	patched, err := sink.Patch(created, []byte(`{"count":2}`))
	if err != nil || patched.Count != 2 {
		t.Fatalf("patch: %v, %v", patched, err)
	}
	patched.Message = "again"
	if updated, err := sink.Update(patched); err != nil || updated.Message != "again" {
		t.Fatalf("update: %v, %v", updated, err)
	}
	stored, err := cs.CoreV1().Events("ns").Get(context.Background(), "e", metav1.GetOptions{})
	if err != nil || stored.Count != 2 || stored.Message != "again" {
		t.Fatalf("stored: %v, %v", stored, err)
	}
}
