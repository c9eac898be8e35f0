package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Paint is a kind.
type Paint struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PaintSpec `json:"spec,omitempty"`
}

// PaintSpec is the spec.
type PaintSpec struct {
	// +optional
	Colour string `json:"colour,omitempty"`
	// +optional
	Coats string `json:"coats,omitempty"`
}
