// +k8s:defaulter-gen=TypeMeta
// +k8s:defaulter-gen-input=github.com/kgen-dev/kgen/testdata/defaults/v1

// Package v1input holds object defaulters for the types of package v1 (+k8s:defaulter-gen-input), as
// Kubernetes keeps the defaulters of k8s.io/api's types apart from the types.
package v1input
