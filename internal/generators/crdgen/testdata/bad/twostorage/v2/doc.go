// +groupName=twostorage.example.com

// Package v2 is a bad input: twostorage.
package v2
