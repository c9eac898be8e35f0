package workqueue

import (
	"hash/maphash"
	"unsafe"
)

// itemTable holds the state of every item queued or in progress. It is an
// open-addressing hash table whose hashes the caller computes before taking
// the queue's lock, so the lock is held only for a short probe.
//
// The table is split in two. The index is a linear-probing array of 8-byte
// slots, each holding the low 32 bits of an item's hash and the number of its
// record; the records, each an item and its state, are packed densely in the
// order their items arrived and keep their numbers while their items stay,
// so the priority FIFOs refer to items by record number. A probe reads eight
// slots per cache line, the index holds no pointers for the garbage collector
// to scan or for a resize to copy with write barriers, and a backlog added in
// one burst and handed out in FIFO order walks its records sequentially.
// Removing an item shifts the index slots after it back instead of leaving a
// tombstone, so a queue whose items keep changing keeps its probes short (Go
// maps slow down under that churn until they grow), and its record is reused
// by the next insert. Like the FIFO rings, the table halves only after staying
// under an eighth full for as many removals as it has slots.
type itemTable[T comparable] struct {
	n      int      // items held
	index  []uint64 // 0 marks a free slot; the length is zero or a power of two
	chunks []*[chunkSize]record[T]
	used   uint32   // records ever handed out since the table was last empty
	free   []uint32 // numbers of the free records below used, reused last freed first
	seed   maphash.Seed
	usage  usageWindow
}

// The records live in fixed-size chunks, so growing the table never copies
// them (nor makes the garbage collector trace a copy) and only the pointer-free
// index is rebuilt.
const (
	chunkBits = 7
	chunkSize = 1 << chunkBits
)

// record is an item held by an itemTable and its state.
type record[T comparable] struct {
	item  T
	state itemState
}

// An index slot packs the low 32 bits of its item's hash, never 0, with the
// number of the item's record in the high 32 bits.
func indexSlot(h uint64, r uint32) uint64 { return uint64(r)<<32 | uint64(uint32(h)) }

func slotRecord(slot uint64) uint32 { return uint32(slot >> 32) }

// minTableSize is the smallest non-empty index.
const minTableSize = 16

func newItemTable[T comparable]() itemTable[T] {
	return itemTable[T]{seed: maphash.MakeSeed()}
}

// hash returns item's hash, whose low 32 bits are never 0. It needs no lock.
func (t *itemTable[T]) hash(item T) uint64 {
	return maphash.Comparable(t.seed, item) | 1
}

// lookup returns the index slot of item, whose hash is h, and true. If item
// is absent it returns false and the free slot that ended the probe, which is
// where insertAt puts item, or -1 if the table has no slots yet.
func (t *itemTable[T]) lookup(h uint64, item T) (slot int, found bool) {
	if len(t.index) == 0 {
		return -1, false
	}
	mask := uint64(len(t.index) - 1)
	tag := uint32(h)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.index[i]
		if s == 0 {
			return int(i), false
		}
		if uint32(s) == tag && t.record(slotRecord(s)).item == item {
			return int(i), true
		}
	}
}

// prefetchRecord starts loading record number r.
func (t *itemTable[T]) prefetchRecord(r uint32) { prefetch(unsafe.Pointer(t.record(r))) }

// prefetchSlot starts loading the index slot where a lookup of an item whose
// hash has the low 32 bits hash starts. The table must hold an index, as it
// does once an item was ever inserted.
func (t *itemTable[T]) prefetchSlot(hash uint32) {
	prefetch(unsafe.Pointer(&t.index[uint64(hash)&uint64(len(t.index)-1)]))
}

// recordAt returns the number of the record of the item in index slot i.
func (t *itemTable[T]) recordAt(i int) uint32 { return slotRecord(t.index[i]) }

// record returns record number r.
func (t *itemTable[T]) record(r uint32) *record[T] { return inChunks(t.chunks, r) }

// inChunks returns record number r of chunks.
func inChunks[T comparable](chunks []*[chunkSize]record[T], r uint32) *record[T] {
	return &chunks[r>>chunkBits][r&(chunkSize-1)]
}

// insertAt puts item, whose hash is h, in the free slot that lookup returned
// for it, and returns the number of its record and the record, whose state is
// zero; the table must not have changed since the lookup.
func (t *itemTable[T]) insertAt(slot int, h uint64, item T) (uint32, *record[T]) {
	var r uint32
	if k := len(t.free); k > 0 {
		r = t.free[k-1]
		t.free = t.free[:k-1]
	} else {
		r = t.unusedRecord()
	}
	// A record not in use is zero (removeAt clears it), so only the item
	// needs writing.
	rec := t.record(r)
	rec.item = item
	if 4*(t.n+1) > 3*len(t.index) {
		t.resize(max(2*len(t.index), minTableSize))
		t.place(indexSlot(h, r))
	} else {
		t.index[slot] = indexSlot(h, r)
	}
	t.n++
	t.usage.held(t.n)
	return r, rec
}

// unusedRecord returns the number of the first record never used since the
// table was last empty, adding a chunk if it needs one.
func (t *itemTable[T]) unusedRecord() uint32 {
	r := t.used
	if t.used++; int(r>>chunkBits) == len(t.chunks) {
		t.chunks = append(t.chunks, new([chunkSize]record[T]))
	}
	return r
}

// place puts s in the first free slot of its probe sequence.
func (t *itemTable[T]) place(s uint64) {
	mask := uint64(len(t.index) - 1)
	i := s & mask
	for t.index[i] != 0 {
		i = (i + 1) & mask
	}
	t.index[i] = s
}

// removeAt deletes the item in index slot i. It reports whether the table
// should now shrink, which the caller does with shrink.
func (t *itemTable[T]) removeAt(slot int) (shrink bool) {
	r := slotRecord(t.index[slot])
	*t.record(r) = record[T]{}
	t.free = append(t.free, r)
	mask := uint64(len(t.index) - 1)
	hole := uint64(slot)
	// Pull back every later slot of the run whose home slot is not
	// between the hole and itself, so no probe meets a gap too early.
	for i := (hole + 1) & mask; t.index[i] != 0; i = (i + 1) & mask {
		if (i-t.index[i])&mask >= (i-hole)&mask {
			t.index[hole] = t.index[i]
			hole = i
		}
	}
	t.index[hole] = 0
	t.n--
	if t.n == 0 { // every record is free: start again from the first
		t.used, t.free = 0, t.free[:0]
	}
	return t.usage.removed(t.n, len(t.index), minTableSize, 8)
}

// resize moves every index slot into a new index of size slots.
func (t *itemTable[T]) resize(size int) {
	old := t.index
	t.index = make([]uint64, size)
	for _, s := range old {
		if s != 0 {
			t.place(s)
		}
	}
}

// shrink halves the index and packs the records into as many new chunks as
// they fill, so a quiet table gives memory back. It returns the new number
// of each old record in use, keyed by the old number, for the caller to
// renumber its references.
func (t *itemTable[T]) shrink() (renumbered map[uint32]uint32) {
	old, oldChunks := t.index, t.chunks
	t.index = make([]uint64, len(old)/2)
	t.chunks, t.used, t.free = nil, 0, nil
	renumbered = make(map[uint32]uint32, t.n)
	for _, s := range old {
		if s != 0 {
			r := t.unusedRecord()
			*t.record(r) = *inChunks(oldChunks, slotRecord(s))
			renumbered[slotRecord(s)] = r
			t.place(indexSlot(s, r))
		}
	}
	return renumbered
}
