package cache

import (
	"sync"
	"time"
)

// notificationKind says which handler method a notification calls.
type notificationKind uint8

const (
	notifyAdd notificationKind = iota
	notifyUpdate
	notifyDelete
	// notifySynced marks the end of the listener's initial contents; it calls no handler.
	notifySynced
)

// notification is one handler call. resync marks updates that only handlers with a resync period
// receive.
type notification struct {
	kind        notificationKind
	initialList bool
	resync      bool
	oldObj      any
	newObj      any
}

// listener runs one handler in its own goroutine, fed by an unbounded buffer of notification batches.
// Batches are shared read-only between listeners, so distributing a batch costs one append per listener.
type listener struct {
	handler      ResourceEventHandler
	resyncPeriod time.Duration

	mu       sync.Mutex
	batches  [][]notification
	pos      int // position in batches[0]
	wake     chan struct{}
	stopped  bool
	pending  int // notifications buffered and not yet handled
	nextSync time.Time

	synced     chan struct{}
	syncedOnce sync.Once
	name       string
}

func newListener(handler ResourceEventHandler, resyncPeriod time.Duration, name string) *listener {
	return &listener{
		handler:      handler,
		resyncPeriod: resyncPeriod,
		wake:         make(chan struct{}, 1),
		synced:       make(chan struct{}),
		name:         name,
	}
}

// push appends a batch; it never blocks on the handler.
func (l *listener) push(batch []notification) {
	if len(batch) == 0 {
		return
	}
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return
	}
	l.batches = append(l.batches, batch)
	l.pending += len(batch)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// next returns the next notification, waiting for one; ok is false once the listener stopped.
func (l *listener) next() (n notification, ok bool) {
	for {
		l.mu.Lock()
		if l.stopped {
			l.mu.Unlock()
			return notification{}, false
		}
		if len(l.batches) > 0 {
			batch := l.batches[0]
			n = batch[l.pos]
			l.pos++
			if l.pos == len(batch) {
				l.batches[0] = nil
				l.batches = l.batches[1:]
				l.pos = 0
			}
			l.pending--
			l.mu.Unlock()
			return n, true
		}
		l.mu.Unlock()
		<-l.wake
	}
}

// run calls the handler for every notification until stop.
func (l *listener) run() {
	for {
		n, ok := l.next()
		if !ok {
			return
		}
		switch n.kind {
		case notifyAdd:
			l.handler.OnAdd(n.newObj, n.initialList)
		case notifyUpdate:
			if n.resync && l.resyncPeriod == 0 {
				continue
			}
			l.handler.OnUpdate(n.oldObj, n.newObj)
		case notifyDelete:
			l.handler.OnDelete(n.oldObj)
		case notifySynced:
			l.syncedOnce.Do(func() { close(l.synced) })
		}
	}
}

// stop makes run return after the notification in progress; buffered notifications are dropped.
func (l *listener) stop() {
	l.mu.Lock()
	l.stopped = true
	l.batches = nil
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// dueForResync reports whether the handler's resync period elapsed, and schedules the next one.
func (l *listener) dueForResync(now time.Time) bool {
	if l.resyncPeriod == 0 || now.Before(l.nextSync) {
		return false
	}
	l.nextSync = now.Add(l.resyncPeriod)
	return true
}

// registration is the ResourceEventHandlerRegistration handed to callers.
type registration struct {
	l        *listener
	informer *sharedIndexInformer
}

// HasSynced reports whether the handler has been handed the informer's initial contents.
func (r *registration) HasSynced() bool { return IsDone(r.HasSyncedChecker()) }

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (r *registration) HasSyncedChecker() DoneChecker { return doneChecker{r.l.name, r.l.synced} }

// doneChecker is a DoneChecker over a channel.
type doneChecker struct {
	name string
	ch   <-chan struct{}
}

func (d doneChecker) Name() string          { return d.name }
func (d doneChecker) Done() <-chan struct{} { return d.ch }
