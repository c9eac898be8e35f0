package workqueue

import "hash/maphash"

// itemTable holds the state of every item queued or in progress. It is an
// open-addressing hash table whose hashes the caller computes before taking
// the queue's lock, so the lock is held only for a short probe. Probes scan a
// dense array of hashes and touch an entry only on a match. Removing an item
// shifts the entries after it back instead of leaving a tombstone, so a queue
// whose items keep changing keeps its probes short (Go maps slow down under
// that churn until they grow). Like a Go map, the table keeps its size when
// items leave.
type itemTable[T comparable] struct {
	n       int      // slots in use
	hashes  []uint64 // 0 marks a free slot; the length is zero or a power of two
	entries []tableEntry[T]
	seed    maphash.Seed
}

// tableEntry is the item and state kept in one slot of an itemTable.
type tableEntry[T comparable] struct {
	item  T
	state itemState
}

// minTableSize is the smallest non-empty table.
const minTableSize = 16

func newItemTable[T comparable]() itemTable[T] {
	return itemTable[T]{seed: maphash.MakeSeed()}
}

// hash returns item's hash, never 0. It needs no lock.
func (t *itemTable[T]) hash(item T) uint64 {
	return maphash.Comparable(t.seed, item) | 1
}

// slot returns the slot holding item, whose hash is h, or -1.
func (t *itemTable[T]) slot(h uint64, item T) int {
	if t.n == 0 {
		return -1
	}
	mask := uint64(len(t.hashes) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.hashes[i] {
		case h:
			if t.entries[i].item == item {
				return int(i)
			}
		case 0:
			return -1
		}
	}
}

// find returns the state of item, whose hash is h, or nil.
func (t *itemTable[T]) find(h uint64, item T) *itemState {
	if i := t.slot(h, item); i >= 0 {
		return &t.entries[i].state
	}
	return nil
}

// insert records the state of item, whose hash is h; item must not be in the table.
func (t *itemTable[T]) insert(h uint64, item T, st itemState) {
	if 4*(t.n+1) > 3*len(t.hashes) {
		t.grow(max(2*len(t.hashes), minTableSize))
	}
	t.place(h, tableEntry[T]{item: item, state: st})
	t.n++
}

// place puts an entry whose hash is h in the first free slot of its probe sequence.
func (t *itemTable[T]) place(h uint64, e tableEntry[T]) {
	mask := uint64(len(t.hashes) - 1)
	i := h & mask
	for t.hashes[i] != 0 {
		i = (i + 1) & mask
	}
	t.hashes[i], t.entries[i] = h, e
}

// remove deletes item, whose hash is h, if it is in the table.
func (t *itemTable[T]) remove(h uint64, item T) {
	s := t.slot(h, item)
	if s < 0 {
		return
	}
	mask := uint64(len(t.hashes) - 1)
	hole := uint64(s)
	// Pull back every later entry of the run whose home slot is not
	// between the hole and itself, so no probe meets a gap too early.
	for i := (hole + 1) & mask; t.hashes[i] != 0; i = (i + 1) & mask {
		if (i-t.hashes[i])&mask >= (i-hole)&mask {
			t.hashes[hole], t.entries[hole] = t.hashes[i], t.entries[i]
			hole = i
		}
	}
	t.hashes[hole], t.entries[hole] = 0, tableEntry[T]{}
	t.n--
}

// grow moves every entry into new arrays of size slots.
func (t *itemTable[T]) grow(size int) {
	hashes, entries := t.hashes, t.entries
	t.hashes, t.entries = make([]uint64, size), make([]tableEntry[T], size)
	for i, h := range hashes {
		if h != 0 {
			t.place(h, entries[i])
		}
	}
}
