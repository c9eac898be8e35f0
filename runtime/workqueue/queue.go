package workqueue

import (
	"runtime"
	"sync"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// TypedInterface is a work queue of items of type T: FIFO within a priority,
// deduplicating, and never handing one item to two workers at once.
type TypedInterface[T comparable] interface {
	// Add queues item unless it is already queued. An item added while it is
	// being processed is queued again once, after Done.
	Add(item T)
	// Len returns the number of items ready to be handed out by Get.
	Len() int
	// Get blocks until an item is ready and hands it out; shutdown is true
	// once the queue is shut down and empty.
	Get() (item T, shutdown bool)
	// Done marks the end of processing an item returned by Get.
	Done(item T)
	// ShutDown makes the queue ignore new items and wakes every waiting Get.
	ShutDown()
	// ShutDownWithDrain is ShutDown that also waits until every item handed
	// out by Get is Done.
	ShutDownWithDrain()
	// ShuttingDown reports whether ShutDown has been called.
	ShuttingDown() bool
}

// Interface is the untyped work queue, as in client-go.
type Interface = TypedInterface[any]

// TypedQueueConfig configures a queue.
type TypedQueueConfig[T comparable] struct {
	// Name labels the queue's metrics; metrics are only recorded for named queues.
	Name string
	// MetricsProvider produces the queue's metrics; nil means the provider set
	// with SetProvider, which by default records nothing.
	MetricsProvider MetricsProvider
	// Clock is the source of time for delays and metrics; nil means the real clock.
	Clock clock.Clock
	// Logger reports a panic in the queue's timer goroutine (delayed adds and metrics) before the
	// process crashes; nil means klog's background logger. The queue's name is not added to it.
	Logger *klog.Logger
}

// Pausable is implemented by queues whose Get can be paused, as every queue of this package is;
// callers of an interface type discover it with a type assertion.
type Pausable interface {
	// Pause makes Get hand out nothing until Resume or a shutdown; Add, AddAfter, Done and
	// Forget keep working meanwhile.
	Pause()
	// Resume lets Get hand out queued items again.
	Resume()
}

// QueueConfig configures an untyped queue.
type QueueConfig = TypedQueueConfig[any]

// Type is the untyped queue.
type Type = Typed[any]

// Typed is the work queue implementation behind every constructor of this
// package. It implements TypedInterface, TypedDelayingInterface and
// TypedPriorityInterface.
type Typed[T comparable] struct {
	// The fields every Add, Get and Done writes come first, to share the
	// mutex's cache line.
	mu         backoffMutex
	queued     int          // items waiting in levels
	processing int          // items handed out by Get and not yet Done
	seq        uint64       // sequence number of the last entry written
	stale      int          // obsolete entries left in levels by priority raises
	getters    int          // Gets waiting for an item
	items      itemTable[T] // every item queued or in progress
	levels     levels
	cache      addCache[T] // hot items whose Add changes nothing

	shuttingDown bool
	draining     bool
	paused       bool             // Get hands out nothing (Pause)
	polling      bool             // a Get is polling for an item (pollLocked)
	metrics      *queueMetrics[T] // nil when metrics are off

	ready sync.Cond // signalled when an item is queued, broadcast on shutdown
	idle  sync.Cond // broadcast when the last item in progress is Done during a drain

	waiting delayHeap[T] // delayed adds, earliest first
	timers  timerLoop

	clock   clock.Clock
	retries CounterMetric // nil when metrics are off
	logger  klog.Logger
}

// itemState is what the queue knows about an item queued or in progress. An
// item is queued while its entry (seq at priority) has not been popped, and in
// progress after that; so Get hands an item out without looking it up.
type itemState struct {
	seq      uint64 // number of the item's latest FIFO entry, never 0
	priority int    // priority of that entry
	// dirty: added again while in progress, to be queued at requeuePriority on Done.
	dirty bool
	// cached: the add cache may hold the item, so Get must clear its flag there.
	cached          bool
	requeuePriority int
}

// New returns an untyped queue.
func New() *Type { return NewTyped[any]() }

// NewWithConfig returns an untyped queue configured by config.
func NewWithConfig(config QueueConfig) *Type { return NewTypedWithConfig(config) }

// NewNamed returns an untyped queue whose metrics are labelled name.
func NewNamed(name string) *Type { return NewWithConfig(QueueConfig{Name: name}) }

// NewTyped returns a queue of T.
func NewTyped[T comparable]() *Typed[T] { return NewTypedWithConfig(TypedQueueConfig[T]{}) }

// NewTypedWithConfig returns a queue of T configured by config.
func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	c := config.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	q := &Typed[T]{
		items:  newItemTable[T](),
		clock:  c,
		logger: klog.Background(),
	}
	if config.Logger != nil {
		q.logger = *config.Logger
	}
	q.ready.L = &q.mu
	q.idle.L = &q.mu
	q.metrics, q.retries = newQueueMetrics[T](config.MetricsProvider, config.Name)
	if q.metrics != nil {
		q.timers.start(q.runTimers)
	}
	return q
}

// Add queues item at the default priority 0.
func (q *Typed[T]) Add(item T) {
	h := q.items.hash(item)
	if q.cache.absorbs(h, item) {
		return
	}
	var now time.Time
	if q.metrics != nil {
		now = q.clock.Now()
	}
	q.mu.Lock()
	q.addLocked(item, h, 0, now)
	q.mu.Unlock()
}

// addLocked queues item, whose hash is h, at priority p; now is only used for metrics.
func (q *Typed[T]) addLocked(item T, h uint64, p int, now time.Time) {
	if q.shuttingDown {
		return
	}
	i, found := q.items.lookup(h, item)
	if !found {
		r, rec := q.items.insertAt(i, h, item)
		st := &rec.state
		st.seq, st.priority = q.push(r, h, p), p
		st.cached = q.cache.set(h, item, p >= 0)
		q.recordAdd(item, now)
		return
	}
	r := q.items.recordAt(i)
	st := &q.items.record(r).state
	switch {
	case q.levels.queued(st.priority, st.seq):
		if p > st.priority { // raise: the entry at the old priority goes stale
			st.seq, st.priority = q.push(r, h, p), p
			q.queued--
			q.stale++
			st.cached = q.cache.set(h, item, p >= 0)
		} else if st.priority >= 0 {
			st.cached = q.cache.cache(h, item)
		}
	case !st.dirty:
		st.dirty, st.requeuePriority = true, p
		st.cached = q.cache.set(h, item, p >= 0)
		q.recordAdd(item, now)
	default:
		st.requeuePriority = max(st.requeuePriority, p)
		if st.requeuePriority >= 0 {
			st.cached = q.cache.cache(h, item)
		}
	}
}

// recordAdd records an add that changed the queue in the metrics, if they are on.
func (q *Typed[T]) recordAdd(item T, now time.Time) {
	if q.metrics != nil {
		q.metrics.add(item, now)
	}
}

// push writes a new entry for the item of record r, whose hash is h, at
// priority p, wakes one Get and returns the entry's sequence number.
func (q *Typed[T]) push(r uint32, h uint64, p int) uint64 {
	q.seq++
	q.levels.fifo(p, q.seq-1).push(entry{seq: q.seq, record: r, hash: uint32(h)})
	q.queued++
	if q.getters > 0 {
		q.ready.Signal()
	}
	return q.seq
}

// Len returns the number of items ready to be handed out.
func (q *Typed[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queued
}

// Get blocks until an item is ready, then hands out the highest-priority,
// longest-waiting one. Items still queued at shutdown are handed out, unless the
// queue is paused; shutdown is true once the queue is shut down and empty (or
// paused).
func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.queued == 0 && !q.shuttingDown && !q.paused {
		q.pollLocked()
	}
	for (q.queued == 0 || q.paused) && !q.shuttingDown {
		q.getters++
		q.ready.Wait()
		q.getters--
	}
	if q.queued == 0 || q.paused {
		return item, true
	}
	e := q.levels.pop()
	rec := q.current(e)
	for rec == nil {
		q.stale--
		e = q.levels.pop()
		rec = q.current(e)
	}
	q.queued--
	q.prefetchAfterGet(e)
	if rec.state.cached {
		q.cache.taken(q.items.hash(rec.item), rec.item)
	}
	if q.queued == 0 && q.stale > 0 {
		q.levels.reset()
		q.stale = 0
	}
	q.processing++
	if q.metrics != nil {
		q.metrics.get(rec.item, q.clock.Now())
	}
	return rec.item, false
}

// prefetchAfterGet starts loading, without waiting for it, what the next few
// calls will read from memory after Get pops entry e: the index slot that Done will
// look e's item up in, and the record and index slot of the next entry. In a
// deep queue these are cache misses (the producer wrote them on another core,
// or long ago); loading them now overlaps the misses with the caller's work
// instead of stretching the next holds of the mutex.
func (q *Typed[T]) prefetchAfterGet(e entry) {
	q.items.prefetchSlot(e.hash)
	if next := q.levels.peek(); next.seq != 0 {
		q.items.prefetchRecord(next.record)
		q.items.prefetchSlot(next.hash)
	}
}

// current returns the record of the item entry e was written for, or nil if e
// is obsolete: a priority raise wrote a newer entry for its item, or its
// record was freed before the table packed its records (levels.renumber).
func (q *Typed[T]) current(e entry) *record[T] {
	if e.seq == 0 {
		return nil
	}
	if rec := q.items.record(e.record); rec.state.seq == e.seq {
		return rec
	}
	return nil
}

// getPolls is how many times a Get that finds the queue empty polls for an item, with the growing pauses
// of backoffMutex (about 40µs in all), before it parks.
const getPolls = 4

// pollLocked lets a Get that found the queue empty poll for an item for a while before it parks: waking
// a parked goroutine costs the scheduler microseconds, tens of them on a VM, far more than a producer
// adding items in a loop takes to add the next one, so a worker that parks whenever it catches up with
// the producer processes an item per wake-up. One Get at a time polls, and only when another processor
// can run the producer meanwhile. It is called and returns with the mutex held, and releases it between
// polls.
func (q *Typed[T]) pollLocked() {
	if q.polling || runtime.GOMAXPROCS(0) == 1 {
		return
	}
	q.polling = true
	lengths := pauses()
	pause := lengths.first
	for range getPolls {
		q.mu.Unlock()
		spin(pause)
		q.mu.Lock()
		if q.queued > 0 || q.shuttingDown {
			break
		}
		pause = min(2*pause, lengths.max)
	}
	q.polling = false
}

// Done marks item as processed. If it was added again meanwhile, it is queued now.
func (q *Typed[T]) Done(item T) {
	var now time.Time
	if q.metrics != nil {
		now = q.clock.Now()
	}
	h := q.items.hash(item)
	q.mu.Lock()
	defer q.mu.Unlock()
	i, found := q.items.lookup(h, item)
	if !found {
		return
	}
	r := q.items.recordAt(i)
	st := &q.items.record(r).state
	if q.levels.queued(st.priority, st.seq) {
		return
	}
	q.processing--
	if q.metrics != nil {
		q.metrics.done(item, now)
	}
	if st.dirty {
		st.seq, st.priority, st.dirty = q.push(r, h, st.requeuePriority), st.requeuePriority, false
	} else if q.items.removeAt(i) {
		q.levels.renumber(q.items.shrink())
	}
	if q.processing == 0 && q.draining {
		q.idle.Broadcast()
	}
}

// Pause makes Get hand out nothing until Resume or a shutdown, which then hands
// out no queued item either; Add, AddAfter, Done and Forget keep working, and
// ShutDownWithDrain waits only for the items handed out before.
func (q *Typed[T]) Pause() {
	q.mu.Lock()
	q.paused = true
	q.mu.Unlock()
}

// Resume lets Get hand out queued items again after Pause.
func (q *Typed[T]) Resume() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.paused {
		q.paused = false
		q.ready.Broadcast()
	}
}

// ShutDown makes the queue ignore new items, drops pending delayed adds, wakes
// every waiting Get and stops the queue's timer goroutine before returning.
func (q *Typed[T]) ShutDown() {
	q.mu.Lock()
	q.draining = false
	q.shutDownLocked()
	q.idle.Broadcast()
	q.mu.Unlock()
	q.timers.wait()
}

// ShutDownWithDrain is ShutDown that then blocks until every item handed out by
// Get is Done (or until ShutDown is called).
func (q *Typed[T]) ShutDownWithDrain() {
	q.mu.Lock()
	q.draining = true
	q.shutDownLocked()
	for q.processing > 0 && q.draining {
		q.idle.Wait()
	}
	q.mu.Unlock()
	q.timers.wait()
}

func (q *Typed[T]) shutDownLocked() {
	if q.shuttingDown {
		return
	}
	q.shuttingDown = true
	q.waiting = delayHeap[T]{}
	q.timers.stopLocked()
	q.ready.Broadcast()
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain has been called.
func (q *Typed[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}
