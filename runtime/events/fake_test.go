package events

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

func TestFakeRecorder(t *testing.T) {
	f := NewFakeRecorder(10)
	pod := testPod("ns", "p")
	pod.APIVersion, pod.Kind = "v1", "Pod"
	var r EventRecorderLogger = f
	r.Event(pod, corev1.EventTypeNormal, "Started", "all good")
	r.Eventf(pod, corev1.EventTypeWarning, "Failed", "attempt %d", 3)
	r.WithLogger(klog.Background()).AnnotatedEventf(pod, map[string]string{"k": "v"}, corev1.EventTypeNormal, "Noted", "x=%s", "y")
	f.IncludeObject = true
	r.Event(pod, corev1.EventTypeNormal, "Started", "again")

	want := []string{
		"Normal Started all good",
		"Warning Failed attempt 3",
		"Normal Noted x=y map[k:v]",
		"Normal Started again involvedObject{kind=Pod,apiVersion=v1}",
	}
	for _, w := range want {
		if got := <-f.Events; got != w {
			t.Errorf("got %q, want %q", got, w)
		}
	}
}

func TestFakeRecorderWithoutChannelDiscards(t *testing.T) {
	f := &FakeRecorder{}
	f.Event(testPod("ns", "p"), corev1.EventTypeNormal, "Started", "dropped") // must not block or panic
}
