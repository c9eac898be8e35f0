package cache

import (
	"sync"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// A handler is slow when a notification takes at least slowNotification while at least slowBacklog
// more wait behind it (client-go's DeltaFIFO traced pops of its queue with the same thresholds). Slow
// handlers are reported at most once per slowReportInterval each.
const (
	slowBacklog        = 10
	slowNotification   = 100 * time.Millisecond
	slowReportInterval = time.Minute
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

	report listenerReport
}

// listenerReport is how a listener makes its backlog visible: a gauge of the notifications waiting,
// and a rate-limited log line when the handler is slow with a deep backlog.
type listenerReport struct {
	informer     string // the informer's object description
	registration string // identifies the handler among the informer's
	backlog      GaugeMetric
	logger       klog.Logger
	clock        clock.Clock

	lastReport time.Time // when the last slow-handler line was logged
	unreported int       // slow notifications since then
}

func newListener(handler ResourceEventHandler, resyncPeriod time.Duration, name string, report listenerReport) *listener {
	return &listener{
		handler:      handler,
		resyncPeriod: resyncPeriod,
		wake:         make(chan struct{}, 1),
		synced:       make(chan struct{}),
		name:         name,
		report:       report,
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
	l.report.backlog.Set(float64(l.pending))
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// next returns the next notification and how many wait behind it, waiting for one; ok is false once
// the listener stopped.
func (l *listener) next() (n notification, backlog int, ok bool) {
	for {
		l.mu.Lock()
		if l.stopped {
			l.mu.Unlock()
			return notification{}, 0, false
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
			backlog = l.pending
			l.report.backlog.Set(float64(backlog))
			l.mu.Unlock()
			return n, backlog, true
		}
		l.mu.Unlock()
		<-l.wake
	}
}

// run calls the handler for every notification until stop.
func (l *listener) run() {
	for {
		n, backlog, ok := l.next()
		if !ok {
			return
		}
		// Only notifications with a deep backlog behind them are timed, so a keeping-up handler pays
		// nothing for the check.
		if backlog >= slowBacklog {
			start := l.report.clock.Now()
			l.handle(n)
			if took := l.report.clock.Since(start); took >= slowNotification {
				l.reportSlow(backlog, took)
			}
			continue
		}
		l.handle(n)
	}
}

// handle makes the handler call for n.
func (l *listener) handle(n notification) {
	switch n.kind {
	case notifyAdd:
		l.handler.OnAdd(n.newObj, n.initialList)
	case notifyUpdate:
		if n.resync && l.resyncPeriod == 0 {
			return
		}
		l.handler.OnUpdate(n.oldObj, n.newObj)
	case notifyDelete:
		l.handler.OnDelete(n.oldObj)
	case notifySynced:
		l.syncedOnce.Do(func() { close(l.synced) })
	}
}

// reportSlow logs, at most once per slowReportInterval, that the handler took long over a
// notification while backlog more waited. Only the listener's goroutine calls it.
func (l *listener) reportSlow(backlog int, took time.Duration) {
	r := &l.report
	r.unreported++
	now := r.clock.Now()
	if !r.lastReport.IsZero() && now.Sub(r.lastReport) < slowReportInterval {
		return
	}
	r.logger.Info("Warning: slow event handler; notifications are piling up in its buffer",
		"type", r.informer, "handler", r.registration, "backlog", backlog, "took", took, "slowNotifications", r.unreported)
	r.lastReport, r.unreported = now, 0
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
