// Package sharded tests informers restricted by client-go 1.38's shard selectors
// (cache.SharedInformer.SetShardSelector, the factories' WithShardSelector) against real
// kube-apiservers, one with the ShardedListAndWatch feature gate and one without: either way each
// shard's informers cache exactly its objects, filtered by the server with the gate and by the
// informers without it. It has no code of its own.
package sharded
