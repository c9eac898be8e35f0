package events_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/runtime/events"
)

// A controller records events through a recorder; the broadcaster hands them to watchers and sinks
// (events.NewEventSinkForConfig(config) writes them to the API server).
func ExampleNewBroadcaster() {
	scheme := runtime.NewScheme()
	_ = corev1.AddToScheme(scheme)

	broadcaster := events.NewBroadcaster()
	broadcaster.StartEventWatcher(func(e *corev1.Event) {
		fmt.Printf("%s/%s %s %s: %s\n", e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Type, e.Reason, e.Message)
	})
	recorder := broadcaster.NewRecorder(scheme, corev1.EventSource{Component: "my-controller"})

	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-0"}}
	recorder.Eventf(pod, corev1.EventTypeWarning, "BackOff", "restarting failed container %s", "app")
	broadcaster.Shutdown() // delivers what was recorded, then stops
	// Output: Pod/web-0 Warning BackOff: restarting failed container app
}

// Unit tests of a controller read its events from a FakeRecorder.
func ExampleFakeRecorder() {
	recorder := events.NewFakeRecorder(10)
	recorder.Event(&corev1.Pod{}, corev1.EventTypeNormal, "Synced", "pod synced")
	fmt.Println(<-recorder.Events)
	// Output: Normal Synced pod synced
}
