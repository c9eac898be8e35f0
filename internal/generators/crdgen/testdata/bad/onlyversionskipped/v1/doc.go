// +groupName=onlyversionskipped.example.com

// Package v1 is a bad input: onlyversionskipped.
package v1
