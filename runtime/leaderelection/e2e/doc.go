// Package e2e tests leader election against a real kube-apiserver: hand-over on release, take-over
// after a lease expires, and stepping down when the server goes away.
package e2e
