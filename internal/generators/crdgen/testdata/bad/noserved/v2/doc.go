// +groupName=noserved.example.com

// Package v2 is a bad input: noserved.
package v2
