// +groupName=celmsgexpr.example.com

// Package v1 is a bad input: celmsgexpr.
package v1
