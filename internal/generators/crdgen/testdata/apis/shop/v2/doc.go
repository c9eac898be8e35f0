// +groupName=shop.example.com
// +kubebuilder:validation:Optional

// Package v2 is the second version of the shop API; its fields are optional unless marked required.
package v2
