// Package e2e tests the generated built-in clientset, listers and informers, their hand-written
// expansions and leader election on their Lease client against a real kube-apiserver started by testenv.
// It has no code of its own; it is separate so that the unit tests of the generated code run without the
// server's binaries.
package e2e
