package shardselector_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
