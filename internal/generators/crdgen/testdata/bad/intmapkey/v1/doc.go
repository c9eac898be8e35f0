// +groupName=intmapkey.example.com

// Package v1 is a bad input: intmapkey.
package v1
