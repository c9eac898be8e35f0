// +groupName=nonintegral.example.com

// Package v1 is a bad input: nonintegral.
package v1
