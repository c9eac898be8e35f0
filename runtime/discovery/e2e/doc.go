// Package e2e holds end-to-end tests of package discovery and of the OpenAPI clients it hands out
// (runtime/openapi, runtime/openapi3) against a real kube-apiserver started by testenv. It has no
// code of its own.
package e2e
