// +groupName=pathcontradicts.example.com

// Package v1 is a bad input: pathcontradicts.
package v1
