// Package serverside checks kgen's use of the API server's own sharded list and watch (KEP-5866) on a
// kube-apiserver started with the ShardedListAndWatch feature gate: detection through the list's
// shard info, and that the ranges of a ring's members split a collection exactly.
package serverside
