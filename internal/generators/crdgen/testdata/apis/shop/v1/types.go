package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +genclient
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:resource:shortName=wd;wdg,categories=all;shop
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`,description="the replicas"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp",priority=1,format=date
// +kubebuilder:selectablefield:JSONPath=`.spec.color`
// +kubebuilder:metadata:annotations="example.com/owner=shop",labels="app=shop"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 40",message="name too long"

// Widget is a namespaced kind with every field shape.
//
// It has a second paragraph.
// TODO: this line is dropped.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// Color is a paint color.
// +kubebuilder:validation:Enum=red;green;blue
type Color string

// Phase is the lifecycle phase.
// +k8s:enum
type Phase string

// The phases.
const (
	PhasePending Phase = "Pending"
	PhaseRunning Phase = "Running"
	PhaseDone    Phase = "Done"
)

// Common holds fields embedded in specs.
type Common struct {
	// Owner names who owns the object.
	// +optional
	Owner string `json:"owner,omitempty"`
}

// Port is one exposed port.
type Port struct {
	// Name names the port.
	Name string `json:"name"`
	// Number is the port number.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Number int32 `json:"number"`
	// Protocol is TCP or UDP.
	// +kubebuilder:default=TCP
	// +kubebuilder:validation:Enum=TCP;UDP
	// +optional
	Protocol string `json:"protocol,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
// +kubebuilder:validation:ExactlyOneOf=image;command
// +kubebuilder:validation:XValidation:rule="!has(self.tags) || self.tags.size() < 5",message="too many tags",fieldPath=".tags"
type WidgetSpec struct {
	Common `json:",inline"`

	// Replicas is the desired count.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=1
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Color of the widget.
	// +optional
	Color Color `json:"color,omitempty"`
	// Image runs the widget.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9./:-]+$`
	// +optional
	Image string `json:"image,omitempty"`
	// Command runs instead of an image.
	// +kubebuilder:validation:items:MaxLength=64
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Command []string `json:"command,omitempty"`
	// Ports are keyed by name.
	// +listType=map
	// +listMapKey=name
	// +optional
	Ports []Port `json:"ports,omitempty"`
	// Tags are unique strings.
	// +listType=set
	// +optional
	Tags []string `json:"tags,omitempty"`
	// Labels are free-form.
	// +mapType=atomic
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Size is a quantity.
	// +optional
	Size *resource.Quantity `json:"size,omitempty"`
	// MaxUnavailable is a number or a percentage.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// Timeout is a duration.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
	// Data is opaque bytes.
	// +optional
	Data []byte `json:"data,omitempty"`
	// Extra is any object.
	// +optional
	Extra *runtime.RawExtension `json:"extra,omitempty"`
	// Free is kept as written.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Schemaless
	// +optional
	Free map[string]string `json:"free,omitempty"`
	// Note may be null.
	// +nullable
	// +optional
	Note *string `json:"note,omitempty"`
	// Selector picks pods.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
	// Template is a pod template.
	// +optional
	Template *corev1.PodTemplateSpec `json:"template,omitempty"`
	// Priority is between 1 and 10.
	// +k8s:minimum=1
	// +k8s:maximum=10
	// +k8s:optional
	Priority int64 `json:"priority,omitempty"`
	// ID never changes.
	// +k8s:immutable
	// +k8s:optional
	// +k8s:maxLength=36
	ID string `json:"id,omitempty"`
	// Name must be set.
	// +k8s:required
	Name string `json:"name"`
	// Rule is checked by CEL.
	// +kubebuilder:validation:XValidation:rule="self.startsWith('a')",message="must start with a"
	// +kubebuilder:validation:XValidation:rule="self.size() > 1",messageExpression="'bad: ' + self",reason=FieldValueForbidden
	// +optional
	Rule string `json:"rule,omitempty"`

	internal string
	// Ignored is never serialized.
	Ignored string `json:"-"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// Replicas is the observed count.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// Selector is the label selector of the scale subresource.
	// +optional
	Selector string `json:"selector,omitempty"`
	// Phase is where the widget is.
	// +optional
	Phase Phase `json:"phase,omitempty"`
	// LastUpdate is when the status changed.
	// +optional
	LastUpdate metav1.Time `json:"lastUpdate,omitempty"`
	// Conditions are the standard conditions.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +kubebuilder:storageversion

// Gadget is cluster-scoped and served in two versions.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Size is the gadget's size.
	// +optional
	Size int32 `json:"size,omitempty"`
}

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Gadget `json:"items"`
}
