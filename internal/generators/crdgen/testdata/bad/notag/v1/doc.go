// +groupName=notag.example.com

// Package v1 is a bad input: notag.
package v1
