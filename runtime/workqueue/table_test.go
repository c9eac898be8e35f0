package workqueue

import (
	"math/rand/v2"
	"testing"
)

// TestItemTableMatchesMap drives the table with random inserts and removals
// against a Go map. Hashes come from a handful of values, so long runs of
// colliding entries form and wrap around the end of the slots, and removal
// has to pull entries back across the wrap.
func TestItemTableMatchesMap(t *testing.T) {
	for _, distinctHashes := range []uint64{1, 3, 64} {
		rng := rand.New(rand.NewPCG(1, distinctHashes))
		table := newItemTable[int]()
		want := map[int]uint64{} // item → seq stored with it
		hashOf := func(item int) uint64 { return uint64(item)%distinctHashes*2 + 15 }
		for op := range 20000 {
			item := rng.IntN(200)
			h := hashOf(item)
			if _, ok := want[item]; ok && rng.IntN(2) == 0 {
				table.remove(h, item)
				delete(want, item)
			} else if !ok {
				table.insert(h, item, itemState{seq: uint64(op)})
				want[item] = uint64(op)
			}
			if table.n != len(want) {
				t.Fatalf("hashes %d, op %d: table holds %d items, want %d", distinctHashes, op, table.n, len(want))
			}
			if op%97 == 0 {
				for i := range 200 {
					st := table.find(hashOf(i), i)
					seq, ok := want[i]
					if (st != nil) != ok || ok && st.seq != seq {
						t.Fatalf("hashes %d, op %d: find(%d) = %v, want %d (present %v)", distinctHashes, op, i, st, seq, ok)
					}
				}
			}
		}
		for item := range want {
			table.remove(hashOf(item), item)
		}
		for i, h := range table.hashes {
			if h != 0 || table.entries[i] != (tableEntry[int]{}) {
				t.Fatalf("hashes %d: slot %d not cleared after removing everything", distinctHashes, i)
			}
		}
	}
}

// TestItemTableRemoveMissing checks that removing an absent item, from an
// empty or a populated table, changes nothing.
func TestItemTableRemoveMissing(t *testing.T) {
	table := newItemTable[string]()
	table.remove(table.hash("a"), "a")
	table.insert(table.hash("b"), "b", itemState{seq: 7})
	table.remove(table.hash("a"), "a")
	if st := table.find(table.hash("b"), "b"); table.n != 1 || st == nil || st.seq != 7 {
		t.Fatalf("after removing a missing item: n=%d, b=%v", table.n, st)
	}
}
