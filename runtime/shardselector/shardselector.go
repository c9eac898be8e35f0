// Package shardselector builds the shard selectors that informers restrict themselves with
// (cache.SharedInformer.SetShardSelector, cache.NewShardedListWatch, the factories'
// WithShardSelector). The selectors are k8s.io/apimachinery/pkg/sharding's, the type client-go 1.38
// takes; this package adds what apimachinery 1.38 adds to build them, for as long as kgen requires
// apimachinery 1.37, and then its names become aliases of apimachinery's.
package shardselector

import (
	"fmt"
	"math/bits"

	"k8s.io/apimachinery/pkg/sharding"
)

// Fields a shard selector may hash: the API server places an object by the 64-bit FNV-1a hash of one
// of them.
const (
	UIDField       = "object.metadata.uid"
	NamespaceField = "object.metadata.namespace"
)

// NewShardRangeSelector returns the selector of shard shardIndex of totalShards: the hash space of
// key (UIDField or NamespaceField) cut into totalShards contiguous ranges of equal width, so that the
// selectors of shards 0 to totalShards-1 select every object exactly once. It is apimachinery 1.38's
// sharding.NewShardRangeSelector.
func NewShardRangeSelector(key string, shardIndex, totalShards int) (sharding.Selector, error) {
	if key != UIDField && key != NamespaceField {
		return nil, fmt.Errorf("shard key %q is not supported; use %s or %s", key, UIDField, NamespaceField)
	}
	if totalShards <= 0 {
		return nil, fmt.Errorf("the number of shards must be positive, not %d", totalShards)
	}
	if shardIndex < 0 || shardIndex >= totalShards {
		return nil, fmt.Errorf("shard index %d is outside [0, %d)", shardIndex, totalShards)
	}
	return sharding.NewSelector(sharding.ShardRangeRequirement{
		Key:   key,
		Start: boundary(shardIndex, totalShards),
		End:   boundary(shardIndex+1, totalShards),
	}), nil
}

// boundary is the hash where shard i of n starts, i/n of the way through the 2^64 hashes, in the
// selector's hex notation; boundary(n, n) is 2^64, the end of the space.
func boundary(i, n int) string {
	if i == n {
		return "0x10000000000000000"
	}
	start, _ := bits.Div64(uint64(i), 0, uint64(n))
	return fmt.Sprintf("0x%016x", start)
}
