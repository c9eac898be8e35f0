// Package v1 opts out of applyconfiguration-gen.
// +groupName=optout.kgen.dev
// +k8s:applyconfiguration-gen=false
package v1
