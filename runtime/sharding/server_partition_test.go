package sharding

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPartitionSplitsTheSpace(t *testing.T) {
	p := NewPartition([]string{"a", "b", "c"})
	for _, m := range p.Members() {
		if ranges := p.Ranges(m); len(ranges) == 0 || len(ranges) > PartitionSlots/3 {
			t.Fatalf("%s owns %d ranges", m, len(ranges))
		}
	}
	// Every sampled hash falls in exactly one member's ranges, the one Owner names.
	count := map[string]int{}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 30000 {
		// UIDs are random UUIDs.
		h := ServerHash(fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", rnd.Uint32(), rnd.Uint32()&0xffff, rnd.Uint32()&0xfff, rnd.Uint32()&0xffff, rnd.Uint64()&0xffffffffffff))
		switch i {
		case 0:
			h = 0
		case 1:
			h = ^uint64(0)
		case 2:
			h = slotStart(40)
		case 3:
			h = slotStart(40) - 1
		}
		owners := 0
		for _, m := range p.Members() {
			for _, rg := range p.Ranges(m) {
				if rg.contains(h) {
					owners++
					if m != p.Owner(h) {
						t.Fatalf("hash %x is in %s's range but Owner says %s", h, m, p.Owner(h))
					}
				}
			}
		}
		if owners != 1 {
			t.Fatalf("hash %x is in %d members' ranges", h, owners)
		}
		count[p.Owner(h)]++
	}
	for m, n := range count {
		if share := float64(n) / 30000; share > 0.35 || share < 0.316 {
			t.Errorf("%s holds %.3f of the keys, want a third", m, share)
		}
	}
	if got := NewPartition([]string{"solo"}).Ranges("solo"); len(got) != 1 || got[0] != (HashRange{}) {
		t.Fatalf("a single member's ranges = %v, want the whole space", got)
	}
	if p.Ranges("d") != nil || p.Has("d") || !p.Has("b") {
		t.Fatal("membership is wrong")
	}
	if NewPartition(nil).Owner(7) != "" {
		t.Fatal("an empty partition owns keys")
	}
}

// TestPartitionMovesLittle: adding or removing one of N members moves about 1/N of the space, and
// every member keeps its load bounded.
func TestPartitionMovesLittle(t *testing.T) {
	for n := 2; n <= 8; n++ {
		var members []string
		for i := range n {
			members = append(members, fmt.Sprintf("replica-%d", i))
		}
		before := NewPartition(members)
		after := NewPartition(append(members, "newcomer"))
		moved := 0
		for s := range PartitionSlots {
			if before.members[before.owner[s]] != after.members[after.owner[s]] {
				moved++
			}
		}
		ideal := float64(PartitionSlots) / float64(n+1)
		if float64(moved) > 1.5*ideal+2 {
			t.Errorf("%d -> %d members moved %d of %d slots; ideal %.0f", n, n+1, moved, PartitionSlots, ideal)
		}
		capacity := (PartitionSlots + n) / (n + 1)
		load := map[int]int{}
		for s := range PartitionSlots {
			load[after.owner[s]]++
		}
		for m, l := range load {
			if l > capacity {
				t.Errorf("%s holds %d slots, above %d", after.members[m], l, capacity)
			}
		}
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
	for _, h := range []uint64{0, 5, ^uint64(0)} {
		others := 0
		for _, rg := range allBut(h) {
			if rg.contains(h) {
				t.Fatalf("allBut(%x) = %v holds it", h, allBut(h))
			}
			if rg.contains(h ^ 1) {
				others++
			}
		}
		if others != 1 {
			t.Fatalf("allBut(%x) = %v leaves out more", h, allBut(h))
		}
	}
}
