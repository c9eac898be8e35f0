// Package e2e tests package discovery and its caches and REST mapper against a real kube-apiserver
// started by testenv. It has no code of its own; it is separate so that the unit tests of package
// discovery run without the server's binaries.
package e2e
