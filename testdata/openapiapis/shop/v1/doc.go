// Package v1 is the openapi-gen golden input: every property shape, tag and rule openapi-gen knows.
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=dev.kgen.testdata.shop.v1
// +groupName=shop.kgen.dev
package v1
