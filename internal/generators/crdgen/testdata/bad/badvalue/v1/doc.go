// +groupName=badvalue.example.com

// Package v1 is a bad input: badvalue.
package v1
