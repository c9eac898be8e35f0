// +k8s:deepcopy-gen=package
// +groupName=example.kgen.dev

// Package v1beta1 is a second version of the example group: a read-only client without status verbs.
package v1beta1
