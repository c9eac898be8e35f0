package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Camel is a test type.
type Camel struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CamelSpec   `json:"spec,omitempty"`
	Status CamelStatus `json:"status,omitempty"`
}

// CamelSpec is the desired state of a Camel.
type CamelSpec struct {
	Size int32 `json:"size,omitempty"`
}

// CamelStatus is the observed state of a Camel.
type CamelStatus struct {
	Ready bool `json:"ready,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CamelList is a list of Camels.
type CamelList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Camel `json:"items"`
}
