// +groupName=nostorage.example.com

// Package v2 is a bad input: nostorage.
package v2
