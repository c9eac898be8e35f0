// +groupName=patternint.example.com

// Package v1 is a bad input: patternint.
package v1
