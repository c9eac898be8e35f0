// Package e2e runs sharded controller replicas against a real kube-apiserver: shares of the cache,
// convergence, failover, added replicas, and a chaos run of kills, pauses, API server restarts and
// added replicas checked for overlapping reconciles.
package e2e
