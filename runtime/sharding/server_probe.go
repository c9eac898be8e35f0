package sharding

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apisharding "k8s.io/apimachinery/pkg/sharding"

	"github.com/kgen-dev/kgen/runtime/shardselector"
)

// Fields a server-side shard selector (KEP-5866, kube-apiserver 1.36+ behind the ShardedListAndWatch
// feature gate, on by default from 1.38) may hash.
const (
	UIDField       = shardselector.UIDField
	NamespaceField = shardselector.NamespaceField
)

// HashRange is a range of the 64-bit FNV-1a hash space the API server's shard selectors use: from
// Start, inclusive, to End, exclusive, where End zero with Start non-zero means up to 2^64 (the end of
// the space) and {0, 0} means the whole space.
type HashRange struct {
	Start, End uint64
}

// ServerHash is the hash the API server places an object by for a shard selector on field: 64-bit
// FNV-1a of the field's value (the object's UID or namespace).
func ServerHash(value string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(value))
	return h.Sum64()
}

// ShardSelector renders ranges of field's hash as a server-side shard selector, the value of
// metav1.ListOptions.ShardSelector. Keep the number of ranges small: the selector travels in the
// request's URL (a Partition member's ranges are few).
func ShardSelector(field string, ranges []HashRange) string {
	return rangeSelector(field, ranges).String()
}

// rangeSelector returns the selector of the objects whose hash of field falls in any of ranges.
func rangeSelector(field string, ranges []HashRange) apisharding.Selector {
	reqs := make([]apisharding.ShardRangeRequirement, len(ranges))
	for i, h := range ranges {
		reqs[i] = shardselector.NewRangeRequirement(field, h.Start, h.End)
	}
	return apisharding.NewSelector(reqs...)
}

// ListFunc lists a collection, as a typed, dynamic or metadata client's List does.
type ListFunc func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)

// ErrUnprovable is returned by ServerShardingSupported for an empty collection whose lists carry no
// shard info: with no object to leave out, a filtered list cannot be told from an ignored selector.
var ErrUnprovable = errors.New("sharding: an empty collection whose lists carry no shard info cannot show whether the server filters it")

// ServerShardingSupported asks the server whether it filters a collection by shard selectors on
// field (UIDField or NamespaceField). A server without the feature (or with its gate off) ignores the
// parameter and would hand every object to every replica, so callers must check before relying on it.
//
// A list whose response carries shard info answers yes: kube-apiserver 1.38 echoes it on every list
// its selector filtered, 1.37 only on typed lists of built-in kinds. For a list without it (1.37's
// custom resources and metadata-only lists, or a server that ignores the selector) the probe lists
// one object, then lists again with a selector covering every hash but that object's: getting the
// object back means the selector was ignored. An empty collection without shard info gives
// ErrUnprovable.
func ServerShardingSupported(ctx context.Context, field string, list ListFunc) (bool, error) {
	probe := func(opts metav1.ListOptions) (runtime.Object, []metav1.Object, error) {
		obj, err := list(ctx, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("sharding: probing for server-side shard selectors: %w", err)
		}
		items, err := meta.ExtractList(obj)
		if err != nil {
			return nil, nil, fmt.Errorf("sharding: probing for server-side shard selectors: %w", err)
		}
		objs := make([]metav1.Object, 0, len(items))
		for _, item := range items {
			if o, err := meta.Accessor(item); err == nil {
				objs = append(objs, o)
			}
		}
		return obj, objs, nil
	}
	obj, _, err := probe(metav1.ListOptions{ShardSelector: ShardSelector(field, []HashRange{{Start: 0, End: 1 << 63}}), Limit: 1})
	if err != nil {
		return false, err
	}
	if applied, echoed := shardselector.Echoed(obj); echoed && applied != "" {
		return true, nil
	}
	_, objs, err := probe(metav1.ListOptions{Limit: 1})
	if err != nil {
		return false, err
	}
	if len(objs) == 0 {
		return false, ErrUnprovable
	}
	known := objs[0]
	h := ServerHash(fieldValue(field, known))
	_, objs, err = probe(metav1.ListOptions{ShardSelector: ShardSelector(field, allBut(h)), Limit: 1})
	if err != nil {
		return false, err
	}
	for _, o := range objs {
		if o.GetUID() == known.GetUID() {
			return false, nil
		}
	}
	return true, nil
}

// allBut returns the ranges covering every hash except h.
func allBut(h uint64) []HashRange {
	var out []HashRange
	if h != 0 {
		out = append(out, HashRange{Start: 0, End: h})
	}
	if h != ^uint64(0) {
		out = append(out, HashRange{Start: h + 1, End: 0})
	}
	return out
}

// fieldValue returns the value of field on obj that the server hashes.
func fieldValue(field string, obj metav1.Object) string {
	if field == NamespaceField {
		return obj.GetNamespace()
	}
	return string(obj.GetUID())
}

// SupportsServerMode reports whether the API server filters lists and watches of cfg's objects by
// shard selectors, so that cfg can use ServerMode. It probes each of cfg.Resources (with
// NamespaceField, cfg.Controlled too) through cfg.Metadata; a collection that is empty, and so proves
// nothing, is vouched for by the ring's Leases, whose lists echo shard info when the server's feature
// gate is on. Without any proof it answers no.
func SupportsServerMode(ctx context.Context, cfg Config) (bool, error) {
	if cfg.Leases == nil || cfg.Metadata == nil {
		return false, errors.New("sharding: SupportsServerMode needs the Config's Leases and Metadata clients")
	}
	field := cfg.ServerField
	if field == "" {
		field = UIDField
	}
	resources := cfg.Resources
	if field == NamespaceField {
		resources = append(append([]Resource(nil), cfg.Resources...), cfg.Controlled...)
	}
	leasesChecked := false
	for _, res := range resources {
		client := cfg.Metadata.Resource(res.Resource)
		list := ListFunc(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			if cfg.ObjectNamespace != "" {
				return client.Namespace(cfg.ObjectNamespace).List(ctx, opts)
			}
			return client.List(ctx, opts)
		})
		ok, err := ServerShardingSupported(ctx, field, list)
		if errors.Is(err, ErrUnprovable) && !leasesChecked {
			leasesChecked = true
			ok, err = ServerShardingSupported(ctx, field, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				return cfg.Leases.List(ctx, opts)
			})
			if errors.Is(err, ErrUnprovable) {
				return false, nil // nothing proves the server filters: do not rely on it
			}
		} else if errors.Is(err, ErrUnprovable) {
			ok, err = true, nil
		}
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}
