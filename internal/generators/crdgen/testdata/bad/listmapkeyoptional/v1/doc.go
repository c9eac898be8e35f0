// +groupName=listmapkeyoptional.example.com

// Package v1 is a bad input: listmapkeyoptional.
package v1
