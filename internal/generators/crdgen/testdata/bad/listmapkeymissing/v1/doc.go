// +groupName=listmapkeymissing.example.com

// Package v1 is a bad input: listmapkeymissing.
package v1
