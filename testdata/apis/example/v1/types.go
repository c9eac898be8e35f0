package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:method=GetScale,verb=get,subresource=scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=UpdateScale,verb=update,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=ApplyScale,verb=apply,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=GetStatus,verb=get,subresource=status
// +genclient:method=CreateReport,verb=create,subresource=report,input=Report,result=Report
// +genclient:method=UpdateReport,verb=update,subresource=report,input=Report,result=Report
// +genclient:method=ListReports,verb=list,subresource=reports,result=Report
// +genclient:method=Touch,verb=patch
// +genclient:method=Rename,verb=create,result=Report
// +genclient:method=ApplyTestType,verb=apply
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:storageversion
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector

// TestType is a namespaced type with status, every standard verb and extension methods.
type TestType struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   TestTypeSpec   `json:"spec,omitempty"`
	Status TestTypeStatus `json:"status,omitempty"`
}

// TestTypeSpec is the desired state of a TestType.
type TestTypeSpec struct {
	Replicas int32  `json:"replicas,omitempty"`
	Message  string `json:"message,omitempty"`
}

// TestTypeStatus is the observed state of a TestType.
type TestTypeStatus struct {
	Replicas int32  `json:"replicas,omitempty"`
	Selector string `json:"selector,omitempty"`
	Phase    string `json:"phase,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// TestTypeList is a list of TestTypes.
type TestTypeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []TestType `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +genclient:method=GetScale,verb=get,subresource=scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=UpdateScale,verb=update,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale
// +genclient:method=CreateReport,verb=create,subresource=report,input=Report,result=Report
// +genclient:method=ListReports,verb=list,result=Report
// +genclient:method=Touch,verb=patch
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector

// ClusterTestType is a cluster-scoped type with status and extension methods.
type ClusterTestType struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   TestTypeSpec   `json:"spec,omitempty"`
	Status TestTypeStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterTestTypeList is a list of ClusterTestTypes.
type ClusterTestTypeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ClusterTestType `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Report has no +genclient tag: it only appears as the input and result of extension methods.
type Report struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Summary string `json:"summary,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ReportList is a list of Reports.
type ReportList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Report `json:"items"`
}
