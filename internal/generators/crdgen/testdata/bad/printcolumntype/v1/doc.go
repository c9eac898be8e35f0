// +groupName=printcolumntype.example.com

// Package v1 is a bad input: printcolumntype.
package v1
