package workqueue

// entry is one slot of a priority FIFO: the number of the item's record in
// the item table and the sequence number the item was queued with, so a slot made
// obsolete by a priority raise is recognised and skipped instead of being
// removed from the middle of a ring. It holds no pointer, so the rings cost the
// garbage collector nothing however long they grow.
type entry struct {
	seq    uint64
	record uint32
	hash   uint32 // low 32 bits of the item's hash, to prefetch its index slot
}

// ring is a growable circular FIFO of entries; its capacity is always a power
// of two. It halves when it stayed under a quarter full for as many pops as it
// has slots, so a queue that fills and drains in bursts keeps its buffer
// instead of reallocating it every burst, and an idle one gives memory back.
type ring struct {
	buf   []entry
	head  int
	n     int
	usage usageWindow
}

const minRingSize = 16

func (r *ring) push(e entry) {
	if r.n == len(r.buf) {
		r.resize(max(2*len(r.buf), minRingSize))
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = e
	r.n++
	r.usage.held(r.n)
}

func (r *ring) pop() entry {
	e := r.buf[r.head]
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	if r.usage.removed(r.n, len(r.buf), minRingSize, 4) {
		r.resize(len(r.buf) / 2)
	}
	return e
}

// peek returns the first entry, or the zero entry if the ring is empty.
func (r *ring) peek() entry {
	if r.n == 0 {
		return entry{}
	}
	return r.buf[r.head]
}

// reset empties the ring. Entries hold no pointers, so the slots left
// behind need no clearing.
func (r *ring) reset() { r.head, r.n = 0, 0 }

func (r *ring) resize(size int) {
	buf := make([]entry, size)
	for i := 0; i < r.n; i++ {
		buf[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = buf, 0
}

// level is the FIFO of one priority.
type level struct {
	priority int
	fifo     ring
	// popped is the sequence number of the last entry popped, or of the last
	// entry written anywhere when the level was created. Entries are written
	// in increasing sequence order, so an entry of this level numbered above
	// popped is still queued.
	popped uint64
}

// levels holds one FIFO per priority in use, highest priority first. Queues
// normally use a handful of priorities, so a sorted slice beats a map or a heap.
type levels []*level

// maxIdleLevels bounds how many empty levels are kept around for reuse.
const maxIdleLevels = 8

// find returns the level of priority p, or nil.
func (ls levels) find(p int) *level {
	for _, l := range ls {
		if l.priority == p {
			return l
		}
	}
	return nil
}

// queued reports whether the entry numbered seq at priority p is still queued.
func (ls levels) queued(p int, seq uint64) bool {
	l := ls.find(p)
	return l != nil && seq > l.popped
}

// fifo returns the FIFO for priority p, creating it if needed; seq is the
// number of the last entry written so far.
func (ls *levels) fifo(p int, seq uint64) *ring {
	if l := ls.find(p); l != nil {
		return &l.fifo
	}
	if len(*ls) >= maxIdleLevels {
		ls.prune()
	}
	s := *ls
	i := 0
	for i < len(s) && s[i].priority > p {
		i++
	}
	l := &level{priority: p, popped: seq}
	s = append(s, nil)
	copy(s[i+1:], s[i:])
	s[i] = l
	*ls = s
	return &l.fifo
}

// prune drops empty levels so that many distinct priorities over time do not
// accumulate memory.
func (ls *levels) prune() {
	s := (*ls)[:0]
	for _, l := range *ls {
		if l.fifo.n > 0 {
			s = append(s, l)
		}
	}
	clear((*ls)[len(s):])
	*ls = s
}

// pop removes and returns the first entry of the highest non-empty priority.
// The caller guarantees one exists.
func (ls levels) pop() entry {
	for _, l := range ls {
		if l.fifo.n > 0 {
			e := l.fifo.pop()
			l.popped = e.seq
			return e
		}
	}
	panic("workqueue: internal error: every priority FIFO is empty")
}

// peek returns the entry pop would return next, or the zero entry if every
// FIFO is empty.
func (ls levels) peek() entry {
	for _, l := range ls {
		if l.fifo.n > 0 {
			return l.fifo.peek()
		}
	}
	return entry{}
}

// reset empties every level; used when no item is queued, so obsolete slots
// do not linger.
func (ls levels) reset() {
	for _, l := range ls {
		l.fifo.reset()
	}
}

// renumber follows the item table's packing of its records (itemTable.shrink):
// an entry whose record moved follows it, and one whose record was freed,
// which can only be obsolete, becomes the zero entry, whose sequence number 0
// no entry is ever written with.
func (ls levels) renumber(renumbered map[uint32]uint32) {
	for _, l := range ls {
		r := &l.fifo
		for i := range r.n {
			e := &r.buf[(r.head+i)&(len(r.buf)-1)]
			if moved, ok := renumbered[e.record]; ok {
				e.record = moved
			} else {
				*e = entry{}
			}
		}
	}
}
