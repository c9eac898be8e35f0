package sharding

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
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
				if inRange(rg, h) {
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
			if inRange(rg, h) {
				t.Fatalf("allBut(%x) = %v holds it", h, allBut(h))
			}
			if inRange(rg, h^1) {
				others++
			}
		}
		if others != 1 {
			t.Fatalf("allBut(%x) = %v leaves out more", h, allBut(h))
		}
	}
}

// inRange reports whether hash falls in h, by HashRange's definition.
func inRange(h HashRange, hash uint64) bool {
	return hash >= h.Start && (h.End == 0 || hash < h.End)
}

// oldShardSelector is how ShardSelector rendered ranges before it built apimachinery's selector: the
// wire text kube-apiserver parses.
func oldShardSelector(field string, ranges []HashRange) string {
	parts := make([]string, len(ranges))
	for i, h := range ranges {
		end := "0x10000000000000000"
		if h.End != 0 {
			end = fmt.Sprintf("0x%016x", h.End)
		}
		parts[i] = fmt.Sprintf("shardRange(%s, '0x%016x', '%s')", field, h.Start, end)
	}
	return strings.Join(parts, " || ")
}

// TestRangeSelectorKeepsWireTextAndRanges: over random ranges, the selector built with apimachinery's
// sharding.Selector renders the same wire text as before and selects an object exactly when its
// ServerHash falls in one of the ranges, at the ranges' edges too.
func TestRangeSelectorKeepsWireTextAndRanges(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	uid := func() string {
		return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", rnd.Uint32(), rnd.Uint32()&0xffff, rnd.Uint32()&0xfff, rnd.Uint32()&0xffff, rnd.Uint64()&0xffffffffffff)
	}
	for round := range 2000 {
		field := UIDField
		if round%2 == 1 {
			field = NamespaceField
		}
		object := func(value string) *metav1.PartialObjectMetadata {
			o := &metav1.PartialObjectMetadata{}
			if field == UIDField {
				o.UID = types.UID(value)
			} else {
				o.Namespace = value
			}
			return o
		}
		values := make([]string, 8)
		for i := range values {
			values[i] = uid()
		}
		// Ranges start or end at some values' hashes (to test the edges), at random hashes, at 0
		// and at 2^64.
		bound := func() uint64 {
			switch rnd.IntN(6) {
			case 0:
				return 0
			case 1:
				return rnd.Uint64()
			case 2:
				return ServerHash(values[rnd.IntN(len(values))]) + 1
			default:
				return ServerHash(values[rnd.IntN(len(values))])
			}
		}
		var ranges []HashRange
		for range 1 + rnd.IntN(4) {
			start, end := bound(), bound()
			if end != 0 && end < start {
				start, end = end, start
			}
			ranges = append(ranges, HashRange{Start: start, End: end})
		}
		if round == 0 {
			ranges = []HashRange{{}}
		}
		sel := rangeSelector(field, ranges)
		if got, want := sel.String(), oldShardSelector(field, ranges); got != want || ShardSelector(field, ranges) != want {
			t.Fatalf("ranges %v render\n got %s\nwant %s", ranges, got, want)
		}
		for _, v := range values {
			h := ServerHash(v)
			want := false
			for _, rg := range ranges {
				want = want || inRange(rg, h)
			}
			got, err := sel.Matches(object(v))
			if err != nil || got != want {
				t.Fatalf("%s with hash %#x in %v: selected %v (%v), want %v", field, h, ranges, got, err, want)
			}
		}
	}
}
