// Package e2e tests package rest against a real kube-apiserver started by testenv: CRUD in JSON and
// protobuf, every patch type, watches, and RBAC and authentication failures. It has no code of its own;
// it is separate so that the unit tests of package rest run without the server's binaries.
package e2e
