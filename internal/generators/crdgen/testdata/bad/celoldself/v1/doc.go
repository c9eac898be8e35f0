// +groupName=celoldself.example.com

// Package v1 is a bad input: celoldself.
package v1
