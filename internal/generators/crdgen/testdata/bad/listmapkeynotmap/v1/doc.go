// +groupName=listmapkeynotmap.example.com

// Package v1 is a bad input: listmapkeynotmap.
package v1
