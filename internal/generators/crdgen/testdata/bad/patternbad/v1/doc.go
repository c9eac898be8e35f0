// +groupName=patternbad.example.com

// Package v1 is a bad input: patternbad.
package v1
