package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Paint is a kind whose v1 renamed v1beta1's colour.
// +kubebuilder:storageversion
type Paint struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PaintSpec `json:"spec,omitempty"`
}

// PaintSpec is the spec.
type PaintSpec struct {
	// +optional
	Color string `json:"color,omitempty"`
	// +optional
	Coats int32 `json:"coats,omitempty"`
}
