package v1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Shop is a shop.
//
// It sells widgets.
//
//	An indented line stays on its own line.
//
// TODO: this line is dropped.
// ---
// Everything after the separator is dropped.
// +k8s:openapi-gen=x-kubernetes-shop-kind:retail
type Shop struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	Spec ShopSpec `json:"spec"`
	// Status is the observed state.
	// +optional
	Status *ShopStatus `json:"status,omitempty"`
}

// ShopList is a list of shops.
type ShopList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Shop `json:"items"`
}

// Mode is how a shop opens.
// +enum
type Mode string

const (
	// ModeDay opens by day.
	ModeDay Mode = "Day"
	// ModeNight opens
	// by night.
	ModeNight Mode = "Night"
)

// DefaultReplicas is the default number of counters.
const DefaultReplicas = 2

// ShopSpec is the desired state of a shop.
type ShopSpec struct {
	// Mode is the opening mode.
	// +default="Day"
	// +optional
	Mode Mode `json:"mode,omitempty"`
	// Counters is the number of counters.
	// +default=ref(DefaultReplicas)
	// +optional
	Counters *int32 `json:"counters,omitempty"`
	// Size as a string.
	Size int64 `json:"size,string"`
	// Skipped is not on the wire.
	Skipped string `json:"-"`
	// Shelves are keyed by name.
	// +listType=map
	// +listMapKey=name
	// +listMapKey=aisle
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +optional
	Shelves []Shelf `json:"shelves,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// Labels are atomic.
	// +mapType=atomic
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Tags are a set.
	// +listType=set
	Tags []string `json:"tags"`
	// Matrix is a list of lists.
	// +listType=atomic
	// +optional
	Matrix [][]int32 `json:"matrix,omitempty"`
	// Groups map names to members.
	// +optional
	Groups map[string][]Shelf `json:"groups,omitempty"`
	// Payload is raw bytes.
	// +optional
	Payload []byte `json:"payload,omitempty"`
	// Anything holds any value.
	// +optional
	Anything interface{} `json:"anything,omitempty"`
	// OpenedAt is a time.
	OpenedAt time.Time `json:"openedAt"`
	// Since is an apimachinery time.
	// +optional
	Since metav1.Time `json:"since,omitempty"`
	// Port is a number or a name.
	// +optional
	Port intstr.IntOrString `json:"port,omitempty"`
	// Owner is required although it omits empty.
	// +required
	Owner string `json:"owner,omitempty"`
	// Ratio is a float.
	Ratio float64 `json:"ratio"`
	// Open is a flag.
	Open bool `json:"open"`
	// Hidden is left out.
	// +k8s:openapi-gen=false
	Hidden string `json:"hidden"`
	// NoTag has no json tag.
	NoTag string
	// Bad_Name breaks the names rule.
	Bad_Name string `json:"bad_name,omitEmpty"`
	// Aliases miss their list type.
	// +optional
	Aliases []string `json:"aliases,omitempty"`
	// Modes are enums.
	// +listType=set
	Modes   []Mode `json:"modes"`
	Address `json:",inline"`
	// Policy is atomic as a whole.
	// +structType=atomic
	// +optional
	Policy *Policy `json:"policy,omitempty"`
}

// Address is inlined into ShopSpec.
type Address struct {
	// Street of the shop.
	Street string `json:"street"`
}

// Shelf is one shelf.
type Shelf struct {
	// Name of the shelf.
	Name string `json:"name"`
	// Aisle of the shelf.
	Aisle int32 `json:"aisle"`
}

// Policy is a policy.
type Policy struct {
	// Rules are free text.
	// +listType=atomic
	Rules []string `json:"rules"`
}

// ShopStatus is the observed state of a shop.
// +k8s:openapi-model-package=dev.kgen.testdata.override
type ShopStatus struct {
	// Conditions of the shop.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// internalNote is linted but not listed.
type internalNote struct {
	Text string `json:"text"`
}

// Excluded opts out of definitions.
// +k8s:openapi-gen=false
type Excluded struct {
	A string `json:"a"`
}
