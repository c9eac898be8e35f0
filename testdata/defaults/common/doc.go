// +k8s:deepcopy-gen=package

// Package common is a peer package of the defaulting test API: its SetDefaults_ functions are called
// from v1's object defaulters when defaulter-gen is given it with --extra-peer-dirs.
package common
