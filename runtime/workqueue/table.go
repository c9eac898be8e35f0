package workqueue

import "hash/maphash"

// itemTable holds the state of every item queued or in progress. It is an
// open-addressing hash table whose hashes the caller computes before taking
// the queue's lock, so the lock is held only for a short probe. Probes scan a
// dense array of hashes and touch an entry only on a match. Removing an item
// shifts the entries after it back instead of leaving a tombstone, so a queue
// whose items keep changing keeps its probes short (Go maps slow down under
// that churn until they grow). Like the FIFO rings, it halves only after
// staying under an eighth full for as many removals as it has slots.
type itemTable[T comparable] struct {
	n       int      // slots in use
	hashes  []uint64 // 0 marks a free slot; the length is zero or a power of two
	entries []tableEntry[T]
	seed    maphash.Seed
	usage   usageWindow
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

// lookup returns the slot holding item, whose hash is h, and true. If item is
// absent it returns false and the free slot that ended the probe, which is
// where insertAt puts item, or -1 if the table has no slots yet.
func (t *itemTable[T]) lookup(h uint64, item T) (slot int, found bool) {
	if len(t.hashes) == 0 {
		return -1, false
	}
	mask := uint64(len(t.hashes) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.hashes[i] {
		case h:
			if t.entries[i].item == item {
				return int(i), true
			}
		case 0:
			return int(i), false
		}
	}
}

// find returns the state of item, whose hash is h, or nil.
func (t *itemTable[T]) find(h uint64, item T) *itemState {
	if i, ok := t.lookup(h, item); ok {
		return &t.entries[i].state
	}
	return nil
}

// state returns the state in slot i, which holds an item.
func (t *itemTable[T]) state(i int) *itemState { return &t.entries[i].state }

// insertAt records the state of item, whose hash is h, in the free slot that
// lookup returned for it; the table must not have changed since.
func (t *itemTable[T]) insertAt(slot int, h uint64, item T, st itemState) {
	e := tableEntry[T]{item: item, state: st}
	if 4*(t.n+1) > 3*len(t.hashes) {
		t.resize(max(2*len(t.hashes), minTableSize))
		t.place(h, e)
	} else {
		t.hashes[slot], t.entries[slot] = h, e
	}
	t.n++
	t.usage.held(t.n)
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

// removeAt deletes the item in slot i.
func (t *itemTable[T]) removeAt(slot int) {
	mask := uint64(len(t.hashes) - 1)
	hole := uint64(slot)
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
	if t.usage.removed(t.n, len(t.hashes), minTableSize, 8) {
		t.resize(len(t.hashes) / 2)
	}
}

// resize moves every entry into new arrays of size slots.
func (t *itemTable[T]) resize(size int) {
	hashes, entries := t.hashes, t.entries
	t.hashes, t.entries = make([]uint64, size), make([]tableEntry[T], size)
	for i, h := range hashes {
		if h != 0 {
			t.place(h, entries[i])
		}
	}
}
