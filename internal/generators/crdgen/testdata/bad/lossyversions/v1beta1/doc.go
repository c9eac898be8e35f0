// +groupName=lossy.example.com

// Package v1beta1 is a bad input: versions with different fields and no conversion webhook.
package v1beta1
