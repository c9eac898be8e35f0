package sharding

import (
	"fmt"
	"strings"
	"testing"
)

func TestServerRangesPartitionTheSpace(t *testing.T) {
	r := NewRing([]string{"a", "b", "c"}, 8)
	for _, m := range r.Members() {
		if ranges := r.ServerRanges(m); len(ranges) == 0 || len(ranges) > 9 {
			t.Fatalf("%s owns %d ranges", m, len(ranges))
		}
	}
	// Every sampled hash falls in exactly one member's ranges, the one ServerOwner names.
	for i := range 20000 {
		h := ServerHash(fmt.Sprintf("uid-%d", i))
		if i == 0 {
			h = 0
		} else if i == 1 {
			h = ^uint64(0)
		}
		owners := 0
		for _, m := range r.Members() {
			for _, rg := range r.ServerRanges(m) {
				if h >= rg.Start && (rg.End == 0 || h < rg.End) {
					owners++
					if m != r.ServerOwner(h) {
						t.Fatalf("hash %x is in %s's range but ServerOwner says %s", h, m, r.ServerOwner(h))
					}
				}
			}
		}
		if owners != 1 {
			t.Fatalf("hash %x is in %d members' ranges", h, owners)
		}
	}
	if got := NewRing([]string{"solo"}, 8).ServerRanges("solo"); len(got) != 1 || got[0] != (HashRange{}) {
		t.Fatalf("a single member's ranges = %v, want the whole space", got)
	}
	if r.ServerRanges("d") != nil {
		t.Fatal("a non-member owns ranges")
	}
}

func TestShardSelectorFormat(t *testing.T) {
	got := ShardSelector(UIDField, []HashRange{{Start: 0, End: 1 << 63}, {Start: 0xc000000000000000, End: 0}})
	want := "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || " +
		"shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')"
	if got != want {
		t.Fatalf("selector\n got %s\nwant %s", got, want)
	}
	if whole := ShardSelector(NamespaceField, []HashRange{{}}); !strings.Contains(whole, "'0x0000000000000000', '0x10000000000000000'") {
		t.Fatalf("whole space = %s", whole)
	}
}
