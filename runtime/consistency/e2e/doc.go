// Package e2e tests read-your-writes (runtime/consistency) against a real kube-apiserver started by
// testenv: what typed and dynamic clients record, and a controller that writes and reads its cache at
// once, with and without waiting for its writes. It has no code of its own.
package e2e
