// +groupName=missingarg.example.com

// Package v1 is a bad input: missingarg.
package v1
