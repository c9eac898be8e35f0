// +groupName=batch.example.com

// Package v1 carries controller-gen's webhook markers in the places kubebuilder projects put them.
package v1
