package v1

import "k8s.io/apimachinery/pkg/runtime"

func init() {
	// RegisterDefaults is defaulter-gen's (zz_generated.defaults.go); registered here, as code-generator's
	// packages do, so that the package compiles without its generated files.
	localSchemeBuilder.Register(addDefaultingFuncs)
}

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_CronTabSpec runs one copy when replicas is unset. It is a function rather than a +default
// tag on the field because a +default also becomes the CRD schema's default, which the API server applies
// itself; here the mutating webhook applies it (Replicas is omitempty, so unset and zero are the same).
func SetDefaults_CronTabSpec(spec *CronTabSpec) {
	if spec.Replicas == 0 {
		spec.Replicas = 1
	}
}
