// +groupName=misspelt.example.com

// Package v1 is a bad input: misspelt.
package v1
