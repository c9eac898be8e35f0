// Package e2e tests package gentype's typed client against a real kube-apiserver started by testenv:
// every verb, list and watch timeouts, apply, subresources, cluster-scoped resources and protobuf. It has
// no code of its own; it is separate so that the runtime's unit tests run without the server's binaries.
package e2e
