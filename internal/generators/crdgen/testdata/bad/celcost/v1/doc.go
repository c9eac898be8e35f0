// +groupName=celcost.example.com

// Package v1 is a bad input: celcost.
package v1
