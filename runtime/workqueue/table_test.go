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
				remove(&table, h, item)
				delete(want, item)
			} else if !ok {
				slot, found := table.lookup(h, item)
				if found {
					t.Fatalf("hashes %d, op %d: lookup(%d) found an absent item", distinctHashes, op, item)
				}
				_, rec := table.insertAt(slot, h, item)
				if rec.state != (itemState{}) {
					t.Fatalf("hashes %d, op %d: insertAt(%d) returned a record in state %+v, want zero", distinctHashes, op, item, rec.state)
				}
				rec.state.seq = uint64(op)
				want[item] = uint64(op)
			}
			if table.n != len(want) {
				t.Fatalf("hashes %d, op %d: table holds %d items, want %d", distinctHashes, op, table.n, len(want))
			}
			if op%97 == 0 {
				for i := range 200 {
					st := find(&table, hashOf(i), i)
					seq, ok := want[i]
					if (st != nil) != ok || ok && st.seq != seq {
						t.Fatalf("hashes %d, op %d: find(%d) = %v, want %d (present %v)", distinctHashes, op, i, st, seq, ok)
					}
				}
			}
		}
		for item := range want {
			remove(&table, hashOf(item), item)
		}
		for i, s := range table.index {
			if s != 0 {
				t.Fatalf("hashes %d: slot %d not cleared after removing everything", distinctHashes, i)
			}
		}
		for c, chunk := range table.chunks {
			for i, e := range chunk {
				if e != (record[int]{}) {
					t.Fatalf("hashes %d: entry %d of chunk %d not cleared after removing everything", distinctHashes, i, c)
				}
			}
		}
	}
}

// TestItemTableLookupMissing checks lookups of an absent item in an empty and
// in a populated table.
func TestItemTableLookupMissing(t *testing.T) {
	table := newItemTable[string]()
	if slot, found := table.lookup(table.hash("a"), "a"); found || slot != -1 {
		t.Fatalf("lookup in an empty table = %d, %v; want -1, false", slot, found)
	}
	insert(&table, "b", itemState{seq: 7})
	if slot, found := table.lookup(table.hash("a"), "a"); found || table.index[slot] != 0 {
		t.Fatalf("lookup of a missing item = %d, %v; want a free slot", slot, found)
	}
	if st := find(&table, table.hash("b"), "b"); table.n != 1 || st == nil || st.seq != 7 {
		t.Fatalf("n=%d, b=%v; want 1 item, b with seq 7", table.n, st)
	}
}

// insert adds an absent item to table.
func insert[T comparable](table *itemTable[T], item T, st itemState) {
	h := table.hash(item)
	slot, _ := table.lookup(h, item)
	_, rec := table.insertAt(slot, h, item)
	rec.state = st
}

// remove deletes item, whose hash is h, if it is in table.
func remove[T comparable](table *itemTable[T], h uint64, item T) {
	if slot, found := table.lookup(h, item); found && table.removeAt(slot) {
		table.shrink()
	}
}

// find returns the state of item, whose hash is h, or nil.
func find[T comparable](table *itemTable[T], h uint64, item T) *itemState {
	if slot, found := table.lookup(h, item); found {
		return &table.record(table.recordAt(slot)).state
	}
	return nil
}

// TestItemTableKeepsItsSlotsAcrossBurstsAndShrinksWhenQuiet fills and drains
// the item table twice, then trickles one item at a time.
func TestItemTableKeepsItsSlotsAcrossBurstsAndShrinksWhenQuiet(t *testing.T) {
	table := newItemTable[int]()
	burst := func() {
		for i := range 1000 {
			insert(&table, i, itemState{})
		}
		for i := range 1000 {
			remove(&table, table.hash(i), i)
		}
	}
	burst()
	size := len(table.index)
	burst()
	if len(table.index) != size {
		t.Fatalf("second burst resized the table from %d to %d slots", size, len(table.index))
	}
	for i := range 4 * size {
		insert(&table, i, itemState{})
		remove(&table, table.hash(i), i)
	}
	if len(table.index) != minTableSize || table.n != 0 || len(table.chunks) > 1 {
		t.Fatalf("after a quiet trickle the table has %d slots, %d chunks and %d items, want %d, at most 1 and 0",
			len(table.index), len(table.chunks), table.n, minTableSize)
	}
}

// TestQueueShrinksItsTableUnderStaleEntries grows a queue's table with a
// burst, then, with one item waiting at a low priority throughout, adds an
// item at a low priority, raises it, gets it and marks it done, over and over.
// Each round leaves an obsolete entry behind and frees the item's record,
// which the next round reuses, so the table shrinks back to its minimum while
// the FIFOs hold a live entry and obsolete ones whose records moved or went.
func TestQueueShrinksItsTableUnderStaleEntries(t *testing.T) {
	q := NewTyped[int]()
	defer q.ShutDown()
	for item := range 200 {
		q.Add(item)
	}
	drain(t, q)
	grown := len(q.items.index)
	q.Add(-2) // takes the first record, so the waiting item's moves when the table packs its records
	q.AddWithOpts(AddOpts{Priority: -5}, -1)
	if got := mustGet(t, q); got != -2 {
		t.Fatalf("Get = %d, want -2", got)
	}
	q.Done(-2)
	rounds := 0
	for ; len(q.items.index) > minTableSize; rounds++ {
		q.AddWithOpts(AddOpts{Priority: -1}, rounds)
		q.AddWithOpts(AddOpts{Priority: 1}, rounds)
		if got := mustGet(t, q); got != rounds {
			t.Fatalf("round %d: Get = %d, want the raised item", rounds, got)
		}
		q.Done(rounds)
	}
	if q.stale != rounds {
		t.Fatalf("after %d rounds the queue counts %d obsolete entries", rounds, q.stale)
	}
	// The waiting item jumps ahead of the obsolete entries and finishes, freeing the first record
	// while they are still queued ahead of another waiting item.
	q.AddWithOpts(AddOpts{Priority: -10}, -3)
	q.AddWithOpts(AddOpts{Priority: 3}, -1)
	if got := mustGet(t, q); got != -1 {
		t.Fatalf("Get = %d, want the raised waiting item", got)
	}
	q.Done(-1)
	if got := drain(t, q); !equal(got, []int{-3}) {
		t.Fatalf("table shrank from %d to %d slots; then the queue held %v, want only the last waiting item", grown, len(q.items.index), got)
	}
}
