// +groupName=celsyntax.example.com

// Package v1 is a bad input: celsyntax.
package v1
