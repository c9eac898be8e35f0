package events

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// FakeRecorder is an EventRecorder for unit tests: every event arrives on Events as a string
// "<type> <reason> <message>", followed by the object's kind and apiVersion when IncludeObject is set
// and by the annotations when there are any. Sending blocks when Events is full; a FakeRecorder with a
// nil Events channel discards events. It is safe for concurrent use.
type FakeRecorder struct {
	// Events receives one line per recorded event.
	Events chan string
	// IncludeObject appends " involvedObject{kind=…,apiVersion=…}" from the object's TypeMeta.
	IncludeObject bool
}

var _ EventRecorderLogger = (*FakeRecorder)(nil)

// NewFakeRecorder returns a FakeRecorder whose Events channel buffers bufferSize events.
func NewFakeRecorder(bufferSize int) *FakeRecorder {
	return &FakeRecorder{Events: make(chan string, bufferSize)}
}

// Event sends "<eventtype> <reason> <message>" to Events.
func (f *FakeRecorder) Event(object runtime.Object, eventtype, reason, message string) {
	f.write(object, nil, eventtype, reason, message)
}

// Eventf is Event with the message built by fmt.Sprintf.
func (f *FakeRecorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...any) {
	f.write(object, nil, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

// AnnotatedEventf is Eventf with the annotations appended to the line.
func (f *FakeRecorder) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...any) {
	f.write(object, annotations, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

// WithLogger returns f: the fake does not log.
func (f *FakeRecorder) WithLogger(klog.Logger) EventRecorderLogger { return f }

func (f *FakeRecorder) write(object runtime.Object, annotations map[string]string, eventtype, reason, message string) {
	if f.Events == nil {
		return
	}
	line := eventtype + " " + reason + " " + message
	if f.IncludeObject && !isNil(object) {
		gvk := object.GetObjectKind().GroupVersionKind()
		line += fmt.Sprintf(" involvedObject{kind=%s,apiVersion=%s}", gvk.Kind, gvk.GroupVersion())
	}
	if len(annotations) > 0 {
		line += " " + fmt.Sprint(annotations)
	}
	f.Events <- line
}
