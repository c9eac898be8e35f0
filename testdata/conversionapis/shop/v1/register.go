package v1

import "k8s.io/apimachinery/pkg/runtime"

var (
	// SchemeBuilder collects the functions that add this version to a scheme.
	SchemeBuilder      runtime.SchemeBuilder
	localSchemeBuilder = &SchemeBuilder
	// AddToScheme adds this version's conversions to a scheme.
	AddToScheme = localSchemeBuilder.AddToScheme
)
