package cache

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// source is an in-memory ListerWatcher of ConfigMaps that behaves like an apiserver in the ways a
// reflector cares about: increasing resourceVersions, chunked lists with continue tokens, compaction
// (410 Gone), resourceVersion-too-large, bookmarks, streaming lists, and injectable faults.
type source struct {
	mu       sync.Mutex
	rv       uint64
	objects  map[string]*corev1.ConfigMap
	history  []watch.Event // every change, in order; events before compacted are gone
	first    uint64        // resourceVersion of history[0]
	watchers map[*sourceWatch]struct{}

	// faults, each consumed by the next matching request
	failLists      int
	failWatches    int
	expireContinue bool
	// noInitialEventsEnd makes streaming lists never send their end bookmark.
	noInitialEventsEnd bool
	// rejectWatchList makes streaming list requests fail as an old server would.
	rejectWatchList bool

	lists, watches, watchLists int
}

var errTransport = &netError{}

type netError struct{}

func (*netError) Error() string   { return "connection reset by peer" }
func (*netError) Unwrap() error   { return syscall.ECONNRESET }
func (*netError) Timeout() bool   { return false }
func (*netError) Temporary() bool { return true }

func newSource() *source {
	return &source{objects: map[string]*corev1.ConfigMap{}, watchers: map[*sourceWatch]struct{}{}, first: 1}
}

func cmKey(ns, name string) string { return ns + "/" + name }

// apply records a change at the next resourceVersion and fans it out to open watches.
func (s *source) apply(t watch.EventType, ns, name string, data string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.applyLocked(t, ns, name, data)
}

func (s *source) applyLocked(t watch.EventType, ns, name string, data string) {
	key := cmKey(ns, name)
	old, exists := s.objects[key]
	switch t {
	case watch.Added:
		if exists {
			t = watch.Modified
		}
	case watch.Modified:
		if !exists {
			t = watch.Added
		}
	case watch.Deleted:
		if !exists {
			return
		}
	}
	s.rv++
	rv := strconv.FormatUint(s.rv, 10)
	var obj *corev1.ConfigMap
	if t == watch.Deleted {
		obj = old.DeepCopy()
		obj.ResourceVersion = rv
		delete(s.objects, key)
	} else {
		obj = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: map[string]string{"data": data}},
			Data:       map[string]string{"v": data},
		}
		s.objects[key] = obj
	}
	e := watch.Event{Type: t, Object: obj}
	s.history = append(s.history, e)
	s.broadcastLocked(e)
}

// broadcastLocked sends e to every open watch, forgetting the ones clients stopped.
func (s *source) broadcastLocked(e watch.Event) {
	for w := range s.watchers {
		select {
		case <-w.done:
			delete(s.watchers, w)
		default:
			if e.Type != watch.Bookmark || w.bookmarks {
				w.send(e)
			}
		}
	}
}

// compact forgets history up to the current resourceVersion, so older resourceVersions get 410.
func (s *source) compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compactLocked()
}

func (s *source) compactLocked() {
	s.history = nil
	s.first = s.rv + 1
}

// closeWatches ends every open watch as a dropped connection would.
func (s *source) closeWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeWatchesLocked()
}

func (s *source) closeWatchesLocked() {
	for w := range s.watchers {
		w.close()
		delete(s.watchers, w)
	}
}

// bookmark sends a bookmark at the current resourceVersion to every watch that allows them.
func (s *source) bookmark() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broadcastLocked(watch.Event{Type: watch.Bookmark, Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: strconv.FormatUint(s.rv, 10)}}})
}

// sendError sends an ERROR event with status to every open watch.
func (s *source) sendError(status *metav1.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broadcastLocked(watch.Event{Type: watch.Error, Object: status})
}

// sendRaw sends an arbitrary event to every open watch.
func (s *source) sendRaw(e watch.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broadcastLocked(e)
}

// snapshot returns key → resourceVersion of the current objects.
func (s *source) snapshot() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.objects))
	for k, o := range s.objects {
		out[k] = o.ResourceVersion
	}
	return out
}

func (s *source) openWatches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for w := range s.watchers {
		select {
		case <-w.done:
		default:
			n++
		}
	}
	return n
}

func (s *source) expired() error {
	return apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d", s.first-1))
}

// checkRV validates a requested resourceVersion against what the source can serve.
func (s *source) checkRV(rv string) error {
	if rv == "" || rv == "0" {
		return nil
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return apierrors.NewBadRequest("invalid resourceVersion " + rv)
	}
	if n > s.rv {
		return tooLarge(n, s.rv)
	}
	if n+1 < s.first {
		return s.expired()
	}
	return nil
}

func tooLarge(want, have uint64) error {
	err := apierrors.NewTimeoutError(fmt.Sprintf("Too large resource version: %d, current: %d", want, have), 1)
	err.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}
	return err
}

func (s *source) List(options metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists++
	if s.failLists > 0 {
		s.failLists--
		return nil, errTransport
	}
	offset := 0
	if options.Continue != "" {
		if s.expireContinue {
			s.expireContinue = false
			return nil, apierrors.NewResourceExpired("continue token expired")
		}
		var err error
		if offset, err = strconv.Atoi(options.Continue); err != nil {
			return nil, apierrors.NewBadRequest("bad continue token")
		}
	} else if err := s.checkRV(options.ResourceVersion); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(s.objects))
	for k := range s.objects {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.FormatUint(s.rv, 10)}}
	end := len(keys)
	if options.Limit > 0 && offset+int(options.Limit) < end {
		end = offset + int(options.Limit)
		list.Continue = strconv.Itoa(end)
	}
	for _, k := range keys[min(offset, len(keys)):end] {
		list.Items = append(list.Items, *s.objects[k].DeepCopy())
	}
	return list, nil
}

func (s *source) Watch(options metav1.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watches++
	if s.failWatches > 0 {
		s.failWatches--
		return nil, errTransport
	}
	if options.SendInitialEvents != nil && *options.SendInitialEvents {
		s.watchLists++
		if s.rejectWatchList {
			return nil, apierrors.NewBadRequest("sendInitialEvents is not supported")
		}
		w := newSourceWatch(options.AllowWatchBookmarks)
		keys := make([]string, 0, len(s.objects))
		for k := range s.objects {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			w.send(watch.Event{Type: watch.Added, Object: s.objects[k].DeepCopy()})
		}
		if !s.noInitialEventsEnd {
			w.send(watch.Event{Type: watch.Bookmark, Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
				ResourceVersion: strconv.FormatUint(s.rv, 10),
				Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
			}}})
		}
		s.watchers[w] = struct{}{}
		return w, nil
	}
	if err := s.checkRV(options.ResourceVersion); err != nil {
		return nil, err
	}
	w := newSourceWatch(options.AllowWatchBookmarks)
	from, _ := strconv.ParseUint(options.ResourceVersion, 10, 64)
	if options.ResourceVersion == "" || options.ResourceVersion == "0" {
		from = s.rv
	}
	for _, e := range s.history {
		if rvOf(e.Object) > from {
			w.send(e)
		}
	}
	s.watchers[w] = struct{}{}
	return w, nil
}

func rvOf(obj runtime.Object) uint64 {
	n, _ := strconv.ParseUint(obj.(metav1.Object).GetResourceVersion(), 10, 64)
	return n
}

// sourceWatch is one open watch: an unbounded buffer drained into the result channel by a goroutine.
type sourceWatch struct {
	bookmarks bool
	mu        sync.Mutex
	pending   []watch.Event
	wake      chan struct{}
	out       chan watch.Event
	done      chan struct{}
	closeOnce sync.Once
}

func newSourceWatch(bookmarks bool) *sourceWatch {
	w := &sourceWatch{bookmarks: bookmarks, wake: make(chan struct{}, 1), out: make(chan watch.Event), done: make(chan struct{})}
	go w.pump()
	return w
}

// send queues e with a copy of its object, so that, as with a real server, no two watches (nor the
// source's own history) share an object the informer receiving it owns and may modify.
func (w *sourceWatch) send(e watch.Event) {
	if e.Object != nil {
		e.Object = e.Object.DeepCopyObject()
	}
	w.mu.Lock()
	w.pending = append(w.pending, e)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *sourceWatch) pump() {
	defer close(w.out)
	for {
		w.mu.Lock()
		var e watch.Event
		have := len(w.pending) > 0
		if have {
			e = w.pending[0]
			w.pending = w.pending[1:]
		}
		w.mu.Unlock()
		if !have {
			select {
			case <-w.wake:
				continue
			case <-w.done:
				return
			}
		}
		select {
		case w.out <- e:
		case <-w.done:
			return
		}
	}
}

func (w *sourceWatch) close() { w.closeOnce.Do(func() { close(w.done) }) }

func (w *sourceWatch) Stop() { w.close() }

func (w *sourceWatch) ResultChan() <-chan watch.Event { return w.out }

// stopAll closes every watch; tests call it before checking for leaked goroutines.
func (s *source) stopAll() { s.closeWatches() }

var _ ListerWatcher = &source{}
