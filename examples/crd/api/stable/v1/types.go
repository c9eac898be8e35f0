package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:shortName=ct
// +kubebuilder:storageversion
// +kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=`.spec.cronSpec`
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`

// CronTab runs an image on a cron schedule.
type CronTab struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CronTabSpec   `json:"spec,omitempty"`
	Status CronTabStatus `json:"status,omitempty"`
}

// CronTabSpec is the desired state of a CronTab.
type CronTabSpec struct {
	// CronSpec is the schedule in cron syntax.
	// +kubebuilder:validation:MinLength=1
	CronSpec string `json:"cronSpec"`
	// Image is the container image to run.
	Image string `json:"image"`
	// Replicas is how many copies run at a time; the defaulting webhook sets 1 when it is unset (zero).
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
}

// CronTabStatus is the observed state of a CronTab.
type CronTabStatus struct {
	// LastScheduleTime is when the job last ran.
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`
	// CronJobName names the batch/v1 CronJob that runs this CronTab.
	CronJobName string `json:"cronJobName,omitempty"`
	// ObservedGeneration is the generation of the spec the CronJob was last brought in line with.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CronTabList is a list of CronTabs.
type CronTabList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []CronTab `json:"items"`
}
