// +groupName=badscope.example.com

// Package v1 is a bad input: badscope.
package v1
