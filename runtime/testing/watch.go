package testing

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

// Watch implements ObjectTracker with the server's resourceVersion semantics:
//   - "" or "0": synthetic ADDED events for the current objects, then every later change;
//   - N: every change after N, replayed from the history; 410 Expired (as an ERROR event) when N
//     is older than the history;
//   - sendInitialEvents=true (with resourceVersionMatch=NotOlderThan): the current objects, then a
//     BOOKMARK annotated "k8s.io/initial-events-end", then every later change.
//
// Objects entering or leaving the selectors arrive as ADDED or DELETED. Events are buffered per
// watcher without bound, so a slow consumer never blocks writers or loses events.
func (t *tracker) Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error) {
	o, err := single(opts)
	if err != nil {
		return nil, err
	}
	sel, err := newSelection(ns, o)
	if err != nil {
		return nil, err
	}
	initialEvents := o.SendInitialEvents != nil && *o.SendInitialEvents
	if o.SendInitialEvents != nil {
		if o.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan {
			return nil, apierrors.NewBadRequest("sendInitialEvents requires resourceVersionMatch=NotOlderThan")
		}
		if initialEvents && !o.AllowWatchBookmarks {
			return nil, apierrors.NewBadRequest("sendInitialEvents requires allowWatchBookmarks=true")
		}
	}
	var fromRV int64
	if o.ResourceVersion != "" {
		if fromRV, err = strconv.ParseInt(o.ResourceVersion, 10, 64); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resource version %q", o.ResourceVersion))
		}
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.store(gvr)
	if err := sel.checkFieldLabels(t.prototype(s, schema.GroupVersionKind{})); err != nil {
		return nil, err
	}
	w := newWatcher(t, s, sel)
	switch {
	case o.SendInitialEvents != nil && !initialEvents && fromRV == 0:
		// Explicitly no initial events: start at the current state.
	case initialEvents || fromRV == 0:
		w.sendCurrent(s)
		if initialEvents {
			if err := w.sendInitialEventsEnd(t, s, t.rv); err != nil {
				return nil, err
			}
		}
	case fromRV < s.history.compactedRV:
		w.queue = append(w.queue, watch.Event{Type: watch.Error, Object: expired(fromRV, s.history.compactedRV)})
		w.closing = true
		go w.run()
		return w, nil
	default:
		w.after = fromRV
		s.history.after(fromRV, w.send)
	}
	s.watchers[w] = struct{}{}
	if o.TimeoutSeconds != nil && *o.TimeoutSeconds > 0 {
		w.expire = time.After(time.Duration(*o.TimeoutSeconds) * time.Second)
	}
	go w.run()
	return w, nil
}

// expired is the Status of a watch that starts before the retained history.
func expired(requested, compacted int64) *metav1.Status {
	return &metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusGone,
		Reason:  metav1.StatusReasonExpired,
		Message: fmt.Sprintf("too old resource version: %d (%d)", requested, compacted),
	}
}

// watcher is one watch on a resource.
type watcher struct {
	tracker *tracker
	store   *resourceStore
	sel     selection
	after   int64 // only changes with a newer resourceVersion are delivered
	result  chan watch.Event
	done    chan struct{}
	wake    chan struct{}
	stop    sync.Once
	expire  <-chan time.Time // the watch's timeoutSeconds; nil for none

	mu      sync.Mutex
	queue   []watch.Event
	closing bool // close the result channel once the queue is drained
}

func newWatcher(t *tracker, s *resourceStore, sel selection) *watcher {
	return &watcher{
		tracker: t,
		store:   s,
		sel:     sel,
		result:  make(chan watch.Event),
		done:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
	}
}

// ResultChan returns the channel of events; it is closed after Stop.
func (w *watcher) ResultChan() <-chan watch.Event { return w.result }

// Stop ends the watch and releases its resources.
func (w *watcher) Stop() {
	w.stop.Do(func() {
		close(w.done)
		w.tracker.mu.Lock()
		delete(w.store.watchers, w)
		w.tracker.mu.Unlock()
	})
}

// sendCurrent queues the current objects as ADDED events, in key order. Callers hold the tracker lock.
func (w *watcher) sendCurrent(s *resourceStore) {
	for _, k := range sortedKeys(s.objects) {
		if obj := s.objects[k.name]; w.sel.matches(obj) {
			w.push(watch.Event{Type: watch.Added, Object: obj.DeepCopyObject()})
		}
	}
}

// sendInitialEventsEnd queues the bookmark that ends the initial events of a streaming list.
func (w *watcher) sendInitialEventsEnd(t *tracker, s *resourceStore, rv int64) error {
	obj, err := t.bookmarkObject(s)
	if err != nil {
		return err
	}
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion(strconv.FormatInt(rv, 10))
	m.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	w.push(watch.Event{Type: watch.Bookmark, Object: obj})
	return nil
}

// bookmarkObject returns an empty object of the resource's kind, the carrier of a bookmark.
func (t *tracker) bookmarkObject(s *resourceStore) (runtime.Object, error) {
	gvk := s.kind
	if gvk.Empty() {
		gvk = t.guessKind(s.gvr)
	}
	if gvk.Empty() {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("cannot stream %s: its kind is unknown to the tracker", s.gvr))
	}
	if obj, err := t.scheme.New(gvk); err == nil {
		return obj, nil
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// guessKind finds the kind the scheme registers for the resource, for resources never written to.
func (t *tracker) guessKind(gvr schema.GroupVersionResource) schema.GroupVersionKind {
	scheme, ok := t.scheme.(*runtime.Scheme)
	if !ok {
		return schema.GroupVersionKind{}
	}
	for gvk := range scheme.AllKnownTypes() {
		if gvk.Group != gvr.Group || gvk.Version != gvr.Version {
			continue
		}
		if plural, _ := meta.UnsafeGuessKindToResource(gvk); plural.Resource == gvr.Resource {
			return gvk
		}
	}
	return schema.GroupVersionKind{}
}

// send queues the watcher's view of a change: selectors decide whether a modification is seen as
// ADDED, MODIFIED or DELETED, or not at all. Callers hold the tracker lock.
func (w *watcher) send(ev event) {
	if ev.rv <= w.after {
		return
	}
	now := w.sel.matches(ev.obj)
	before := ev.prev != nil && w.sel.matches(ev.prev)
	switch ev.typ {
	case watch.Added:
		if now {
			w.push(watch.Event{Type: watch.Added, Object: ev.obj.DeepCopyObject()})
		}
	case watch.Deleted:
		if before || now {
			w.push(watch.Event{Type: watch.Deleted, Object: ev.obj.DeepCopyObject()})
		}
	case watch.Modified:
		switch {
		case now && before:
			w.push(watch.Event{Type: watch.Modified, Object: ev.obj.DeepCopyObject()})
		case now:
			w.push(watch.Event{Type: watch.Added, Object: ev.obj.DeepCopyObject()})
		case before:
			gone := ev.prev.DeepCopyObject()
			if m, err := meta.Accessor(gone); err == nil {
				m.SetResourceVersion(strconv.FormatInt(ev.rv, 10))
			}
			w.push(watch.Event{Type: watch.Deleted, Object: gone})
		}
	}
}

// push appends an event to the queue and wakes the delivery goroutine.
func (w *watcher) push(ev watch.Event) {
	w.mu.Lock()
	w.queue = append(w.queue, ev)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// run delivers queued events in order until Stop, then closes the result channel.
func (w *watcher) run() {
	defer close(w.result)
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			closing := w.closing
			w.mu.Unlock()
			if closing {
				return
			}
			select {
			case <-w.wake:
				continue
			case <-w.done:
				return
			case <-w.expire:
				w.Stop()
				return
			}
		}
		ev := w.queue[0]
		w.queue[0] = watch.Event{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		select {
		case w.result <- ev:
		case <-w.done:
			return
		case <-w.expire:
			w.Stop()
			return
		}
	}
}
