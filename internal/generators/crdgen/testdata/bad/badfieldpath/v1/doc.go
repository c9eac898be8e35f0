// +groupName=badfieldpath.example.com

// Package v1 is a bad input: badfieldpath.
package v1
