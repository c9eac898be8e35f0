package workqueue

import "hash/maphash"

// itemTable holds the state of every item queued or in progress. It is an
// open-addressing hash table whose hashes the caller computes before taking
// the queue's lock, so the lock is held only for a short probe. Each slot
// keeps its hash beside its item and state, so finding an item in a table
// larger than the cache costs one cache miss, not one for a hash array and
// another for an entry array. Removing an item shifts the slots after it back
// instead of leaving a tombstone, so a queue whose items keep changing keeps
// its probes short (Go maps slow down under that churn until they grow). Like
// the FIFO rings, it halves only after staying under an eighth full for as
// many removals as it has slots.
type itemTable[T comparable] struct {
	n     int            // slots in use
	slots []tableSlot[T] // a hash of 0 marks a free slot; the length is zero or a power of two
	seed  maphash.Seed
	usage usageWindow
}

// tableSlot is one slot of an itemTable.
type tableSlot[T comparable] struct {
	hash  uint64
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
	if len(t.slots) == 0 {
		return -1, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s := &t.slots[i]; s.hash {
		case h:
			if s.item == item {
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
		return &t.slots[i].state
	}
	return nil
}

// state returns the state in slot i, which holds an item.
func (t *itemTable[T]) state(i int) *itemState { return &t.slots[i].state }

// insertAt records the state of item, whose hash is h, in the free slot that
// lookup returned for it; the table must not have changed since.
func (t *itemTable[T]) insertAt(slot int, h uint64, item T, st itemState) {
	s := tableSlot[T]{hash: h, item: item, state: st}
	if 4*(t.n+1) > 3*len(t.slots) {
		t.resize(max(2*len(t.slots), minTableSize))
		t.place(s)
	} else {
		t.slots[slot] = s
	}
	t.n++
	t.usage.held(t.n)
}

// place puts s in the first free slot of its probe sequence.
func (t *itemTable[T]) place(s tableSlot[T]) {
	mask := uint64(len(t.slots) - 1)
	i := s.hash & mask
	for t.slots[i].hash != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// removeAt deletes the item in slot i.
func (t *itemTable[T]) removeAt(slot int) {
	mask := uint64(len(t.slots) - 1)
	hole := uint64(slot)
	// Pull back every later slot of the run whose home slot is not
	// between the hole and itself, so no probe meets a gap too early.
	for i := (hole + 1) & mask; t.slots[i].hash != 0; i = (i + 1) & mask {
		if (i-t.slots[i].hash)&mask >= (i-hole)&mask {
			t.slots[hole] = t.slots[i]
			hole = i
		}
	}
	t.slots[hole] = tableSlot[T]{}
	t.n--
	if t.usage.removed(t.n, len(t.slots), minTableSize, 8) {
		t.resize(len(t.slots) / 2)
	}
}

// resize moves every item into a new array of size slots.
func (t *itemTable[T]) resize(size int) {
	old := t.slots
	t.slots = make([]tableSlot[T], size)
	for _, s := range old {
		if s.hash != 0 {
			t.place(s)
		}
	}
}
