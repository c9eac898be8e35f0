// +groupName=statusnofield.example.com

// Package v1 is a bad input: statusnofield.
package v1
