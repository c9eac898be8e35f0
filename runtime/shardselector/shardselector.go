// Package shardselector builds the shard selectors that informers restrict themselves with
// (cache.SharedInformer.SetShardSelector, cache.NewShardedListWatch, the factories'
// WithShardSelector) and reads a list response's account of the selector the server applied. The
// selectors are k8s.io/apimachinery/pkg/sharding's, the type client-go 1.38 takes.
// NewShardRangeSelector and the field names are what apimachinery 1.38 adds, here for as long as kgen
// requires apimachinery 1.37, and then they become aliases of apimachinery's; NewRangeRequirement
// (the arbitrary ranges runtime/sharding's server mode selects) and Echoed are kgen's own.
package shardselector

import (
	"fmt"
	"math/bits"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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
	return sharding.NewSelector(NewRangeRequirement(key, boundary(shardIndex, totalShards), boundary(shardIndex+1, totalShards))), nil
}

// NewRangeRequirement returns the requirement that the hash of key (UIDField or NamespaceField) fall
// in [start, end), in the selector's hex notation; an end of 0 stands for 2^64, the end of the hash
// space, so {0, 0} is the whole space. A selector of several requirements selects an object in any
// of them.
func NewRangeRequirement(key string, start, end uint64) sharding.ShardRangeRequirement {
	r := sharding.ShardRangeRequirement{Key: key, Start: fmt.Sprintf("0x%016x", start), End: "0x10000000000000000"}
	if end != 0 {
		r.End = fmt.Sprintf("0x%016x", end)
	}
	return r
}

// boundary is the hash where shard i of n starts, i/n of the way through the 2^64 hashes;
// boundary(n, n), 2^64, wraps to 0, which NewRangeRequirement reads as the end of the space.
func boundary(i, n int) uint64 {
	if i == n {
		return 0
	}
	start, _ := bits.Div64(uint64(i), 0, uint64(n))
	return start
}

// Echoed returns the shard selector a list response says the server applied (its shardInfo), and
// whether it says so. A server without the ShardedListAndWatch feature gate, or one that filters
// without saying so, sends no shardInfo.
func Echoed(list runtime.Object) (selector string, ok bool) {
	if l, ok := list.(metav1.ShardedListInterface); ok {
		if info := l.GetShardInfo(); info != nil {
			return info.Selector, true
		}
		return "", false
	}
	if u, ok := list.(*unstructured.UnstructuredList); ok {
		// apimachinery before 1.38 has no accessor for an unstructured list's shard info.
		field, _, _ := unstructured.NestedFieldNoCopy(u.Object, "metadata", "shardInfo")
		info, ok := field.(map[string]any)
		if !ok {
			return "", false
		}
		selector, _ := info["selector"].(string)
		return selector, true
	}
	return "", false
}
