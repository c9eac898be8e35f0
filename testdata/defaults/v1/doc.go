// +k8s:deepcopy-gen=package
// +k8s:defaulter-gen=TypeMeta

// Package v1 exercises defaulter-gen: object defaulters for types with TypeMeta and types switched on,
// hand-written SetDefaults_ functions here and in a peer package, and +default values of every kind.
package v1
