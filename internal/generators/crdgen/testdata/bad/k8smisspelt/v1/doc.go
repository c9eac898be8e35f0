// +groupName=k8smisspelt.example.com

// Package v1 is a bad input: k8smisspelt.
package v1
