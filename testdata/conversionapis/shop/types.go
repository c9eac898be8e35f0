package shop

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is a thing the shop sells.
type Widget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   WidgetSpec
	Status WidgetStatus
}

// WidgetList is a list of widgets.
type WidgetList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []Widget
}

// WidgetSpec is what a widget should be.
type WidgetSpec struct {
	Size     int32
	Color    Color
	Labels   map[string]string
	Parts    []Part
	Owner    *Owner
	Replicas *int32
	Weight   int64
	Shades   map[string]Color
	Extras   map[string]Extra
	Others   []Extra
	// Summary is Description and Notes of the versions, joined.
	Summary string
	Secret  string
}

// Color is a widget's color.
type Color string

// Part is a component of a widget.
type Part struct {
	Name  string
	Count int64
}

// Owner owns widgets.
type Owner struct {
	Name string
}

// Extra differs from its versioned peer by a field.
type Extra struct {
	Name  string
	Value string
}

// WidgetStatus is what a widget is.
type WidgetStatus struct {
	Phase string
	Ready bool
}

// Swapped has the same fields as its peer, in another order.
type Swapped struct {
	A string
	B string
}

// Unconverted has a peer in v1 that is opted out of conversion.
type Unconverted struct {
	Name string
}
