// +groupName=misplaced.example.com

// Package v1 is a bad input: misplaced.
package v1
