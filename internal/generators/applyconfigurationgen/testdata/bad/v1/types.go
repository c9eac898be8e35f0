package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +genclient

// Broken has a list with an unknown list type.
type Broken struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BrokenSpec `json:"spec,omitempty"`
}

// BrokenSpec holds the malformed tag.
type BrokenSpec struct {
	// +listType=bogus
	Items []string `json:"items,omitempty"`
}
