package cache

import (
	"sync"

	"k8s.io/klog/v2"
)

// eventKind is the kind of change an event carries.
type eventKind uint8

const (
	eventAdd eventKind = iota
	eventUpdate
	eventDelete
	eventReplace
	eventResync
	eventBookmark
)

// event is one change reported by the reflector, in arrival order.
type event struct {
	kind eventKind
	obj  any
	list []any
	rv   string
}

// eventQueue is the informer's in-order queue between the reflector and the store. Unlike DeltaFIFO it
// does not group changes by key: events keep their arrival order, a relist is one event, and the
// consumer takes everything queued at once (up to a bound), so the reflector never waits for handlers.
type eventQueue struct {
	mu        sync.Mutex
	events    []event
	closed    bool
	wake      chan struct{}
	transform TransformFunc
	// keepManagedFields turns off dropping metadata.managedFields before objects are cached.
	keepManagedFields bool
	// sharer shares equal parts of the objects queued for the cache; nil when sharing is off.
	sharer *sharer
	// store is the cache the queue feeds, where the sharer finds its exemplars; nil in tests.
	store  *keyedStore
	queued GaugeMetric
}

var _ ReflectorStore = &eventQueue{}

func newEventQueue(queued GaugeMetric, store *keyedStore) *eventQueue {
	return &eventQueue{wake: make(chan struct{}, 1), queued: queued, store: store, sharer: newSharer(store)}
}

func (q *eventQueue) setTransform(t TransformFunc) {
	q.mu.Lock()
	q.transform = t
	q.mu.Unlock()
}

// setSharing turns sharing equal parts of cached objects on or off.
func (q *eventQueue) setSharing(on bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case !on:
		q.sharer = nil
	case q.sharer == nil:
		q.sharer = newSharer(q.store)
	}
}

func (q *eventQueue) setKeepManagedFields(keep bool) {
	q.mu.Lock()
	q.keepManagedFields = keep
	q.mu.Unlock()
}

// transformed prepares an object for the cache once, as it is queued: it drops metadata.managedFields
// (unless kept), applies the user's transform, then, if share is set and sharing is on, shares the
// object's equal parts with those of a similar cached object (a deleted object is not cached, so it
// is not shared). A failing transform is logged and the object is kept as it was before the
// transform, so no change is lost. Tombstones pass through unchanged.
func (q *eventQueue) transformed(obj any, share bool) any {
	if _, ok := obj.(DeletedFinalStateUnknown); ok {
		return obj
	}
	q.mu.Lock()
	t, keep, sh := q.transform, q.keepManagedFields, q.sharer
	q.mu.Unlock()
	if !keep {
		dropManagedFields(obj)
	}
	if t != nil {
		out, err := t(obj)
		if err != nil {
			klog.ErrorS(err, "Transform failed; caching the object untransformed")
		} else {
			obj = out
		}
	}
	if sh != nil && share {
		sh.shareObject(obj)
	}
	return obj
}

func (q *eventQueue) push(e event) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.events = append(q.events, e)
	q.queued.Set(float64(len(q.events)))
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Add queues an addition.
func (q *eventQueue) Add(obj any) error {
	q.push(event{kind: eventAdd, obj: q.transformed(obj, true)})
	return nil
}

// Update queues an update.
func (q *eventQueue) Update(obj any) error {
	q.push(event{kind: eventUpdate, obj: q.transformed(obj, true)})
	return nil
}

// Delete queues a deletion.
func (q *eventQueue) Delete(obj any) error {
	q.push(event{kind: eventDelete, obj: q.transformed(obj, false)})
	return nil
}

// Replace queues a relist; it is applied as one atomic step. list is transformed in place.
func (q *eventQueue) Replace(list []any, rv string) error {
	for i := range list {
		list[i] = q.transformed(list[i], true)
	}
	return q.replacePrepared(list, rv)
}

// prepare prepares one listed object for the cache as it arrives; see listPreparer.
func (q *eventQueue) prepare(obj any) any { return q.transformed(obj, true) }

// replacePrepared queues a relist whose objects went through prepare.
func (q *eventQueue) replacePrepared(list []any, rv string) error {
	q.push(event{kind: eventReplace, list: list, rv: rv})
	return nil
}

// Resync queues a periodic resync.
func (q *eventQueue) Resync() error {
	q.push(event{kind: eventResync})
	return nil
}

// Bookmark queues a resourceVersion the store reaches once earlier events are applied.
func (q *eventQueue) Bookmark(rv string) {
	q.push(event{kind: eventBookmark, rv: rv})
}

// wait blocks until events are queued; it returns false once the queue is closed.
func (q *eventQueue) wait() bool {
	for {
		q.mu.Lock()
		closed, ready := q.closed, len(q.events) > 0
		q.mu.Unlock()
		switch {
		case closed:
			return false
		case ready:
			return true
		}
		<-q.wake
	}
}

// take removes and returns up to max queued events without waiting.
func (q *eventQueue) take(max int) []event {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := min(max, len(q.events))
	batch := make([]event, n)
	copy(batch, q.events)
	clear(q.events[:n])
	q.events = q.events[n:]
	if len(q.events) == 0 {
		q.events = nil
	}
	q.queued.Set(float64(len(q.events)))
	return batch
}

// close makes wait return false; queued events are dropped.
func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.events = nil
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}
