// +k8s:deepcopy-gen=package
// +groupName=example2.kgen.dev
// +groupGoName=SecondExample

// Package v1 is a second group with a custom Go name, verb selections, a resource name override and a
// plural exception.
package v1
