// +groupName=k8sminabovemax.example.com

// Package v1 is a bad input: k8sminabovemax.
package v1
