// +groupName=shop.example.com

// Package v1 is the first version of the shop API.
package v1
