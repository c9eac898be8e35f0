// +groupName=twostorage.example.com

// Package v1 is a bad input: twostorage.
package v1
