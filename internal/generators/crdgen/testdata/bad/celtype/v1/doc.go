// +groupName=celtype.example.com

// Package v1 is a bad input: celtype.
package v1
