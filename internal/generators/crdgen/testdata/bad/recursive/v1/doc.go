// +groupName=recursive.example.com

// Package v1 is a bad input: recursive.
package v1
