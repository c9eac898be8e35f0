package events

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// sinkRequestTimeout bounds each call a REST sink makes, so an unresponsive server cannot hold up the
// broadcaster (and its Shutdown) for longer.
const sinkRequestTimeout = 10 * time.Second

// sinkScheme knows the two Event APIs and metav1.Status, for the sinks' own REST clients.
var sinkScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := eventsv1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// NewEventSink returns an EventSink that writes core/v1 Events through client, a REST client for the
// core "v1" API (APIPath "/api"). This is the sink client-go users get from typed clientsets.
func NewEventSink(client rest.Interface) EventSink {
	return &coreV1Sink{client: client}
}

// NewEventSinkForConfig returns NewEventSink over a REST client built from a copy of config.
func NewEventSinkForConfig(config *rest.Config) (EventSink, error) {
	c, err := rest.RESTClientForGroupVersion(config, "/api", corev1.SchemeGroupVersion, sinkScheme)
	if err != nil {
		return nil, fmt.Errorf("events: building the core/v1 client: %w", err)
	}
	return NewEventSink(c), nil
}

type coreV1Sink struct{ client rest.Interface }

func (s *coreV1Sink) Create(event *corev1.Event) (*corev1.Event, error) {
	return s.do(s.client.Post().Namespace(event.Namespace).Resource("events").Body(event))
}

func (s *coreV1Sink) Update(event *corev1.Event) (*corev1.Event, error) {
	return s.do(s.client.Put().Namespace(event.Namespace).Resource("events").Name(event.Name).Body(event))
}

func (s *coreV1Sink) Patch(oldEvent *corev1.Event, data []byte) (*corev1.Event, error) {
	return s.do(s.client.Patch(types.StrategicMergePatchType).
		Namespace(oldEvent.Namespace).Resource("events").Name(oldEvent.Name).Body(data))
}

func (s *coreV1Sink) do(req *rest.Request) (*corev1.Event, error) {
	ctx, cancel := context.WithTimeout(context.Background(), sinkRequestTimeout)
	defer cancel()
	out := &corev1.Event{}
	if err := req.Do(ctx).Into(out); err != nil {
		return nil, err
	}
	return out, nil
}

// NewEventsV1Sink returns an EventSink that stores the recorder's Events through the events.k8s.io/v1
// API with client, a REST client for that group version (APIPath "/apis"). Repeats become the Event's
// series (series.count, series.lastObservedTime); that API keeps the note immutable, so an aggregate
// Event keeps the message of its first occurrence. Events need a source component (reportingController)
// and host (reportingInstance), which that API requires.
func NewEventsV1Sink(client rest.Interface) EventSink {
	return &eventsV1Sink{client: client}
}

// NewEventsV1SinkForConfig returns NewEventsV1Sink over a REST client built from a copy of config.
func NewEventsV1SinkForConfig(config *rest.Config) (EventSink, error) {
	c, err := rest.RESTClientForGroupVersion(config, "/apis", eventsv1.SchemeGroupVersion, sinkScheme)
	if err != nil {
		return nil, fmt.Errorf("events: building the events.k8s.io/v1 client: %w", err)
	}
	return NewEventsV1Sink(c), nil
}

type eventsV1Sink struct{ client rest.Interface }

func (s *eventsV1Sink) Create(event *corev1.Event) (*corev1.Event, error) {
	return s.do(s.client.Post().Namespace(event.Namespace).Resource("events").Body(toEventsV1(event)))
}

func (s *eventsV1Sink) Update(event *corev1.Event) (*corev1.Event, error) {
	return s.do(s.client.Put().Namespace(event.Namespace).Resource("events").Name(event.Name).Body(toEventsV1(event)))
}

// seriesPatch is the merge patch recording more occurrences of an events.k8s.io/v1 Event.
type seriesPatch struct {
	Series eventsv1.EventSeries `json:"series"`
}

// Patch ignores data, which is written for core/v1, and patches the Event's series from oldEvent.
func (s *eventsV1Sink) Patch(oldEvent *corev1.Event, _ []byte) (*corev1.Event, error) {
	data, err := json.Marshal(seriesPatch{Series: eventsv1.EventSeries{
		Count:            oldEvent.Count,
		LastObservedTime: metav1.NewMicroTime(oldEvent.LastTimestamp.Time),
	}})
	if err != nil {
		return nil, err
	}
	return s.do(s.client.Patch(types.MergePatchType).
		Namespace(oldEvent.Namespace).Resource("events").Name(oldEvent.Name).Body(data))
}

func (s *eventsV1Sink) do(req *rest.Request) (*corev1.Event, error) {
	ctx, cancel := context.WithTimeout(context.Background(), sinkRequestTimeout)
	defer cancel()
	out := &eventsv1.Event{}
	if err := req.Do(ctx).Into(out); err != nil {
		return nil, err
	}
	return fromEventsV1(out), nil
}

// toEventsV1 converts a recorder's Event for the events.k8s.io/v1 API, which wants the deprecated
// fields unset and repeats expressed as a series.
func toEventsV1(e *corev1.Event) *eventsv1.Event {
	controller, instance := e.ReportingController, e.ReportingInstance
	if controller == "" {
		controller = e.Source.Component
	}
	if instance == "" {
		instance = e.Source.Host
	}
	action := e.Action
	if action == "" {
		action = e.Reason
	}
	eventTime := e.EventTime
	if eventTime.IsZero() {
		eventTime = metav1.NewMicroTime(e.FirstTimestamp.Time)
	}
	out := &eventsv1.Event{
		ObjectMeta:          *e.ObjectMeta.DeepCopy(),
		EventTime:           eventTime,
		ReportingController: controller,
		ReportingInstance:   instance,
		Action:              action,
		Reason:              e.Reason,
		Regarding:           e.InvolvedObject,
		Related:             e.Related,
		Note:                e.Message,
		Type:                e.Type,
	}
	if e.Count > 1 {
		out.Series = &eventsv1.EventSeries{Count: e.Count, LastObservedTime: metav1.NewMicroTime(e.LastTimestamp.Time)}
	}
	return out
}

// fromEventsV1 converts a stored events.k8s.io/v1 Event back to the recorder's form, so the
// correlator tracks its name, resourceVersion and count.
func fromEventsV1(e *eventsv1.Event) *corev1.Event {
	count := int32(1)
	last := e.EventTime.Time
	if e.Series != nil {
		count, last = e.Series.Count, e.Series.LastObservedTime.Time
	}
	return &corev1.Event{
		ObjectMeta:          e.ObjectMeta,
		InvolvedObject:      e.Regarding,
		Reason:              e.Reason,
		Message:             e.Note,
		Source:              corev1.EventSource{Component: e.ReportingController, Host: e.ReportingInstance},
		FirstTimestamp:      metav1.NewTime(e.EventTime.Time),
		LastTimestamp:       metav1.NewTime(last),
		Count:               count,
		Type:                e.Type,
		EventTime:           e.EventTime,
		Related:             e.Related,
		Action:              e.Action,
		ReportingController: e.ReportingController,
		ReportingInstance:   e.ReportingInstance,
	}
}
