package shardselector_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kgen-dev/kgen/runtime/shardselector"
)

func TestNewShardRangeSelectorRefusesBadArguments(t *testing.T) {
	for _, c := range []struct {
		key          string
		index, total int
	}{
		{"metadata.uid", 0, 2},
		{"", 0, 1},
		{shardselector.UIDField, 0, 0},
		{shardselector.UIDField, -1, 2},
		{shardselector.NamespaceField, 2, 2},
	} {
		if sel, err := shardselector.NewShardRangeSelector(c.key, c.index, c.total); err == nil {
			t.Errorf("NewShardRangeSelector(%q, %d, %d) = %v, want an error", c.key, c.index, c.total, sel)
		}
	}
}

// The selectors are rendered as the API server parses them, the first from zero, the last to 2^64.
func TestNewShardRangeSelectorWireForm(t *testing.T) {
	for _, c := range []struct {
		key          string
		index, total int
		want         string
	}{
		{shardselector.UIDField, 0, 1, "shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')"},
		{shardselector.UIDField, 0, 2, "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"},
		{shardselector.NamespaceField, 1, 2, "shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')"},
		{shardselector.UIDField, 1, 3, "shardRange(object.metadata.uid, '0x5555555555555555', '0xaaaaaaaaaaaaaaaa')"},
	} {
		sel, err := shardselector.NewShardRangeSelector(c.key, c.index, c.total)
		if err != nil {
			t.Fatal(err)
		}
		if got := sel.String(); got != c.want {
			t.Errorf("shard %d of %d by %s = %s, want %s", c.index, c.total, c.key, got, c.want)
		}
	}
}

// Every object is selected by exactly one shard of each count, by either key.
func TestNewShardRangeSelectorPartitions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var objects []*corev1.ConfigMap
	for i := range 200 {
		objects = append(objects, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("cm-%d", i), Namespace: fmt.Sprintf("ns-%x", r.Uint64()), UID: types.UID(fmt.Sprintf("%016x%016x", r.Uint64(), r.Uint64()))}})
	}
	for _, key := range []string{shardselector.UIDField, shardselector.NamespaceField} {
		for _, total := range []int{1, 2, 3, 5, 7, 16} {
			counts := make([]int, total)
			for _, obj := range objects {
				owners := 0
				for i := range total {
					sel, err := shardselector.NewShardRangeSelector(key, i, total)
					if err != nil {
						t.Fatal(err)
					}
					ok, err := sel.Matches(obj)
					if err != nil {
						t.Fatal(err)
					}
					if ok {
						owners++
						counts[i]++
					}
				}
				if owners != 1 {
					t.Fatalf("%s of %s/%s is selected by %d of %d shards", key, obj.Namespace, obj.Name, owners, total)
				}
			}
			if total > 1 && slices.Contains(counts, 0) {
				t.Errorf("%s, %d shards: %v objects; random values left a shard empty", key, total, counts)
			}
		}
	}
}

// A range requirement renders its bounds as 16 hex digits, an end of 0 as 2^64; a selector of several
// selects an object in any of them.
func TestNewRangeRequirement(t *testing.T) {
	for _, c := range []struct {
		start, end uint64
		want       string
	}{
		{0, 0, "shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')"},
		{0, 1 << 63, "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"},
		{0xc000000000000000, 0, "shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')"},
		{5, ^uint64(0), "shardRange(object.metadata.uid, '0x0000000000000005', '0xffffffffffffffff')"},
	} {
		if got := sharding.NewSelector(shardselector.NewRangeRequirement(shardselector.UIDField, c.start, c.end)).String(); got != c.want {
			t.Errorf("[%#x, %#x) = %s, want %s", c.start, c.end, got, c.want)
		}
	}
	obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a"}}
	hash := fnv.New64a()
	hash.Write([]byte("team-a"))
	h := hash.Sum64()
	for _, c := range []struct {
		ranges [][2]uint64
		want   bool
	}{
		{[][2]uint64{{h, h + 1}}, true},
		{[][2]uint64{{h + 1, 0}}, false},
		{[][2]uint64{{0, h}}, false},
		{[][2]uint64{{0, h}, {h, h + 1}}, true},
	} {
		var reqs []sharding.ShardRangeRequirement
		for _, r := range c.ranges {
			reqs = append(reqs, shardselector.NewRangeRequirement(shardselector.NamespaceField, r[0], r[1]))
		}
		if got, err := sharding.NewSelector(reqs...).Matches(obj); err != nil || got != c.want {
			t.Errorf("hash %#x in %#x: %v (%v), want %v", h, c.ranges, got, err, c.want)
		}
	}
}

// Echoed reads the applied selector from a typed list's and an unstructured list's shardInfo, and
// reports none when it is absent.
func TestEchoed(t *testing.T) {
	const applied = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
	for _, c := range []struct {
		name     string
		list     runtime.Object
		selector string
		echoed   bool
	}{
		{"typed with shardInfo", &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ShardInfo: &metav1.ShardInfo{Selector: applied}}}, applied, true},
		{"typed with empty shardInfo", &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ShardInfo: &metav1.ShardInfo{}}}, "", true},
		{"typed without shardInfo", &corev1.ConfigMapList{}, "", false},
		{"metadata list with shardInfo", &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ShardInfo: &metav1.ShardInfo{Selector: applied}}}, applied, true},
		{"unstructured with shardInfo", &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"shardInfo": map[string]any{"selector": applied}}}}, applied, true},
		{"unstructured with a malformed selector", &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"shardInfo": map[string]any{"selector": 7}}}}, "", true},
		{"unstructured with malformed shardInfo", &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"shardInfo": "x"}}}, "", false},
		{"unstructured without shardInfo", &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{}}}, "", false},
		{"not a list", &corev1.ConfigMap{}, "", false},
	} {
		selector, echoed := shardselector.Echoed(c.list)
		if selector != c.selector || echoed != c.echoed {
			t.Errorf("%s: Echoed = %q, %v; want %q, %v", c.name, selector, echoed, c.selector, c.echoed)
		}
	}
}
