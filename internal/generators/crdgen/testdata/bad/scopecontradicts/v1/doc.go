// +groupName=scopecontradicts.example.com

// Package v1 is a bad input: scopecontradicts.
package v1
