package workqueue

// entry is one slot of a priority FIFO. It carries the sequence number the item
// was queued with, so a slot made obsolete by a priority raise is recognised and
// skipped instead of being removed from the middle of a ring.
type entry[T comparable] struct {
	item T
	seq  uint64
}

// ring is a growable circular FIFO of entries; its capacity is always a power
// of two. It halves when it stayed under a quarter full for as many pops as it
// has slots, so a queue that fills and drains in bursts keeps its buffer
// instead of reallocating it every burst, and an idle one gives memory back.
type ring[T comparable] struct {
	buf   []entry[T]
	head  int
	n     int
	usage usageWindow
}

const minRingSize = 16

func (r *ring[T]) push(e entry[T]) {
	if r.n == len(r.buf) {
		r.resize(max(2*len(r.buf), minRingSize))
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = e
	r.n++
	r.usage.held(r.n)
}

func (r *ring[T]) pop() entry[T] {
	e := r.buf[r.head]
	r.buf[r.head] = entry[T]{}
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	if r.usage.removed(r.n, len(r.buf), minRingSize, 4) {
		r.resize(len(r.buf) / 2)
	}
	return e
}

// reset empties the ring, dropping references held by obsolete slots.
func (r *ring[T]) reset() {
	for ; r.n > 0; r.n-- {
		r.buf[r.head] = entry[T]{}
		r.head = (r.head + 1) & (len(r.buf) - 1)
	}
	r.head = 0
}

func (r *ring[T]) resize(size int) {
	buf := make([]entry[T], size)
	for i := 0; i < r.n; i++ {
		buf[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = buf, 0
}

// level is the FIFO of one priority.
type level[T comparable] struct {
	priority int
	fifo     ring[T]
	// popped is the sequence number of the last entry popped, or of the last
	// entry written anywhere when the level was created. Entries are written
	// in increasing sequence order, so an entry of this level numbered above
	// popped is still queued.
	popped uint64
}

// levels holds one FIFO per priority in use, highest priority first. Queues
// normally use a handful of priorities, so a sorted slice beats a map or a heap.
type levels[T comparable] []*level[T]

// maxIdleLevels bounds how many empty levels are kept around for reuse.
const maxIdleLevels = 8

// find returns the level of priority p, or nil.
func (ls levels[T]) find(p int) *level[T] {
	for _, l := range ls {
		if l.priority == p {
			return l
		}
	}
	return nil
}

// queued reports whether the entry numbered seq at priority p is still queued.
func (ls levels[T]) queued(p int, seq uint64) bool {
	l := ls.find(p)
	return l != nil && seq > l.popped
}

// fifo returns the FIFO for priority p, creating it if needed; seq is the
// number of the last entry written so far.
func (ls *levels[T]) fifo(p int, seq uint64) *ring[T] {
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
	l := &level[T]{priority: p, popped: seq}
	s = append(s, nil)
	copy(s[i+1:], s[i:])
	s[i] = l
	*ls = s
	return &l.fifo
}

// prune drops empty levels so that many distinct priorities over time do not
// accumulate memory.
func (ls *levels[T]) prune() {
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
func (ls levels[T]) pop() entry[T] {
	for _, l := range ls {
		if l.fifo.n > 0 {
			e := l.fifo.pop()
			l.popped = e.seq
			return e
		}
	}
	panic("workqueue: internal error: every priority FIFO is empty")
}

// reset empties every level; used when no item is queued, so obsolete slots
// do not linger.
func (ls levels[T]) reset() {
	for _, l := range ls {
		l.fifo.reset()
	}
}
