package events

import (
	"errors"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"
)

var (
	// errShutDown is returned when recording or watching on a broadcaster that was shut down.
	errShutDown = errors.New("events: broadcaster is shut down")
	// errQueueFull is returned when the broadcaster's queue has no room for another event.
	errQueueFull = errors.New("events: broadcaster queue is full")
)

// distributor takes events from recorders through a bounded queue and hands each to every watcher,
// dropping or waiting on a watcher whose channel is full depending on behavior.
type distributor struct {
	incoming     chan *corev1.Event
	behavior     watch.FullChannelBehavior
	watcherQueue int

	closeMu sync.RWMutex // enqueue holds it for reading, close for writing, so no send hits a closed queue
	closed  bool

	watchersMu sync.Mutex // held while distributing one event and while adding or removing watchers
	watchers   map[*eventWatcher]struct{}
	finished   bool          // run has closed all watchers; no new ones
	done       chan struct{} // closed when the queue is drained and all watchers are closed

	queueDropped   atomic.Uint64
	watcherDropped atomic.Uint64
}

func newDistributor(queueLength, watcherQueueLength int, behavior watch.FullChannelBehavior) *distributor {
	d := &distributor{
		incoming:     make(chan *corev1.Event, queueLength),
		behavior:     behavior,
		watcherQueue: watcherQueueLength,
		watchers:     map[*eventWatcher]struct{}{},
		done:         make(chan struct{}),
	}
	go d.run()
	return d
}

// enqueue queues event without ever blocking; it fails when the queue is full or closed.
func (d *distributor) enqueue(event *corev1.Event) error {
	d.closeMu.RLock()
	defer d.closeMu.RUnlock()
	if d.closed {
		d.queueDropped.Add(1)
		return errShutDown
	}
	select {
	case d.incoming <- event:
		return nil
	default:
		d.queueDropped.Add(1)
		return errQueueFull
	}
}

// close stops accepting events; run delivers what is queued, then closes every watcher.
func (d *distributor) close() {
	d.closeMu.Lock()
	defer d.closeMu.Unlock()
	if !d.closed {
		d.closed = true
		close(d.incoming)
	}
}

func (d *distributor) run() {
	for event := range d.incoming {
		d.distribute(watch.Event{Type: watch.Added, Object: event})
	}
	d.watchersMu.Lock()
	for w := range d.watchers {
		delete(d.watchers, w)
		close(w.result)
	}
	d.finished = true
	d.watchersMu.Unlock()
	close(d.done)
}

func (d *distributor) distribute(event watch.Event) {
	d.watchersMu.Lock()
	defer d.watchersMu.Unlock()
	for w := range d.watchers {
		if d.behavior == watch.WaitIfChannelFull {
			select {
			case w.result <- event:
			case <-w.stopped:
			}
			continue
		}
		select {
		case w.result <- event:
		default:
			d.watcherDropped.Add(1)
		}
	}
}

// watch adds a watcher that receives every event distributed from now on.
func (d *distributor) watch() (*eventWatcher, error) {
	w := &eventWatcher{d: d, result: make(chan watch.Event, d.watcherQueue), stopped: make(chan struct{})}
	d.watchersMu.Lock()
	defer d.watchersMu.Unlock()
	if d.finished {
		return nil, errShutDown
	}
	d.watchers[w] = struct{}{}
	return w, nil
}

// eventWatcher is one consumer of a distributor; it implements watch.Interface.
type eventWatcher struct {
	d        *distributor
	result   chan watch.Event
	stopped  chan struct{}
	stopOnce sync.Once
}

var _ watch.Interface = (*eventWatcher)(nil)

// ResultChan delivers the events; it is closed when the watcher is stopped or the broadcaster shut down.
func (w *eventWatcher) ResultChan() <-chan watch.Event { return w.result }

// Stop ends the watch; events already in the channel can still be read.
func (w *eventWatcher) Stop() {
	w.stopOnce.Do(func() {
		close(w.stopped) // frees a distributor waiting on this watcher before taking its lock
		w.d.watchersMu.Lock()
		defer w.d.watchersMu.Unlock()
		if _, ok := w.d.watchers[w]; ok {
			delete(w.d.watchers, w)
			close(w.result)
		}
	})
}
