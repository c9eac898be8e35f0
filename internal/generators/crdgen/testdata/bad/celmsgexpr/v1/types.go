package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a kind.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec,omitempty"`
}

// ThingSpec is the spec.
type ThingSpec struct {
	// +kubebuilder:validation:XValidation:rule="self > 1",messageExpression="self +"
	N int32 `json:"n"`
}
