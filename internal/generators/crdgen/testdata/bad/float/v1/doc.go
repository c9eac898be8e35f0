// +groupName=float.example.com

// Package v1 is a bad input: float.
package v1
