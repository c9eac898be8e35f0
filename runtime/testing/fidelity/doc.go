// Package fidelity measures how faithfully runtime/testing's ObjectTracker imitates the API server: its
// tests run the same scenarios against the tracker and a real kube-apiserver and require equal outcomes.
package fidelity
