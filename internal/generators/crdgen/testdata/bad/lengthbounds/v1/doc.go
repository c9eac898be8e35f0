// +groupName=lengthbounds.example.com

// Package v1 is a bad input: lengthbounds.
package v1
