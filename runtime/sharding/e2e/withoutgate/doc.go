// Package withoutgate checks that sharding's probes see through a kube-apiserver running without the
// ShardedListAndWatch feature gate: it ignores shard selectors and says nothing, and neither
// ServerShardingSupported nor SupportsServerMode may take that for support.
package withoutgate
