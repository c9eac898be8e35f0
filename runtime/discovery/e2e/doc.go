// Package e2e tests package discovery, its caches and REST mapper, and the OpenAPI clients it hands out
// (runtime/openapi, runtime/openapi3) against a real kube-apiserver started by testenv. It has no code of
// its own; it is separate so that the unit tests of package discovery run without the server's binaries.
package e2e
