// Package e2e tests UnstructuredExtractor, and that informers' caches lack the managedFields it needs,
// against a real kube-apiserver started by testenv. It has no code of its own; it is separate so that
// the unit tests run without the server's binaries.
package e2e
