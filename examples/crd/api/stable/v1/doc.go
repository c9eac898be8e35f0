// +k8s:deepcopy-gen=package
// +groupName=stable.example.com

// Package v1 is version v1 of the stable.example.com API group.
package v1
