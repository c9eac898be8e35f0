package events

import (
	"fmt"
	"maps"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// EventRecorder records events about objects on behalf of one event source. Recording never blocks:
// when the broadcaster's queue is full the event is dropped and counted.
type EventRecorder interface {
	// Event records an event about object, which may be any object the recorder's scheme knows, an
	// object with its kind set, or a *corev1.ObjectReference. eventtype is Normal or Warning; reason
	// is a short UpperCamelCase word machines can switch on; message is for humans. The Event is
	// created in the object's namespace ("default" for cluster-scoped objects).
	Event(object runtime.Object, eventtype, reason, message string)
	// Eventf is Event with the message built by fmt.Sprintf.
	Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...any)
	// AnnotatedEventf is Eventf with annotations set on the Event.
	AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...any)
}

// EventRecorderLogger is an EventRecorder whose problems (an object it cannot reference, an invalid
// type, a full queue) are logged to a chosen logger.
type EventRecorderLogger interface {
	EventRecorder
	// WithLogger returns a recorder that logs to logger; it is cheap, for contextual logging.
	WithLogger(logger klog.Logger) EventRecorderLogger
}

// ValidateEventType reports whether eventtype is one the API accepts: Normal or Warning.
func ValidateEventType(eventtype string) bool {
	return eventtype == corev1.EventTypeNormal || eventtype == corev1.EventTypeWarning
}

// recorder builds Events and hands them to a broadcaster's queue.
type recorder struct {
	scheme *runtime.Scheme
	source corev1.EventSource
	queue  *distributor
	clock  clock.PassiveClock
	logger klog.Logger
}

var _ EventRecorderLogger = recorder{}

func (r recorder) Event(object runtime.Object, eventtype, reason, message string) {
	r.record(object, nil, eventtype, reason, message)
}

func (r recorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...any) {
	r.record(object, nil, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

func (r recorder) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...any) {
	r.record(object, annotations, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

func (r recorder) WithLogger(logger klog.Logger) EventRecorderLogger {
	r.logger = logger
	return r
}

func (r recorder) record(object runtime.Object, annotations map[string]string, eventtype, reason, message string) {
	ref, err := GetReference(r.scheme, object)
	if err != nil {
		r.logger.Error(err, "Cannot reference the object, dropping event", "eventType", eventtype, "reason", reason, "message", message)
		return
	}
	if !ValidateEventType(eventtype) {
		r.logger.Error(nil, "Unsupported event type, dropping event", "eventType", eventtype, "reason", reason, "object", ref)
		return
	}
	event := r.makeEvent(ref, annotations, eventtype, reason, message)
	if err := r.queue.enqueue(event); err != nil {
		r.logger.Error(err, "Dropping event", "object", klog.KRef(ref.Namespace, ref.Name), "reason", reason)
	}
}

func (r recorder) makeEvent(ref *corev1.ObjectReference, annotations map[string]string, eventtype, reason, message string) *corev1.Event {
	now := r.clock.Now()
	t := metav1.NewTime(now)
	namespace := ref.Namespace
	if namespace == "" {
		namespace = metav1.NamespaceDefault
	}
	return &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:        eventName(ref.Name, now),
			Namespace:   namespace,
			Annotations: maps.Clone(annotations),
		},
		InvolvedObject:      *ref,
		Reason:              reason,
		Message:             message,
		Source:              r.source,
		FirstTimestamp:      t,
		LastTimestamp:       t,
		Count:               1,
		Type:                eventtype,
		ReportingController: r.source.Component,
		ReportingInstance:   r.source.Host,
	}
}

// lastEventStamp is the last timestamp used in an Event name, so names stay unique even when events
// share a clock reading (a coarse or fake clock).
var lastEventStamp atomic.Int64

// eventStamp returns t in nanoseconds, moved forward past every stamp handed out before.
func eventStamp(t time.Time) int64 {
	for {
		last, now := lastEventStamp.Load(), t.UnixNano()
		if now <= last {
			now = last + 1
		}
		if lastEventStamp.CompareAndSwap(last, now) {
			return now
		}
	}
}

// eventName names an Event after its object and the time, falling back to a random name when the
// object's name does not make a valid Event name.
func eventName(objectName string, t time.Time) string {
	name := fmt.Sprintf("%s.%x", objectName, eventStamp(t))
	if len(apivalidation.NameIsDNSSubdomain(name, false)) > 0 {
		return string(uuid.NewUUID())
	}
	return name
}
