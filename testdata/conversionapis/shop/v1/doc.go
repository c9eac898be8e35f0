// +k8s:conversion-gen=github.com/kgen-dev/kgen/testdata/conversionapis/shop
// +groupName=shop.example.com

// Package v1 is the v1 version of the shop API.
package v1
