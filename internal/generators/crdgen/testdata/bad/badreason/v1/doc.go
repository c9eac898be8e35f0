// +groupName=badreason.example.com

// Package v1 is a bad input: badreason.
package v1
