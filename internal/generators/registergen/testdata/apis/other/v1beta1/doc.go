// +k8s:register-gen=true
// +groupName=other.example.com

// Package v1beta1 is documented.
package v1beta1
