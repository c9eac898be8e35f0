// +groupName=noserved.example.com

// Package v1 is a bad input: noserved.
package v1
