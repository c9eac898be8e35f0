// Package e2e checks the client-go bridge against a real kube-apiserver and etcd: libraries typed
// on client-go, handed values built from kgen configs, do their work on the server.
package e2e
