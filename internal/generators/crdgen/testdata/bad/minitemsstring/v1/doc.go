// +groupName=minitemsstring.example.com

// Package v1 is a bad input: minitemsstring.
package v1
