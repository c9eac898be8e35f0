// +k8s:deepcopy-gen=package
// +groupName=example.kgen.dev

// Package v1 is the v1 version of the example test API: every verb option and extension method shape.
package v1
