// +groupName=oneofmissing.example.com

// Package v1 is a bad input: oneofmissing.
package v1
