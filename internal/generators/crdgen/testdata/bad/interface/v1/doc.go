// +groupName=interface.example.com

// Package v1 is a bad input: interface.
package v1
