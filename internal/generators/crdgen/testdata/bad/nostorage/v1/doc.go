// +groupName=nostorage.example.com

// Package v1 is a bad input: nostorage.
package v1
