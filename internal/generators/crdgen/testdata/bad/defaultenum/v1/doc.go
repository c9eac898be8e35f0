// +groupName=defaultenum.example.com

// Package v1 is a bad input: defaultenum.
package v1
