// Package e2e tests package dynamic and its informer factory against a real kube-apiserver started by
// testenv, with a CRD of its own. It has no code of its own; it is separate so that the runtime's unit
// tests run without the server's binaries.
package e2e
