package v1

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	eventref "github.com/kgen-dev/kgen/runtime/events"
)

// EventExpansion holds the Event calls event recorders and kubectl-like tools use: writes to the
// event's own namespace, and a search for the events about an object.
type EventExpansion interface {
	// CreateWithEventNamespace creates event in its own namespace.
	CreateWithEventNamespace(event *corev1.Event) (*corev1.Event, error)
	// UpdateWithEventNamespace replaces event in its own namespace.
	UpdateWithEventNamespace(event *corev1.Event) (*corev1.Event, error)
	// PatchWithEventNamespace applies the strategic merge patch data to event in its own namespace.
	PatchWithEventNamespace(event *corev1.Event, data []byte) (*corev1.Event, error)
	// Search lists the events about objOrRef, an object scheme knows or an *ObjectReference.
	Search(scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error)
	// CreateWithEventNamespaceWithContext is CreateWithEventNamespace honouring ctx.
	CreateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error)
	// UpdateWithEventNamespaceWithContext is UpdateWithEventNamespace honouring ctx.
	UpdateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error)
	// PatchWithEventNamespaceWithContext is PatchWithEventNamespace honouring ctx.
	PatchWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event, data []byte) (*corev1.Event, error)
	// SearchWithContext is Search honouring ctx.
	SearchWithContext(ctx context.Context, scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error)
	// GetFieldSelector returns the field selector of the events about an object; nil arguments do
	// not restrict.
	GetFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID *string) fields.Selector
}

// CreateWithEventNamespace creates event in its own namespace.
func (c *events) CreateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.CreateWithEventNamespaceWithContext(context.Background(), event)
}

// CreateWithEventNamespaceWithContext creates event in its own namespace.
func (c *events) CreateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error) {
	if err := c.checkNamespace("create", event); err != nil {
		return nil, err
	}
	result := &corev1.Event{}
	err := c.GetClient().Post().NamespaceIfScoped(event.Namespace, event.Namespace != "").Resource("events").
		Body(event).Do(ctx).Into(result)
	return result, err
}

// UpdateWithEventNamespace replaces event in its own namespace.
func (c *events) UpdateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.UpdateWithEventNamespaceWithContext(context.Background(), event)
}

// UpdateWithEventNamespaceWithContext replaces event in its own namespace.
func (c *events) UpdateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error) {
	if err := c.checkNamespace("update", event); err != nil {
		return nil, err
	}
	result := &corev1.Event{}
	err := c.GetClient().Put().NamespaceIfScoped(event.Namespace, event.Namespace != "").Resource("events").
		Name(event.Name).Body(event).Do(ctx).Into(result)
	return result, err
}

// PatchWithEventNamespace applies a strategic merge patch to event in its own namespace.
func (c *events) PatchWithEventNamespace(event *corev1.Event, data []byte) (*corev1.Event, error) {
	return c.PatchWithEventNamespaceWithContext(context.Background(), event, data)
}

// PatchWithEventNamespaceWithContext applies a strategic merge patch to event in its own namespace.
func (c *events) PatchWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event, data []byte) (*corev1.Event, error) {
	if err := c.checkNamespace("patch", event); err != nil {
		return nil, err
	}
	result := &corev1.Event{}
	err := c.GetClient().Patch(types.StrategicMergePatchType).NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").Name(event.Name).Body(data).Do(ctx).Into(result)
	return result, err
}

// checkNamespace rejects an event outside the namespace the client is bound to.
func (c *events) checkNamespace(verb string, event *corev1.Event) error {
	if ns := c.GetNamespace(); ns != "" && event.Namespace != ns {
		return fmt.Errorf("can't %s an event with namespace %q in namespace %q", verb, event.Namespace, ns)
	}
	return nil
}

// Search lists the events about objOrRef.
func (c *events) Search(scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	return c.SearchWithContext(context.Background(), scheme, objOrRef)
}

// SearchWithContext lists the events about objOrRef, which must be in the client's namespace if the
// client is bound to one.
func (c *events) SearchWithContext(ctx context.Context, scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	ref, err := eventref.GetReference(scheme, objOrRef)
	if err != nil {
		return nil, err
	}
	if ns := c.GetNamespace(); ns != "" && ref.Namespace != ns {
		return nil, fmt.Errorf("won't be able to find any events of namespace %q in namespace %q", ref.Namespace, ns)
	}
	selector := EventFieldSelector(&ref.Name, &ref.Namespace, optional(ref.Kind), optional(string(ref.UID)))
	return c.List(ctx, metav1.ListOptions{FieldSelector: selector.String()})
}

// GetFieldSelector returns the field selector of the events about an object.
func (c *events) GetFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID *string) fields.Selector {
	return EventFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID)
}

// optional is s, or nil (no restriction) when s is empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// EventFieldSelector selects the events about an object; nil arguments do not restrict. It is
// GetFieldSelector for any Event client, the fake's too.
func EventFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID *string) fields.Selector {
	set := fields.Set{}
	for field, value := range map[string]*string{
		"involvedObject.name": involvedObjectName, "involvedObject.namespace": involvedObjectNamespace,
		"involvedObject.kind": involvedObjectKind, "involvedObject.uid": involvedObjectUID,
	} {
		if value != nil {
			set[field] = *value
		}
	}
	return set.AsSelector()
}

// EventSinkImpl is the runtime/events.EventSink of an Event client: it writes each event to the
// event's own namespace, so one client of all namespaces serves a broadcaster, as in
// broadcaster.StartRecordingToSink(&EventSinkImpl{Interface: clientset.CoreV1().Events("")}).
type EventSinkImpl struct {
	// Interface is the Event client the sink writes through.
	Interface EventInterface
}

var _ eventref.EventSink = &EventSinkImpl{}

// Create creates event in its own namespace.
func (e *EventSinkImpl) Create(event *corev1.Event) (*corev1.Event, error) {
	return e.Interface.CreateWithEventNamespace(event)
}

// Update replaces event in its own namespace.
func (e *EventSinkImpl) Update(event *corev1.Event) (*corev1.Event, error) {
	return e.Interface.UpdateWithEventNamespace(event)
}

// Patch applies the strategic merge patch data to event in its own namespace.
func (e *EventSinkImpl) Patch(event *corev1.Event, data []byte) (*corev1.Event, error) {
	return e.Interface.PatchWithEventNamespace(event, data)
}
