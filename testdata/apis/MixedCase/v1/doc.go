// +k8s:deepcopy-gen=package
// +groupName=mixedcase.kgen.dev

// Package v1 has a mixed-case import path.
package v1
