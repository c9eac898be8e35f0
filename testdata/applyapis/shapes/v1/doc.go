// Package v1 is an API package for applyconfiguration-gen's golden tests: its types use every field
// shape and tag the generator maps.
// +groupName=shapes.kgen.dev
// +k8s:deepcopy-gen=package
package v1
