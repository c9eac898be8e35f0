package sharding

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Fields a server-side shard selector (KEP-5866, kube-apiserver 1.36+ behind the ShardedListAndWatch
// feature gate) may hash.
const (
	UIDField       = "object.metadata.uid"
	NamespaceField = "object.metadata.namespace"
)

// HashRange is a range of the 64-bit FNV-1a hash space the API server's shard selectors use: from
// Start, inclusive, to End, exclusive, where End zero with Start non-zero means up to 2^64 (the end of
// the space) and {0, 0} means the whole space.
type HashRange struct {
	Start, End uint64
}

func (h HashRange) endHex() string {
	if h.End == 0 {
		return "0x10000000000000000"
	}
	return fmt.Sprintf("0x%016x", h.End)
}

// ServerHash is the hash the API server places an object by for a shard selector on field: 64-bit
// FNV-1a of the field's value (the object's UID or namespace).
func ServerHash(value string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(value))
	return h.Sum64()
}

// ServerRanges returns the arcs of the hash space member owns on r when keys are placed by their
// ServerHash rather than by Owner's own hash, merged where adjacent and sorted; nil if member is not on
// the ring. Every point of the space belongs to exactly one member's ranges.
func (r *Ring) ServerRanges(member string) []HashRange {
	if len(r.points) == 0 {
		return nil
	}
	if len(r.members) == 1 {
		if r.members[0] != member {
			return nil
		}
		return []HashRange{{}}
	}
	var out []HashRange
	add := func(start, end uint64) { // [start, end), end 0 meaning 2^64
		if start == end && end != 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].End == start && start != 0 {
			out[n-1].End = end
			return
		}
		out = append(out, HashRange{Start: start, End: end})
	}
	// The first point owns (last point, 2^64) and [0, first point]; point i owns (point i-1, point i].
	if r.points[0].member == member {
		add(0, r.points[0].hash+1)
	}
	for i := 1; i < len(r.points); i++ {
		if r.points[i].member == member {
			add(r.points[i-1].hash+1, r.points[i].hash+1)
		}
	}
	if r.points[0].member == member && r.points[len(r.points)-1].hash != ^uint64(0) {
		add(r.points[len(r.points)-1].hash+1, 0)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// ServerOwner returns the member a key with the given ServerHash belongs to; it agrees with
// ServerRanges.
func (r *Ring) ServerOwner(hash uint64) string {
	if len(r.points) == 0 {
		return ""
	}
	i := sort.Search(len(r.points), func(i int) bool { return r.points[i].hash >= hash })
	if i == len(r.points) {
		i = 0
	}
	return r.points[i].member
}

// ShardSelector renders ranges of field's hash as a server-side shard selector, the value of
// metav1.ListOptions.ShardSelector. Keep the number of ranges small (a ring of few virtual nodes):
// the selector travels in the request's URL.
func ShardSelector(field string, ranges []HashRange) string {
	parts := make([]string, len(ranges))
	for i, h := range ranges {
		parts[i] = fmt.Sprintf("shardRange(%s, '0x%016x', '%s')", field, h.Start, h.endHex())
	}
	return strings.Join(parts, " || ")
}

// ListFunc lists a collection, as a typed or dynamic client's List does.
type ListFunc func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)

// ServerShardingSupported asks the server whether it honours shard selectors on a collection: it
// lists one object with a selector over half of the hash space and reports whether the response
// carries shard info. A server without the feature (or with its gate off) ignores the parameter and
// would hand every object to every replica, so callers must check before relying on it.
//
// Use a typed or dynamic client: kube-apiserver 1.37 drops shard info from metadata-only
// (PartialObjectMetadataList) responses and from custom resources' lists, so for those this reports
// false even though the server filters.
func ServerShardingSupported(ctx context.Context, list ListFunc) (bool, error) {
	sel := ShardSelector(UIDField, []HashRange{{Start: 0, End: 1 << 63}})
	obj, err := list(ctx, metav1.ListOptions{ShardSelector: sel, Limit: 1})
	if err != nil {
		return false, fmt.Errorf("sharding: probing for server-side shard selectors: %w", err)
	}
	switch l := obj.(type) {
	case interface{ GetShardInfo() *metav1.ShardInfo }:
		info := l.GetShardInfo()
		return info != nil && info.Selector != "", nil
	case *unstructured.UnstructuredList:
		got, _, _ := unstructured.NestedString(l.Object, "metadata", "shardInfo", "selector")
		return got != "", nil
	}
	return false, nil
}
