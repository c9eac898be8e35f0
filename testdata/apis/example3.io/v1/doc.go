// +k8s:deepcopy-gen=package
// +groupName=example3.io

// Package v1 lives in a directory whose name contains a dot.
package v1
