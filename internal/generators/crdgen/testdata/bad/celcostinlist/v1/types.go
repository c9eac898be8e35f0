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
	Entries []Entry `json:"entries"`
}

// Entry is one entry.
// +kubebuilder:validation:XValidation:rule="self.name.matches('^[a-z]+$')"
type Entry struct {
	// +kubebuilder:validation:MaxLength=1000
	Name string `json:"name"`
}
