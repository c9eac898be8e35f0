// +k8s:deepcopy-gen=package
// +groupName=pointeritems.kgen.dev

// Package v1 declares its list with Items []*T, as istio.io/client-go's APIs do.
package v1
