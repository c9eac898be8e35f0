package workqueue

import (
	"slices"
	"testing"
	"time"
)

// model is a deliberately naive queue: a list of queued items with their
// priorities, the set in progress, and the adds waiting for Done.
type model struct {
	queued     []modelItem // in add order
	processing map[byte]bool
	requeue    map[byte]int // item in progress → priority it is re-added with
	waiting    map[byte]modelWait
	now        time.Duration
}

type modelItem struct {
	item     byte
	priority int
}

type modelWait struct {
	at       time.Duration
	priority int
	order    int
}

func (m *model) add(item byte, p int) {
	if m.processing[item] {
		if old, ok := m.requeue[item]; !ok || p > old {
			m.requeue[item] = p
		}
		return
	}
	for i, q := range m.queued {
		if q.item == item {
			if p > q.priority {
				// A raise moves the item to the back of its new priority.
				m.queued = append(slices.Delete(m.queued, i, i+1), modelItem{item, p})
			}
			return
		}
	}
	m.queued = append(m.queued, modelItem{item, p})
}

// get returns the first queued item of the highest priority.
func (m *model) get() byte {
	best := 0
	for i, q := range m.queued {
		if q.priority > m.queued[best].priority {
			best = i
		}
	}
	item := m.queued[best].item
	m.queued = slices.Delete(m.queued, best, best+1)
	m.processing[item] = true
	return item
}

func (m *model) done(item byte) {
	delete(m.processing, item)
	if p, ok := m.requeue[item]; ok {
		delete(m.requeue, item)
		m.queued = append(m.queued, modelItem{item, p})
	}
}

// step advances time and adds every due waiting item in ready order.
func (m *model) step(d time.Duration) {
	m.now += d
	var due []byte
	for item, w := range m.waiting {
		if w.at <= m.now {
			due = append(due, item)
		}
	}
	slices.SortFunc(due, func(a, b byte) int {
		wa, wb := m.waiting[a], m.waiting[b]
		if wa.at != wb.at {
			return int(wa.at - wb.at)
		}
		return wa.order - wb.order
	})
	for _, item := range due {
		w := m.waiting[item]
		delete(m.waiting, item)
		m.add(item, w.priority)
	}
}

// FuzzQueue drives random operation sequences against the queue and the model
// and compares every observable result. Each op is two bytes: a verb and an
// argument. Delayed adds use distinct ready times so their order is defined.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 3, 0, 3, 0, 4, 1, 4, 2})
	f.Add([]byte{1, 0x13, 1, 0x24, 0, 3, 3, 0, 2, 3, 0, 1, 4, 3, 3, 0})
	f.Add([]byte{5, 0x31, 5, 0x52, 6, 3, 3, 0, 6, 9, 3, 0, 3, 0})
	f.Add([]byte{0, 7, 3, 0, 0, 7, 1, 0x27, 4, 7, 3, 0, 4, 7, 2, 0})
	f.Add([]byte{0, 1, 0, 2, 4, 0x81, 3, 0, 4, 0x82, 4, 0x81, 4, 0, 3, 0, 4, 0})
	f.Fuzz(runQueueOps)
}

// runQueueOps runs one fuzz input.
func runQueueOps(t *testing.T, ops []byte) {
	c := newFakeClock()
	q := NewTypedWithConfig(TypedQueueConfig[byte]{Clock: c})
	defer q.ShutDown()
	m := &model{processing: map[byte]bool{}, requeue: map[byte]int{}, waiting: map[byte]modelWait{}}
	var inProgress []byte
	usedAt := map[time.Duration]bool{}
	order := 0
	for i := 0; i+1 < len(ops); i += 2 {
		verb, arg := ops[i]%7, ops[i+1]
		item := arg % 8
		switch verb {
		case 0: // Add
			q.Add(item)
			m.add(item, 0)
		case 1: // AddWithOpts with a priority from the high bits
			p := int(arg>>4) - 8
			q.AddWithOpts(AddOpts{Priority: p}, item)
			m.add(item, p)
		case 2, 3: // Get, when something is queued
			if len(m.queued) == 0 {
				continue
			}
			got := mustGet(t, q)
			if want := m.get(); got != want {
				t.Fatalf("op %d: Get = %d, model says %d", i/2, got, want)
			}
			inProgress = append(inProgress, got)
		case 4: // Done of an item in progress (oldest first), or of one that is not
			if arg&0x80 != 0 {
				if !m.processing[item] {
					q.Done(item) // must be ignored
				}
				continue
			}
			if len(inProgress) == 0 {
				continue
			}
			item = inProgress[0]
			inProgress = inProgress[1:]
			q.Done(item)
			m.done(item)
		case 5: // AddWithOpts with a delay and priority
			d := time.Duration(arg>>3+1) * time.Second
			at := m.now + d
			if usedAt[at] {
				continue
			}
			usedAt[at] = true
			p := int(arg>>6) - 1
			q.AddWithOpts(AddOpts{After: d, Priority: p}, item)
			if w, ok := m.waiting[item]; ok {
				if at < w.at {
					w.at = at
				}
				w.priority = max(w.priority, p)
				m.waiting[item] = w
			} else {
				order++
				m.waiting[item] = modelWait{at: at, priority: p, order: order}
			}
		case 6: // advance the clock
			d := time.Duration(arg%16) * time.Second
			c.Step(d)
			m.step(d)
			waitPromoted(t, q)
		}
		if got, want := q.Len(), len(m.queued); got != want {
			t.Fatalf("op %d: Len = %d, model says %d", i/2, got, want)
		}
	}
}

// waitPromoted waits until the timer goroutine has added every item due at the
// clock's current time.
func waitPromoted[T comparable](t *testing.T, q *Typed[T]) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		now := q.clock.Now()
		q.mu.Lock()
		readyAt, ok := q.waiting.next()
		pending := ok && !readyAt.After(now)
		q.mu.Unlock()
		if !pending {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("due items were never added")
		}
		time.Sleep(100 * time.Microsecond)
	}
}
