// +groupName=celcostinlist.example.com

// Package v1 is a bad input: celcostinlist, a rule cheap on its own that runs once per element of an
// unbounded list.
package v1
