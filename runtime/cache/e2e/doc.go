// Package e2e tests package cache against a real kube-apiserver started by testenv: a shared informer
// converges on what the server holds while objects change and the server restarts, with streaming lists
// and with list-and-watch. It has no code of its own; it is separate so that the unit tests of package
// cache run without the server's binaries.
package e2e
