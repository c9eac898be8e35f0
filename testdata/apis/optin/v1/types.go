package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +k8s:deepcopy-gen=true
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Picked opts in.
type Picked struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Values []string `json:"values"`
}

// +k8s:deepcopy-gen=true

// Names opts in: a named slice.
type Names []string

// NotPicked has no tag: it gets no functions.
type NotPicked struct {
	Values []string `json:"values"`
}
