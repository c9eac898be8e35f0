// +k8s:deepcopy-gen=package
// +k8s:defaulter-gen=TypeMeta
// +groupName=stable.example.com

// Package v1 is version v1 of the stable.example.com API group, the version CronTabs are stored in.
package v1
