// +groupName=minabovemax.example.com

// Package v1 is a bad input: minabovemax.
package v1
