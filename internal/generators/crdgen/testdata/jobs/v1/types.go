package v1

import (
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/internal/generators/crdgen/testdata/jobs/shared"
)

// Runner runs a job.
type Runner struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RunnerSpec `json:"spec"`
}

// RunnerSpec is what a Runner runs.
type RunnerSpec struct {
	// Template is the job to run.
	Template batchv1.JobTemplateSpec `json:"template"`
	// Settings are the runner's settings.
	// +optional
	Settings shared.Settings `json:"settings,omitempty"`
	// Target names the object the runner reports to.
	// +optional
	Target *Target `json:"target,omitempty"`
}

// Reference names an object; it is replaced whole.
// +structType=atomic
type Reference struct {
	// Name is the object's name.
	// +optional
	Name string `json:"name,omitempty"`
}

// Target embeds a Reference inline, and so is replaced whole too.
type Target struct {
	Reference `json:",inline"`
	// Kind is the object's kind.
	// +optional
	Kind string `json:"kind,omitempty"`
}
