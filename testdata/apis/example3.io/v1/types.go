package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Dotted is a test type.
type Dotted struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   DottedSpec   `json:"spec,omitempty"`
	Status DottedStatus `json:"status,omitempty"`
}

// DottedSpec is the desired state of a Dotted.
type DottedSpec struct {
	Size int32 `json:"size,omitempty"`
}

// DottedStatus is the observed state of a Dotted.
type DottedStatus struct {
	Ready bool `json:"ready,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DottedList is a list of Dotteds.
type DottedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Dotted `json:"items"`
}
