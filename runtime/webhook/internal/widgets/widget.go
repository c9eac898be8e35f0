package widgets

import (
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/runtime/webhook"
)

// Widget is version v1, the hub.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is v1's spec.
type WidgetSpec struct {
	Color    string            `json:"color,omitempty"`
	Replicas *int32            `json:"replicas,omitempty"`
	Tags     []string          `json:"tags,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Size     Size              `json:"size"`
	Parts    []Part            `json:"parts,omitempty"`
}

// Size is v1's nested size; v1beta1 flattens it.
type Size struct {
	Width  int64 `json:"width"`
	Height int64 `json:"height"`
}

// Part is an element of a list of structs.
type Part struct {
	Name  string `json:"name"`
	Count int32  `json:"count"`
}

// WidgetStatus is the status, the same in every version.
type WidgetStatus struct {
	Ready   bool   `json:"ready,omitempty"`
	Message string `json:"message,omitempty"`
}

// WidgetList is a list of v1 widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// Hub marks v1 as the hub.
func (*Widget) Hub() {}

// DefaultColor is the color SetDefaultsWidget gives a widget without one.
const DefaultColor = "blue"

// SetDefaultsWidget gives a widget without color DefaultColor and without
// replicas one replica.
func SetDefaultsWidget(w *Widget) {
	if w.Spec.Color == "" {
		w.Spec.Color = DefaultColor
	}
	if w.Spec.Replicas == nil {
		one := int32(1)
		w.Spec.Replicas = &one
	}
}

// WidgetV1beta1 is version v1beta1: colour for color, a flat size.
type WidgetV1beta1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetV1beta1Spec `json:"spec"`
	Status            WidgetStatus      `json:"status,omitempty"`
}

// WidgetV1beta1Spec is v1beta1's spec.
type WidgetV1beta1Spec struct {
	Colour   string            `json:"colour,omitempty"`
	Replicas *int32            `json:"replicas,omitempty"`
	Tags     []string          `json:"tags,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Width    int64             `json:"width"`
	Height   int64             `json:"height"`
	Parts    []Part            `json:"parts,omitempty"`
}

// WidgetV1beta1List is a list of v1beta1 widgets.
type WidgetV1beta1List struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WidgetV1beta1 `json:"items"`
}

// ErrPoison is what conversions answer for a widget whose color is Poison.
var ErrPoison = errors.New("widgets: the color poison does not convert")

// Poison is a color no conversion accepts, to test failed conversions;
// PanicColor is one whose conversion panics.
const (
	Poison     = "poison"
	PanicColor = "panic"
)

func checkColor(c string) error {
	switch c {
	case Poison:
		return ErrPoison
	case PanicColor:
		panic("widgets: converting the color panic")
	}
	return nil
}

// ConvertTo converts to the hub.
func (w *WidgetV1beta1) ConvertTo(dst webhook.Hub) error {
	if err := checkColor(w.Spec.Colour); err != nil {
		return err
	}
	h := dst.(*Widget)
	h.ObjectMeta = w.ObjectMeta
	h.Spec = WidgetSpec{Color: w.Spec.Colour, Replicas: w.Spec.Replicas, Tags: w.Spec.Tags, Selector: w.Spec.Selector,
		Size: Size{Width: w.Spec.Width, Height: w.Spec.Height}, Parts: w.Spec.Parts}
	h.Status = w.Status
	return nil
}

// ConvertFrom converts from the hub.
func (w *WidgetV1beta1) ConvertFrom(src webhook.Hub) error {
	h := src.(*Widget)
	if err := checkColor(h.Spec.Color); err != nil {
		return err
	}
	w.ObjectMeta = h.ObjectMeta
	w.Spec = WidgetV1beta1Spec{Colour: h.Spec.Color, Replicas: h.Spec.Replicas, Tags: h.Spec.Tags, Selector: h.Spec.Selector,
		Width: h.Spec.Size.Width, Height: h.Spec.Size.Height, Parts: h.Spec.Parts}
	w.Status = h.Status
	return nil
}

// WidgetV1alpha1 is version v1alpha1: paint for color, labels for tags.
type WidgetV1alpha1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetV1alpha1Spec `json:"spec"`
	Status            WidgetStatus       `json:"status,omitempty"`
}

// WidgetV1alpha1Spec is v1alpha1's spec.
type WidgetV1alpha1Spec struct {
	Paint    string            `json:"paint,omitempty"`
	Replicas *int32            `json:"replicas,omitempty"`
	Labels   []string          `json:"labels,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Size     Size              `json:"size"`
	Parts    []Part            `json:"parts,omitempty"`
}

// WidgetV1alpha1List is a list of v1alpha1 widgets.
type WidgetV1alpha1List struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WidgetV1alpha1 `json:"items"`
}

// ConvertTo converts to the hub.
func (w *WidgetV1alpha1) ConvertTo(dst webhook.Hub) error {
	if err := checkColor(w.Spec.Paint); err != nil {
		return err
	}
	h := dst.(*Widget)
	h.ObjectMeta = w.ObjectMeta
	h.Spec = WidgetSpec{Color: w.Spec.Paint, Replicas: w.Spec.Replicas, Tags: w.Spec.Labels, Selector: w.Spec.Selector,
		Size: w.Spec.Size, Parts: w.Spec.Parts}
	h.Status = w.Status
	return nil
}

// ConvertFrom converts from the hub.
func (w *WidgetV1alpha1) ConvertFrom(src webhook.Hub) error {
	h := src.(*Widget)
	if err := checkColor(h.Spec.Color); err != nil {
		return err
	}
	w.ObjectMeta = h.ObjectMeta
	w.Spec = WidgetV1alpha1Spec{Paint: h.Spec.Color, Replicas: h.Spec.Replicas, Labels: h.Spec.Tags, Selector: h.Spec.Selector,
		Size: h.Spec.Size, Parts: h.Spec.Parts}
	w.Status = h.Status
	return nil
}

// DeepCopyObject implements runtime.Object through a JSON round trip, which
// is exact for these types.
func (w *Widget) DeepCopyObject() runtime.Object { return deepCopy(w) }

// DeepCopyObject implements runtime.Object.
func (w *WidgetList) DeepCopyObject() runtime.Object { return deepCopy(w) }

// DeepCopyObject implements runtime.Object.
func (w *WidgetV1beta1) DeepCopyObject() runtime.Object { return deepCopy(w) }

// DeepCopyObject implements runtime.Object.
func (w *WidgetV1beta1List) DeepCopyObject() runtime.Object { return deepCopy(w) }

// DeepCopyObject implements runtime.Object.
func (w *WidgetV1alpha1) DeepCopyObject() runtime.Object { return deepCopy(w) }

// DeepCopyObject implements runtime.Object.
func (w *WidgetV1alpha1List) DeepCopyObject() runtime.Object { return deepCopy(w) }
