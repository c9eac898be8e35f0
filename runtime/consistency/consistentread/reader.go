package consistentread

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/utils/clock"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/consistency"
)

// DefaultTimeout bounds each wait of a Reader built without a Timeout option.
const DefaultTimeout = 10 * time.Second

// pollInterval is how often a Reader looks at a store that cannot tell it when its resourceVersion
// changes (an Indexer not built by runtime/cache).
const pollInterval = 10 * time.Millisecond

// Informer is what a Reader needs of an informer; runtime/cache's SharedIndexInformer, and so every
// generated informer's Informer(), has it.
type Informer interface {
	GetIndexer() cache.Indexer
	HasSynced() bool
	IsStopped() bool
}

// rvNotifier is implemented by runtime/cache's stores: the channel closes when the store's
// resourceVersion next changes.
type rvNotifier interface {
	ResourceVersionChanged() <-chan struct{}
}

// Reader waits until one informer's cache holds the writes a Recorder remembers for the informer's
// resource: per object (WaitForObject) or all of them (WaitForCacheSync). Lister reads through it.
type Reader struct {
	resource schema.GroupResource
	writes   *consistency.ResourceWrites
	informer Informer
	indexer  cache.Indexer
	notifier rvNotifier // nil: poll
	timeout  time.Duration
	clock    clock.Clock
	covers   func(consistency.Write) bool

	// confirmed is the writes' Count at which the cache last held all of them: until the count
	// changes no read waits.
	confirmed atomic.Uint64

	// seen holds, for writes with resourceVersions that cannot be compared as integers, the version
	// of each object the cache was found to hold exactly: from then on the cache holds it or later.
	seenMu sync.Mutex
	seen   map[string]string
}

// Option configures a Reader.
type Option func(*Reader)

// Timeout bounds each wait (DefaultTimeout if unset); a wait that reaches it fails with a
// *NotObservedError. A context deadline that comes first ends the wait too.
func Timeout(d time.Duration) Option {
	return func(r *Reader) { r.timeout = d }
}

// Covers tells which written objects the informer can hold, for an informer that sees part of a
// resource (a label or field selector, a sharded informer): a write it reports false for is never
// waited for. Without it every write of the resource is, and a write the informer never sees makes
// waits run to their timeout unless a later event or bookmark brings the cache past it.
func Covers(covers func(consistency.Write) bool) Option {
	return func(r *Reader) { r.covers = covers }
}

// WithClock sets the clock that times waits, for tests.
func WithClock(c clock.Clock) Option {
	return func(r *Reader) { r.clock = c }
}

// New returns a Reader of informer, an informer of resource, that waits for the writes rec
// remembers.
func New(rec *consistency.Recorder, resource schema.GroupResource, informer Informer, opts ...Option) *Reader {
	r := &Reader{
		resource: resource,
		writes:   rec.Resource(resource),
		informer: informer,
		indexer:  informer.GetIndexer(),
		timeout:  DefaultTimeout,
		clock:    clock.RealClock{},
	}
	r.notifier, _ = r.indexer.(rvNotifier)
	for _, o := range opts {
		o(r)
	}
	return r
}

// Resource returns the group and resource the Reader's informer holds.
func (r *Reader) Resource() schema.GroupResource { return r.resource }

// Indexer returns the informer's Indexer.
func (r *Reader) Indexer() cache.Indexer { return r.indexer }

// WaitForCacheSync waits until the informer has synced and its cache holds every write the recorder
// remembers for the resource (that the Reader covers), or a later state of each object.
func (r *Reader) WaitForCacheSync(ctx context.Context) error {
	return r.waitForWrites(ctx, "")
}

// waitForWrites is WaitForCacheSync for the writes in namespace, or all of them for "".
func (r *Reader) waitForWrites(ctx context.Context, namespace string) error {
	if r.writes.Count() == r.confirmed.Load() || r.holdsAll() {
		return nil
	}
	count := r.writes.Count()
	writes := r.writes.Writes(namespace)
	pending := func() *consistency.Write {
		if !r.informer.HasSynced() {
			return &consistency.Write{}
		}
		storeRV := r.indexer.LastStoreSyncResourceVersion()
		for i := range writes {
			if !r.holds(writes[i], storeRV) {
				return &writes[i]
			}
		}
		return nil
	}
	if err := r.wait(ctx, pending); err != nil {
		return err
	}
	if namespace == "" {
		r.confirmed.Store(count)
	}
	return nil
}

// holdsAll reports whether the cache is known to hold every write recorded so far without looking
// at each: it is at or past the newest, and none without a comparable version came after the last
// confirmation. It then records the confirmation, so that reads skip the writes until the next one.
func (r *Reader) holdsAll() bool {
	count, maxVersion, unversionedAt := r.writes.Summary()
	if unversionedAt > r.confirmed.Load() || !r.informer.HasSynced() {
		return false
	}
	if maxVersion != "" {
		cmp, err := resourceversion.CompareResourceVersion(r.indexer.LastStoreSyncResourceVersion(), maxVersion)
		if err != nil || cmp < 0 {
			return false
		}
	}
	r.confirmed.Store(count)
	return true
}

// WaitForObject waits until the informer's cache holds the recorder's last write to the object
// namespace/name ("" namespace for a cluster-scoped one), or a later state of it. It returns at once
// when the recorder remembers no write to the object, or the Reader does not cover it.
func (r *Reader) WaitForObject(ctx context.Context, namespace, name string) error {
	if r.writes.Count() == r.confirmed.Load() {
		return nil
	}
	key := name
	if namespace != "" {
		key = namespace + "/" + name
	}
	w, ok := r.writes.Last(key)
	if !ok {
		return nil
	}
	if r.informer.HasSynced() && r.holds(w, r.indexer.LastStoreSyncResourceVersion()) {
		r.holdsAll()
		return nil
	}
	return r.waitForWrite(ctx, w)
}

// waitForWrite waits until the cache holds w; a function of its own, so that only a read that
// waits moves w to the heap.
func (r *Reader) waitForWrite(ctx context.Context, w consistency.Write) error {
	return r.wait(ctx, func() *consistency.Write {
		if !r.informer.HasSynced() || !r.holds(w, r.indexer.LastStoreSyncResourceVersion()) {
			return &w
		}
		return nil
	})
}

// wait returns once pending reports nothing pending, checking again each time the store's
// resourceVersion changes, until the timeout or ctx ends it.
func (r *Reader) wait(ctx context.Context, pending func() *consistency.Write) error {
	missing := pending()
	if missing == nil {
		return nil
	}
	start := r.clock.Now()
	timer := r.clock.NewTimer(r.timeout)
	defer timer.Stop()
	for {
		if r.informer.IsStopped() {
			return r.notObserved(*missing, start, errInformerStopped)
		}
		var changed <-chan struct{}
		var poll clock.Timer
		var polled <-chan time.Time
		if r.notifier != nil {
			changed = r.notifier.ResourceVersionChanged()
		} else {
			poll = r.clock.NewTimer(pollInterval)
			polled = poll.C()
		}
		if missing = pending(); missing == nil {
			stopTimer(poll)
			return nil
		}
		select {
		case <-changed:
		case <-polled:
		case <-timer.C():
			stopTimer(poll)
			return r.notObserved(*missing, start, nil)
		case <-ctx.Done():
			stopTimer(poll)
			return r.notObserved(*missing, start, ctx.Err())
		}
		stopTimer(poll)
	}
}

func stopTimer(t clock.Timer) {
	if t != nil {
		t.Stop()
	}
}

func (r *Reader) notObserved(w consistency.Write, start time.Time, cause error) error {
	return &NotObservedError{
		Resource:             r.resource,
		Write:                w,
		Synced:               r.informer.HasSynced(),
		CacheResourceVersion: r.indexer.LastStoreSyncResourceVersion(),
		Waited:               r.clock.Since(start),
		Err:                  cause,
	}
}

// holds reports whether the cache, at storeRV, holds w or a later state of its object.
func (r *Reader) holds(w consistency.Write, storeRV string) bool {
	if r.covers != nil && !r.covers(w) {
		return true
	}
	if w.ResourceVersion != "" {
		if cmp, err := resourceversion.CompareResourceVersion(storeRV, w.ResourceVersion); err == nil {
			// Watch events of one resource arrive in resourceVersion order and the store records
			// the version of each one it applies: at or past w's version it has applied w's event.
			return cmp >= 0
		}
		return r.seenExactly(w)
	}
	// A delete answered with a Status: the write before it must be in, and the object gone.
	if w.PreviousResourceVersion != "" {
		prev := w
		prev.ResourceVersion, prev.Deleted = w.PreviousResourceVersion, false
		if !r.holds(prev, storeRV) {
			return false
		}
	}
	obj, exists, err := r.indexer.GetByKey(w.Key())
	if err != nil || !exists {
		return err == nil
	}
	m, err := meta.Accessor(obj)
	return err == nil && w.UID != "" && m.GetUID() != w.UID
}

// seenExactly is holds for resourceVersions that do not compare as integers: the cache holds w once
// it was found holding the object at exactly w's version, since later events only bring later ones.
func (r *Reader) seenExactly(w consistency.Write) bool {
	key := w.Key()
	r.seenMu.Lock()
	defer r.seenMu.Unlock()
	if r.seen[key] == w.ResourceVersion {
		return true
	}
	obj, exists, err := r.indexer.GetByKey(key)
	if err != nil || !exists {
		return false
	}
	m, err := meta.Accessor(obj)
	if err != nil || m.GetResourceVersion() != w.ResourceVersion {
		return false
	}
	if r.seen == nil {
		r.seen = map[string]string{}
	}
	r.seen[key] = w.ResourceVersion
	return true
}

// errInformerStopped is the cause of a NotObservedError from a stopped informer.
var errInformerStopped = fmt.Errorf("the informer stopped")
