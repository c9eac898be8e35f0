package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is a thing the shop sells.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec"`
	Status            WidgetStatus `json:"status"`
}

// WidgetList is a list of widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// WidgetSpec is what a widget should be.
type WidgetSpec struct {
	Size     int32             `json:"size"`
	Color    Color             `json:"color"`
	Labels   map[string]string `json:"labels"`
	Parts    []Part            `json:"parts"`
	Owner    *Owner            `json:"owner"`
	Replicas *int32            `json:"replicas"`
	// Weight is in grams, an int32 here and an int64 in the hub.
	Weight int32            `json:"weight"`
	Shades map[string]Color `json:"shades"`
	Extras map[string]Extra `json:"extras"`
	Others []Extra          `json:"others"`
	// Description and Notes make up the hub's Summary: the hand-written conversions join and split them.
	Description string `json:"description"`
	Notes       string `json:"notes"`
	// Secret is never converted from this version.
	// +k8s:conversion-gen=false
	Secret string `json:"-"`
}

// Color is a widget's color.
type Color string

// Part is a component of a widget.
type Part struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// Owner owns widgets.
type Owner struct {
	Name string `json:"name"`
}

// Extra differs from its hub peer by a field: the hand-written conversions map Key to Name.
type Extra struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// WidgetStatus is what a widget is.
type WidgetStatus struct {
	Phase string `json:"phase"`
	Ready bool   `json:"ready"`
}

// Swapped has the hub's fields in another order: they have the same memory layout, but are converted by
// name.
type Swapped struct {
	B string `json:"b"`
	A string `json:"a"`
}

// Unconverted is opted out of conversion generation, although the hub has a peer of its name.
//
// +k8s:conversion-gen=false
type Unconverted struct {
	Name string `json:"name"`
}

// QueryOptions are read from query parameters.
//
// +k8s:conversion-gen:explicit-from=net/url.Values
type QueryOptions struct {
	Name    string   `json:"name"`
	Limit   int64    `json:"limit"`
	Verbose bool     `json:"verbose"`
	Tags    []string `json:"tags"`
	Skipped string
}
