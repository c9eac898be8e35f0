package workqueue

import (
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/utils/clock"
)

// TypedDelayingInterface is a queue that can also add an item after a delay.
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item once duration has passed; duration <= 0 adds it now.
	// If item is already waiting, the earlier of the two times wins.
	AddAfter(item T, duration time.Duration)
}

// DelayingInterface is the untyped delaying queue.
type DelayingInterface = TypedDelayingInterface[any]

// TypedPriorityInterface is a delaying queue that also takes per-add options.
// Every queue this package constructs implements it.
type TypedPriorityInterface[T comparable] interface {
	TypedDelayingInterface[T]
	// AddWithOpts adds items with the given priority and delay.
	AddWithOpts(opts AddOpts, items ...T)
}

// PriorityInterface is the untyped priority queue.
type PriorityInterface = TypedPriorityInterface[any]

// AddOpts are the options of AddWithOpts.
type AddOpts struct {
	// Priority orders ready items: higher first, FIFO within one priority; the
	// default is 0. Adding an item that is already queued with a higher
	// priority raises it; a lower priority never lowers it.
	Priority int
	// After delays the add, as AddAfter does.
	After time.Duration
	// RateLimited delays the add by at least the queue's rate limiter's
	// When(item). Queues without a rate limiter ignore it.
	RateLimited bool
}

// TypedDelayingQueueConfig configures a delaying queue.
type TypedDelayingQueueConfig[T comparable] = TypedQueueConfig[T]

// DelayingQueueConfig configures an untyped delaying queue.
type DelayingQueueConfig = TypedDelayingQueueConfig[any]

// NewDelayingQueue returns an untyped delaying queue.
func NewDelayingQueue() DelayingInterface { return New() }

// NewDelayingQueueWithConfig returns an untyped delaying queue configured by config.
func NewDelayingQueueWithConfig(config DelayingQueueConfig) DelayingInterface {
	return NewWithConfig(config)
}

// NewNamedDelayingQueue returns an untyped delaying queue whose metrics are labelled name.
func NewNamedDelayingQueue(name string) DelayingInterface { return NewNamed(name) }

// NewTypedDelayingQueue returns a delaying queue of T.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] { return NewTyped[T]() }

// NewTypedDelayingQueueWithConfig returns a delaying queue of T configured by config.
func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	return NewTypedWithConfig(config)
}

// AddAfter adds item once duration has passed; duration <= 0 adds it now. If
// item is already waiting, the earlier of the two times wins.
func (q *Typed[T]) AddAfter(item T, duration time.Duration) {
	if q.retries != nil {
		q.retries.Inc()
	}
	if duration <= 0 {
		q.Add(item)
		return
	}
	readyAt := q.clock.Now().Add(duration)
	q.mu.Lock()
	q.addDelayedLocked(item, 0, readyAt)
	q.mu.Unlock()
}

// AddWithOpts adds items with the priority and delay of opts. RateLimited is
// ignored: this queue has no rate limiter.
func (q *Typed[T]) AddWithOpts(opts AddOpts, items ...T) {
	if opts.After <= 0 {
		var now time.Time
		if q.metrics != nil {
			now = q.clock.Now()
		}
		q.mu.Lock()
		for _, item := range items {
			q.addLocked(item, q.items.hash(item), opts.Priority, now)
		}
		q.mu.Unlock()
		return
	}
	if q.retries != nil {
		for range items {
			q.retries.Inc()
		}
	}
	readyAt := q.clock.Now().Add(opts.After)
	q.mu.Lock()
	for _, item := range items {
		q.addDelayedLocked(item, opts.Priority, readyAt)
	}
	q.mu.Unlock()
}

// addDelayedLocked schedules item to be added with priority p at readyAt.
func (q *Typed[T]) addDelayedLocked(item T, p int, readyAt time.Time) {
	if q.shuttingDown {
		return
	}
	if q.waiting.schedule(item, p, readyAt) {
		q.timers.wakeLocked(readyAt, q.runTimers)
	}
}

// promoteLocked adds every waiting item that is due at now.
func (q *Typed[T]) promoteLocked(now time.Time) {
	for {
		item, p, ok := q.waiting.popDue(now)
		if !ok {
			return
		}
		q.addLocked(item, q.items.hash(item), p, now)
	}
}

// runTimers is the queue's one background goroutine, started on the first
// delayed add or at construction when metrics are on. It moves due items into
// the queue and refreshes the unfinished-work metrics, and exits at shutdown.
func (q *Typed[T]) runTimers() {
	defer close(q.timers.done)
	defer utilruntime.HandleCrashWithLogger(q.logger)
	var t queueTimer
	defer t.stop()
	for {
		now := q.clock.Now()
		q.mu.Lock()
		if q.shuttingDown {
			q.mu.Unlock()
			return
		}
		q.promoteLocked(now)
		next := q.nextDeadlineLocked(now)
		q.timers.armedAt = next
		q.mu.Unlock()

		var fired <-chan time.Time
		if !next.IsZero() {
			if fired = t.arm(q.clock, next); fired == nil {
				continue // already due
			}
		} else {
			t.stop()
		}
		select {
		case <-fired:
		case <-q.timers.wake:
		case <-q.timers.stop:
			return
		}
	}
}

// queueTimer is the timer of the timer goroutine.
type queueTimer struct {
	timer clock.Timer
}

// armSlack is how far the clock may move while the timer is being armed before
// it is armed again; a fake clock stepped by a test moves further than that.
const armSlack = time.Millisecond

// arm sets the timer to fire at deadline and returns its channel, or nil if the
// deadline has already passed. Timers take durations, not deadlines, so if the
// clock moves while arming (a test stepping a fake clock, say), it re-arms
// rather than fire late.
func (t *queueTimer) arm(c clock.Clock, deadline time.Time) <-chan time.Time {
	for {
		t.stop()
		from := c.Now()
		if !from.Before(deadline) {
			return nil
		}
		if t.timer == nil {
			t.timer = c.NewTimer(deadline.Sub(from))
		} else {
			t.timer.Reset(deadline.Sub(from))
		}
		if c.Since(from) < armSlack {
			return t.timer.C()
		}
	}
}

// stop stops the timer and drops a tick nobody received, which would otherwise
// block a fake clock delivering the next one.
func (t *queueTimer) stop() {
	if t.timer != nil && !t.timer.Stop() {
		select {
		case <-t.timer.C():
		default:
		}
	}
}

// nextDeadlineLocked refreshes the unfinished-work metrics when due and returns
// when the timer goroutine must next run; zero means only when woken.
func (q *Typed[T]) nextDeadlineLocked(now time.Time) time.Time {
	next, _ := q.waiting.next()
	if q.metrics != nil {
		if !now.Before(q.timers.metricsAt) {
			q.metrics.updateUnfinishedWork(now)
			q.timers.metricsAt = now.Add(unfinishedWorkUpdatePeriod)
		}
		if next.IsZero() || q.timers.metricsAt.Before(next) {
			next = q.timers.metricsAt
		}
	}
	return next
}

// timerLoop is the bookkeeping of a queue's timer goroutine. All fields but the
// channels are guarded by the queue's mutex.
type timerLoop struct {
	started   bool
	wake      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	armedAt   time.Time // when the goroutine will next run by itself; zero if never
	metricsAt time.Time // when unfinished-work metrics are next refreshed
}

// start launches run as the timer goroutine.
func (l *timerLoop) start(run func()) {
	l.started = true
	l.wake = make(chan struct{}, 1)
	l.stop = make(chan struct{})
	l.done = make(chan struct{})
	go run()
}

// wakeLocked makes sure the timer goroutine runs by readyAt, starting it if needed.
func (l *timerLoop) wakeLocked(readyAt time.Time, run func()) {
	if !l.started {
		l.armedAt = readyAt
		l.start(run)
		return
	}
	if l.armedAt.IsZero() || readyAt.Before(l.armedAt) {
		l.armedAt = readyAt
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}

// stopLocked tells the timer goroutine to exit.
func (l *timerLoop) stopLocked() {
	if l.started {
		close(l.stop)
	}
}

// wait blocks until the timer goroutine has exited. Call it after stopLocked,
// without holding the queue's mutex.
func (l *timerLoop) wait() {
	if l.done != nil {
		<-l.done
	}
}

// delayHeap is a min-heap of delayed adds ordered by ready time. An item
// re-added with an earlier time gets a new entry and its old one goes stale,
// to be skipped when it surfaces; so a push moves no map entries around.
type delayHeap[T comparable] struct {
	entries []delayed[T]  // may include stale entries
	live    map[T]waiting // the current ready time and priority of each waiting item
	epoch   time.Time     // ready times are kept as offsets from it
}

type delayed[T comparable] struct {
	item T
	at   time.Duration // since epoch
}

type waiting struct {
	at       time.Duration
	priority int
}

// schedule records that item is to be added with priority p at readyAt; an
// item already waiting keeps the earlier time and the higher priority. It
// reports whether item is now the first due.
func (h *delayHeap[T]) schedule(item T, p int, readyAt time.Time) bool {
	if h.live == nil {
		h.live = make(map[T]waiting)
		h.epoch = readyAt
	}
	at := readyAt.Sub(h.epoch)
	if w, ok := h.live[item]; ok {
		if at >= w.at {
			if p > w.priority {
				h.live[item] = waiting{at: w.at, priority: p}
			}
			return false
		}
		p = max(p, w.priority)
	}
	h.live[item] = waiting{at: at, priority: p}
	if len(h.entries) > 2*len(h.live)+64 {
		h.compact()
	}
	h.entries = append(h.entries, delayed[T]{item: item, at: at})
	return h.up(len(h.entries)-1) == 0
}

// compact rebuilds the heap from the live entries, so items rescheduled
// earlier over and over do not pile up stale entries.
func (h *delayHeap[T]) compact() {
	kept := make(map[T]bool, len(h.live))
	e := h.entries[:0]
	for _, d := range h.entries {
		if w, ok := h.live[d.item]; ok && w.at == d.at && !kept[d.item] {
			kept[d.item] = true
			e = append(e, d)
		}
	}
	clear(h.entries[len(e):])
	h.entries = e
	for i := len(e)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// next returns when the first waiting item is due; ok is false if none waits.
func (h *delayHeap[T]) next() (readyAt time.Time, ok bool) {
	h.dropStale()
	if len(h.entries) == 0 {
		return time.Time{}, false
	}
	return h.epoch.Add(h.entries[0].at), true
}

// popDue removes and returns the first waiting item if it is due at now.
func (h *delayHeap[T]) popDue(now time.Time) (item T, priority int, ok bool) {
	h.dropStale()
	if len(h.entries) == 0 || h.entries[0].at > now.Sub(h.epoch) {
		return item, 0, false
	}
	item = h.pop().item
	priority = h.live[item].priority
	delete(h.live, item)
	return item, priority, true
}

// dropStale pops superseded entries off the top.
func (h *delayHeap[T]) dropStale() {
	for len(h.entries) > 0 {
		top := h.entries[0]
		if w, ok := h.live[top.item]; ok && w.at == top.at {
			return
		}
		h.pop()
	}
}

func (h *delayHeap[T]) pop() delayed[T] {
	e := h.entries
	top := e[0]
	last := len(e) - 1
	e[0] = e[last]
	e[last] = delayed[T]{}
	h.entries = e[:last]
	h.down(0)
	return top
}

// up moves entry i towards the root and returns its final index.
func (h *delayHeap[T]) up(i int) int {
	e := h.entries
	x := e[i]
	for i > 0 {
		parent := (i - 1) / 2
		if x.at >= e[parent].at {
			break
		}
		e[i] = e[parent]
		i = parent
	}
	e[i] = x
	return i
}

func (h *delayHeap[T]) down(i int) {
	e := h.entries
	if len(e) == 0 {
		return
	}
	x := e[i]
	for {
		child := 2*i + 1
		if child >= len(e) {
			break
		}
		if r := child + 1; r < len(e) && e[r].at < e[child].at {
			child = r
		}
		if x.at <= e[child].at {
			break
		}
		e[i] = e[child]
		i = child
	}
	e[i] = x
}
