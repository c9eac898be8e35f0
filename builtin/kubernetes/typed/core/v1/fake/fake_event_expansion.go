package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	typedcorev1 "github.com/kgen-dev/kgen/builtin/kubernetes/typed/core/v1"
	eventref "github.com/kgen-dev/kgen/runtime/events"
	"github.com/kgen-dev/kgen/runtime/testing"
)

// CreateWithEventNamespace records a create of event in the client's namespace, or the event's own.
func (c *fakeEvents) CreateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.CreateWithEventNamespaceWithContext(context.Background(), event)
}

// CreateWithEventNamespaceWithContext is CreateWithEventNamespace.
func (c *fakeEvents) CreateWithEventNamespaceWithContext(_ context.Context, event *corev1.Event) (*corev1.Event, error) {
	return c.invoke(testing.NewCreateAction(c.Resource(), c.eventNamespace(event), event), event)
}

// UpdateWithEventNamespace records an update of event in the client's namespace, or the event's own.
func (c *fakeEvents) UpdateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.UpdateWithEventNamespaceWithContext(context.Background(), event)
}

// UpdateWithEventNamespaceWithContext is UpdateWithEventNamespace.
func (c *fakeEvents) UpdateWithEventNamespaceWithContext(_ context.Context, event *corev1.Event) (*corev1.Event, error) {
	return c.invoke(testing.NewUpdateAction(c.Resource(), c.eventNamespace(event), event), event)
}

// PatchWithEventNamespace records a strategic merge patch of event in the client's namespace, or the event's own.
func (c *fakeEvents) PatchWithEventNamespace(event *corev1.Event, data []byte) (*corev1.Event, error) {
	return c.PatchWithEventNamespaceWithContext(context.Background(), event, data)
}

// PatchWithEventNamespaceWithContext is PatchWithEventNamespace.
func (c *fakeEvents) PatchWithEventNamespaceWithContext(_ context.Context, event *corev1.Event, data []byte) (*corev1.Event, error) {
	return c.invoke(testing.NewPatchAction(c.Resource(), c.eventNamespace(event), event.Name, types.StrategicMergePatchType, data), event)
}

// Search records a list of the events about objOrRef, selected by field as the server would.
func (c *fakeEvents) Search(scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	return c.SearchWithContext(context.Background(), scheme, objOrRef)
}

// SearchWithContext is Search.
func (c *fakeEvents) SearchWithContext(ctx context.Context, scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	ref, err := eventref.GetReference(scheme, objOrRef)
	if err != nil {
		return nil, err
	}
	var kind, uid *string
	if ref.Kind != "" {
		kind = &ref.Kind
	}
	if ref.UID != "" {
		s := string(ref.UID)
		uid = &s
	}
	return c.List(ctx, metav1.ListOptions{FieldSelector: c.GetFieldSelector(&ref.Name, &ref.Namespace, kind, uid).String()})
}

// GetFieldSelector returns the field selector of the events about an object.
func (c *fakeEvents) GetFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID *string) fields.Selector {
	return typedcorev1.EventFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID)
}

// eventNamespace is the client's namespace, or event's own for a client of all namespaces.
func (c *fakeEvents) eventNamespace(event *corev1.Event) string {
	if ns := c.Namespace(); ns != "" {
		return ns
	}
	return event.Namespace
}

func (c *fakeEvents) invoke(action testing.Action, event *corev1.Event) (*corev1.Event, error) {
	obj, err := c.Fake.Invokes(action, event)
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Event), err
}
