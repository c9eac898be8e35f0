// +k8s:deepcopy-gen=package
// +groupName=hyphen-group.kgen.dev
// +groupGoName=HyphenGroup

// Package v1 is a group whose name is not a Go identifier.
package v1
