// +groupName=defaultbelowmin.example.com

// Package v1 is a bad input: defaultbelowmin.
package v1
