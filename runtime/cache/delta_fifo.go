package cache

import (
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
)

// DeltaType is the kind of change a Delta records.
type DeltaType string

// The change kinds.
const (
	Added   DeltaType = "Added"
	Updated DeltaType = "Updated"
	Deleted DeltaType = "Deleted"
	// Replaced is emitted by Replace, when EmitDeltaTypeReplaced is set, for every listed object.
	Replaced DeltaType = "Replaced"
	// Sync is emitted by Resync, and by Replace when EmitDeltaTypeReplaced is not set.
	Sync DeltaType = "Sync"
)

// Delta is one change: its type and the object after it (for Deleted, the object before it).
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas lists the changes of one object, oldest first.
type Deltas []Delta

// Oldest returns the oldest delta, or nil.
func (d Deltas) Oldest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[0]
}

// Newest returns the newest delta, or nil.
func (d Deltas) Newest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// KeyLister lists keys.
type KeyLister interface {
	ListKeys() []string
}

// KeyGetter gets objects by key.
type KeyGetter interface {
	GetByKey(key string) (value any, exists bool, err error)
}

// KeyListerGetter lists keys and gets objects by key; a DeltaFIFO consults one for the objects already
// known downstream (usually the informer's indexer).
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

// PopProcessFunc processes the deltas of one object popped from a DeltaFIFO.
type PopProcessFunc func(obj any, isInInitialList bool) error

// ErrRequeue, returned by a PopProcessFunc, puts the popped deltas back in the queue (unless newer
// deltas for the object arrived meanwhile). Err is what Pop then returns.
type ErrRequeue struct {
	Err error
}

// Error describes the failure.
func (e ErrRequeue) Error() string {
	if e.Err == nil {
		return "the popped item should be requeued without returning an error"
	}
	return e.Err.Error()
}

// ErrFIFOClosed is returned by Pop once the queue is closed and empty.
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// DeltaFIFOOptions configures NewDeltaFIFOWithOptions.
type DeltaFIFOOptions struct {
	// KeyFunction computes object keys; default MetaNamespaceKeyFunc.
	KeyFunction KeyFunc
	// KnownObjects are the objects already processed downstream; Replace and Delete consult them to
	// detect deletions, and Resync re-sends them.
	KnownObjects KeyListerGetter
	// EmitDeltaTypeReplaced makes Replace emit Replaced instead of Sync.
	EmitDeltaTypeReplaced bool
	// Transformer is applied once to every object as it is queued.
	Transformer TransformFunc
}

// DeltaFIFO is a queue of objects, each with the list of its pending changes. Pop hands out all deltas
// of one object at once, in the order objects were first queued; later changes to a queued object join
// its list instead of queuing it twice.
//
// Informers in this package do not use DeltaFIFO (see the package documentation); it is here for
// controllers built directly on a Reflector.
type DeltaFIFO struct {
	lock sync.Mutex
	cond sync.Cond

	items map[string]Deltas
	queue []string

	// populated is set by the first Replace or Add/Update/Delete; initialPopulationCount counts the
	// keys of the first Replace not popped yet.
	populated              bool
	initialPopulationCount int

	keyFunc               KeyFunc
	knownObjects          KeyListerGetter
	emitDeltaTypeReplaced bool
	transformer           TransformFunc
	closed                bool
	synced                chan struct{}
}

// NewDeltaFIFO returns a DeltaFIFO that emits Sync on Replace.
//
// Deprecated: use NewDeltaFIFOWithOptions with EmitDeltaTypeReplaced, which tells relists from resyncs.
func NewDeltaFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter) *DeltaFIFO {
	return NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects})
}

// NewDeltaFIFOWithOptions returns a DeltaFIFO configured by opts.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{
		items:                 map[string]Deltas{},
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
		transformer:           opts.Transformer,
		synced:                make(chan struct{}),
	}
	f.cond.L = &f.lock
	return f
}

// Close makes Pop return ErrFIFOClosed once the queue is empty.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// KeyOf returns the key of an object, of the newest object of Deltas, or of a tombstone.
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{obj, errors.New("0 length Deltas object; can't get key")}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// Transformer returns the transform applied to queued objects.
func (f *DeltaFIFO) Transformer() TransformFunc { return f.transformer }

// HasSynced reports whether the first Replace (or Add/Update/Delete before any Replace) has been
// fully popped.
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.syncedLocked()
}

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (f *DeltaFIFO) HasSyncedChecker() DoneChecker { return doneChecker{"DeltaFIFO", f.synced} }

func (f *DeltaFIFO) syncedLocked() bool {
	return f.populated && f.initialPopulationCount == 0
}

func (f *DeltaFIFO) checkSyncedLocked() {
	if f.syncedLocked() {
		select {
		case <-f.synced:
		default:
			close(f.synced)
		}
	}
}

// Add queues an Added delta.
func (f *DeltaFIFO) Add(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.markPopulatedLocked()
	return f.queueActionLocked(Added, obj)
}

// Update queues an Updated delta.
func (f *DeltaFIFO) Update(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.markPopulatedLocked()
	return f.queueActionLocked(Updated, obj)
}

// Delete queues a Deleted delta, unless the object is neither queued nor known downstream.
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return err
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.markPopulatedLocked()
	_, queued := f.items[key]
	known := false
	if f.knownObjects != nil {
		_, known, err = f.knownObjects.GetByKey(key)
		if err != nil {
			return err
		}
	}
	if !queued && !known {
		return nil
	}
	return f.queueActionLocked(Deleted, obj)
}

func (f *DeltaFIFO) markPopulatedLocked() {
	if !f.populated {
		f.populated = true
		f.checkSyncedLocked()
	}
}

// AddIfNotPresent queues deltas (a Deltas value) only if the object has nothing queued; it is how a
// processor puts back what it popped.
func (f *DeltaFIFO) AddIfNotPresent(obj any) error {
	deltas, ok := obj.(Deltas)
	if !ok {
		return fmt.Errorf("object must be of type Deltas, but got: %#v", obj)
	}
	key, err := f.KeyOf(deltas)
	if err != nil {
		return err
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.addIfNotPresentLocked(key, deltas)
	return nil
}

func (f *DeltaFIFO) addIfNotPresentLocked(key string, deltas Deltas) {
	f.populated = true
	if _, exists := f.items[key]; exists {
		return
	}
	f.queue = append(f.queue, key)
	f.items[key] = deltas
	f.cond.Broadcast()
}

// queueActionLocked appends a delta for obj. Objects are transformed once, as they enter the queue;
// a Sync re-sends an object that already was.
func (f *DeltaFIFO) queueActionLocked(t DeltaType, obj any) error {
	return f.queueLocked(t, obj, t != Sync)
}

// queueLocked appends a delta for obj, transforming obj first if asked, and collapses two trailing
// deletions into one.
func (f *DeltaFIFO) queueLocked(t DeltaType, obj any, transform bool) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	if f.transformer != nil && transform {
		if _, tomb := obj.(DeletedFinalStateUnknown); !tomb {
			if obj, err = f.transformer(obj); err != nil {
				return err
			}
		}
	}
	old, queued := f.items[key]
	deltas := collapseDeletions(append(old, Delta{t, obj}))
	if !queued {
		f.queue = append(f.queue, key)
	}
	f.items[key] = deltas
	f.cond.Broadcast()
	return nil
}

// collapseDeletions merges two trailing Deleted deltas, keeping the one with the real object over a
// tombstone.
func collapseDeletions(d Deltas) Deltas {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	if _, tomb := d[n-1].Object.(DeletedFinalStateUnknown); tomb {
		return d[:n-1]
	}
	d[n-2] = d[n-1]
	return d[:n-1]
}

// List returns the newest object of every queued item.
func (f *DeltaFIFO) List() []any {
	f.lock.Lock()
	defer f.lock.Unlock()
	list := make([]any, 0, len(f.items))
	for _, d := range f.items {
		list = append(list, d.Newest().Object)
	}
	return list
}

// ListKeys returns the keys of the queued items.
func (f *DeltaFIFO) ListKeys() []string {
	f.lock.Lock()
	defer f.lock.Unlock()
	keys := make([]string, 0, len(f.items))
	for key := range f.items {
		keys = append(keys, key)
	}
	return keys
}

// Get returns a copy of the deltas queued for obj's key.
func (f *DeltaFIFO) Get(obj any) (item any, exists bool, err error) {
	key, err := f.KeyOf(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	return f.GetByKey(key)
}

// GetByKey returns a copy of the deltas queued for key.
func (f *DeltaFIFO) GetByKey(key string) (item any, exists bool, err error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	d, exists := f.items[key]
	if !exists {
		return nil, false, nil
	}
	return append(Deltas(nil), d...), true, nil
}

// Pop waits for an item, removes it and calls process with all its deltas, holding the queue's lock
// so the item is processed before anything else is popped. If process returns ErrRequeue the deltas go
// back in the queue. Pop returns ErrFIFOClosed once the queue is closed and empty.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		for len(f.queue) == 0 {
			if f.closed {
				return nil, ErrFIFOClosed
			}
			f.cond.Wait()
		}
		inInitialList := !f.syncedLocked()
		key := f.queue[0]
		f.queue[0] = ""
		f.queue = f.queue[1:]
		if f.initialPopulationCount > 0 {
			f.initialPopulationCount--
			f.checkSyncedLocked()
		}
		deltas, ok := f.items[key]
		if !ok {
			continue
		}
		delete(f.items, key)
		err := process(deltas, inInitialList)
		var requeue ErrRequeue
		if errors.As(err, &requeue) {
			f.addIfNotPresentLocked(key, deltas)
			err = requeue.Err
		}
		return deltas, err
	}
}

// Replace queues a Replaced (or Sync) delta for every listed object and a Deleted delta with a
// DeletedFinalStateUnknown for every queued or known object missing from list.
func (f *DeltaFIFO) Replace(list []any, _ string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	keys := make(sets.Set[string], len(list))
	for _, obj := range list {
		key, err := f.KeyOf(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		keys.Insert(key)
		// A listed object is new to the queue, so it is transformed even when emitted as Sync.
		if err := f.queueLocked(action, obj, true); err != nil {
			return err
		}
	}
	deletions := 0
	for key, deltas := range f.items {
		if keys.Has(key) {
			continue
		}
		last := deltas.Newest().Object
		if tomb, ok := last.(DeletedFinalStateUnknown); ok {
			last = tomb.Obj
		}
		deletions++
		if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: last}); err != nil {
			return err
		}
	}
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if keys.Has(key) || len(f.items[key]) > 0 {
				continue
			}
			obj, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				klog.V(4).InfoS("Known object vanished during Replace; queueing a deletion without its state", "key", key, "err", err)
				obj = nil
			}
			deletions++
			if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
				return err
			}
		}
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = keys.Len() + deletions
		f.checkSyncedLocked()
	}
	return nil
}

// Resync queues a Sync delta for every known object that has nothing queued.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	for _, key := range f.knownObjects.ListKeys() {
		if len(f.items[key]) > 0 {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		if err := f.queueActionLocked(Sync, obj); err != nil {
			return err
		}
	}
	return nil
}
