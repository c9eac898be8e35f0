// +k8s:deepcopy-gen=package
// +groupName=shapes.kgen.dev

// Package v1 has a type of every shape deepcopy-gen handles; its deepcopy functions and its scheme
// registration are generated (deepcopy-gen, register-gen).
package v1
