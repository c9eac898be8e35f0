// Package e2e holds the end-to-end tests of package events against a real kube-apiserver started by
// testenv. It has no code of its own; it is separate so that the unit tests of package events keep
// their goroutine-leak check in TestMain.
package e2e
