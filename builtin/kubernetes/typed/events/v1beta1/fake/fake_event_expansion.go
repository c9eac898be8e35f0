package fake

import (
	eventsv1beta1 "k8s.io/api/events/v1beta1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kgen-dev/kgen/runtime/testing"
)

// CreateWithEventNamespace records a create of event in the client's namespace, or the event's own.
func (c *fakeEvents) CreateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	return c.invoke(testing.NewCreateAction(c.Resource(), c.eventNamespace(event), event), event)
}

// UpdateWithEventNamespace records an update of event in the client's namespace, or the event's own.
func (c *fakeEvents) UpdateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	return c.invoke(testing.NewUpdateAction(c.Resource(), c.eventNamespace(event), event), event)
}

// PatchWithEventNamespace records a strategic merge patch of event in the client's namespace, or the event's own.
func (c *fakeEvents) PatchWithEventNamespace(event *eventsv1beta1.Event, data []byte) (*eventsv1beta1.Event, error) {
	return c.invoke(testing.NewPatchAction(c.Resource(), c.eventNamespace(event), event.Name, types.StrategicMergePatchType, data), event)
}

// eventNamespace is the client's namespace, or event's own for a client of all namespaces.
func (c *fakeEvents) eventNamespace(event *eventsv1beta1.Event) string {
	if ns := c.Namespace(); ns != "" {
		return ns
	}
	return event.Namespace
}

func (c *fakeEvents) invoke(action testing.Action, event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	obj, err := c.Fake.Invokes(action, event)
	if obj == nil {
		return nil, err
	}
	return obj.(*eventsv1beta1.Event), err
}
