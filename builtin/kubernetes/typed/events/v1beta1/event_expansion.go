package v1beta1

import (
	"context"
	"fmt"

	eventsv1beta1 "k8s.io/api/events/v1beta1"
	"k8s.io/apimachinery/pkg/types"
)

// EventExpansion holds the writes of events.k8s.io/v1beta1 Events to their own namespace.
type EventExpansion interface {
	// CreateWithEventNamespace creates event in its own namespace.
	CreateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error)
	// UpdateWithEventNamespace replaces event in its own namespace.
	UpdateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error)
	// PatchWithEventNamespace applies the strategic merge patch data to event in its own namespace.
	PatchWithEventNamespace(event *eventsv1beta1.Event, data []byte) (*eventsv1beta1.Event, error)
}

// CreateWithEventNamespace creates event in its own namespace.
func (c *events) CreateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	if err := c.checkNamespace("create", event); err != nil {
		return nil, err
	}
	result := &eventsv1beta1.Event{}
	err := c.GetClient().Post().NamespaceIfScoped(event.Namespace, event.Namespace != "").Resource("events").
		Body(event).Do(context.Background()).Into(result)
	return result, err
}

// UpdateWithEventNamespace replaces event in its own namespace.
func (c *events) UpdateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	if err := c.checkNamespace("update", event); err != nil {
		return nil, err
	}
	result := &eventsv1beta1.Event{}
	err := c.GetClient().Put().NamespaceIfScoped(event.Namespace, event.Namespace != "").Resource("events").
		Name(event.Name).Body(event).Do(context.Background()).Into(result)
	return result, err
}

// PatchWithEventNamespace applies a strategic merge patch to event in its own namespace.
func (c *events) PatchWithEventNamespace(event *eventsv1beta1.Event, data []byte) (*eventsv1beta1.Event, error) {
	if err := c.checkNamespace("patch", event); err != nil {
		return nil, err
	}
	result := &eventsv1beta1.Event{}
	err := c.GetClient().Patch(types.StrategicMergePatchType).NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").Name(event.Name).Body(data).Do(context.Background()).Into(result)
	return result, err
}

// checkNamespace rejects an event outside the namespace the client is bound to.
func (c *events) checkNamespace(verb string, event *eventsv1beta1.Event) error {
	if ns := c.GetNamespace(); ns != "" && event.Namespace != ns {
		return fmt.Errorf("can't %s an event with namespace %q in namespace %q", verb, event.Namespace, ns)
	}
	return nil
}
