package fidelity_test

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Widget is a custom resource of the kind kgen users define: a typed Go struct with spec and
// status, served by the real server through a CRD with the status subresource.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	Size  int64             `json:"size,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
	Parts []string          `json:"parts,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	Ready              bool  `json:"ready,omitempty"`
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

var widgetKind = schema.GroupVersionKind{Group: "fidelity.kgen.dev", Version: "v1", Kind: "Widget"}

// DeepCopyObject implements runtime.Object.
func (w *Widget) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if w.Spec.Tags != nil {
		out.Spec.Tags = make(map[string]string, len(w.Spec.Tags))
		for k, v := range w.Spec.Tags {
			out.Spec.Tags[k] = v
		}
	}
	out.Spec.Parts = append([]string(nil), w.Spec.Parts...)
	if w.Spec.Parts == nil {
		out.Spec.Parts = nil
	}
	return &out
}

// DeepCopyObject implements runtime.Object.
func (l *WidgetList) DeepCopyObject() runtime.Object {
	out := *l
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	if l.Items != nil {
		out.Items = make([]Widget, len(l.Items))
		for i := range l.Items {
			out.Items[i] = *l.Items[i].DeepCopyObject().(*Widget)
		}
	}
	return &out
}

var widgetCRD = []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.fidelity.kgen.dev
spec:
  group: fidelity.kgen.dev
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              tags: {type: object, additionalProperties: {type: string}}
              parts: {type: array, items: {type: string}}
          status:
            type: object
            properties:
              ready: {type: boolean}
              observedGeneration: {type: integer}
`)
