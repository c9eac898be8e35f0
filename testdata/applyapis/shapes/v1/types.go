package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Widget is a namespaced type with status whose spec uses every field shape.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// Phase is a named string.
type Phase string

// Tags is a named slice; its own tag makes it a set.
// +listType=set
type Tags []string

// Limits is a named map.
type Limits map[string]resource.Quantity

// WidgetSpec holds one field of each shape.
type WidgetSpec struct {
	// Inline fields are promoted into the spec.
	Common `json:",inline"`

	Phase      Phase                  `json:"phase,omitempty"`
	Count      int32                  `json:"count"`
	Optional   *int64                 `json:"optional,omitempty"`
	Names      []string               `json:"names,omitempty"`
	Tags       Tags                   `json:"tags,omitempty"`
	Limits     Limits                 `json:"limits,omitempty"`
	Labels     map[string]string      `json:"labels,omitempty"`
	Parts      map[string]Part        `json:"parts,omitempty"`
	Pointers   []*Part                `json:"pointers,omitempty"`
	Checksum   [2]int                 `json:"checksum,omitempty"`
	Raw        []byte                 `json:"raw,omitempty"`
	Started    metav1.Time            `json:"started,omitempty"`
	Stopped    *metav1.Time           `json:"stopped,omitempty"`
	Size       resource.Quantity      `json:"size,omitempty"`
	Port       intstr.IntOrString     `json:"port,omitempty"`
	Extension  runtime.RawExtension   `json:"extension,omitempty"`
	Selector   *metav1.LabelSelector  `json:"selector,omitempty"`
	Template   corev1.PodTemplateSpec `json:"template,omitempty"`
	Ref        corev1.ObjectReference `json:"ref,omitempty"`
	Timeout    *metav1.Duration       `json:"timeout,omitempty"`
	Ignored    string                 `json:"-"`
	NoTag      string
	unexported string //nolint:unused // unexported fields are not part of the configuration
	// Parts keyed by name, merged per item.
	// +listType=map
	// +listMapKey=name
	// +listMapKey=kind
	Keyed []Part `json:"keyed,omitempty"`
	// +listType=atomic
	Atomic []Part `json:"atomic,omitempty"`
	// +mapType=atomic
	AtomicMap map[string]string `json:"atomicMap,omitempty"`
	// +structType=granular
	Granular *AtomicPart `json:"granular,omitempty"`
	Merged   []Part      `json:"merged,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

// Common is embedded inline.
type Common struct {
	Owner string `json:"owner,omitempty"`
}

// Part is an item of several lists and maps.
type Part struct {
	Name string `json:"name"`
	// +default="Widget"
	Kind string `json:"kind,omitempty"`
	// +default=ref(DefaultPhase)
	Phase Phase `json:"phase,omitempty"`
}

// DefaultPhase is a Part's phase unless it says otherwise.
const DefaultPhase Phase = "Pending"

// AtomicPart is replaced as a whole by its owner unless a field says otherwise.
// +structType=atomic
type AtomicPart struct {
	A string `json:"a,omitempty"`
	B string `json:"b,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	Phase      Phase              `json:"phase,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Gadget is cluster-scoped without status.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	Widgets []WidgetSpec `json:"widgets,omitempty"`
}

// +genclient
// +genclient:readonly
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Reading is read-only: it gets no apply configuration.
type Reading struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Value string `json:"value,omitempty"`
}

// Unreached is not reachable from any type with an Apply verb.
type Unreached struct {
	Value string `json:"value,omitempty"`
}
