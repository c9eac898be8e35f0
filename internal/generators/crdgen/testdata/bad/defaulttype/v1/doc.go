// +groupName=defaulttype.example.com

// Package v1 is a bad input: defaulttype.
package v1
