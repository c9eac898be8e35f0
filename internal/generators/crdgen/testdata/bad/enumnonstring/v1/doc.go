// +groupName=enumnonstring.example.com

// Package v1 is a bad input: enumnonstring.
package v1
