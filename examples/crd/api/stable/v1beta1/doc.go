// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=example.com/crd/api/stable/v1
// +groupName=stable.example.com

// Package v1beta1 is version v1beta1 of the stable.example.com API group: CronTabs as they were before
// v1, with the schedule in spec.schedule (spec.cronSpec in v1). The API server converts between the two
// through the conversion webhook, with conversion-gen's functions and the hand-written ones of
// conversion.go.
package v1beta1
