// +groupName=costbounded.example.com

// Package v1 is a good input: celcostinlist with its list bounded by maxItems, so its rule, cheap once,
// runs at most ten times.
package v1
