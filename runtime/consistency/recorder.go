package consistency

import (
	"context"
	"maps"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/utils/clock"
)

// DefaultRetention is how long a Recorder remembers a write when NewRecorder is given no Retention.
const DefaultRetention = 5 * time.Minute

// Write is one write a Recorder remembers: the last one its clients made to one object.
type Write struct {
	// Namespace and Name name the object; Namespace is "" for a cluster-scoped one.
	Namespace, Name string
	// UID is the object's UID, "" when neither the response nor the request named it.
	UID types.UID
	// ResourceVersion is the one the server answered with: the object's new version, or for a
	// delete the version of the deletion (or of the object marked for deletion). It is "" for a
	// delete the server answered with a Status, which carries none.
	ResourceVersion string
	// Deleted is set for a delete.
	Deleted bool
	// PreviousResourceVersion, for a delete answered with a Status, is the version of the recorder's
	// last write to the object before it: a cache must reach it before the object's absence means
	// that the delete, and not the write's event still on its way, is what the cache shows.
	PreviousResourceVersion string
	// Labels are the object's labels as the server returned them (a copy), for a reader's Covers
	// predicate; nil for a delete answered with a Status.
	Labels map[string]string

	at time.Time
}

// Key is the object's key in an informer's store: "namespace/name", or "name".
func (w Write) Key() string {
	if w.Namespace == "" {
		return w.Name
	}
	return w.Namespace + "/" + w.Name
}

// Recorder remembers the writes that clients made under a context carrying it (WithRecorder), per
// group and resource and per object, so that readers (runtime/consistency/consistentread) can wait
// until an informer's cache holds them. It is safe for concurrent use.
type Recorder struct {
	clock     clock.PassiveClock
	retention time.Duration

	mu        sync.Mutex
	resources map[schema.GroupResource]*ResourceWrites
}

// ResourceWrites are the writes a Recorder remembers for one group and resource.
type ResourceWrites struct {
	recorder *Recorder
	// count is the number of writes recorded so far; a reader that found every write up to a count
	// in its cache need not look again until it changes.
	count atomic.Uint64

	mu   sync.Mutex
	last map[string]Write // by Write.Key
	// maxVersion is the highest resourceVersion recorded that compares as an integer, and
	// unversionedAt the count just after the last write recorded without one (a delete answered with
	// a Status, or an opaque resourceVersion).
	maxVersion    string
	unversionedAt uint64
	// pruneAt is the size of last at which the next write drops expired ones, so that pruning costs
	// a constant amount per write.
	pruneAt int
}

// RecorderOption configures a Recorder.
type RecorderOption func(*Recorder)

// Retention sets how long a write is remembered (DefaultRetention if unset). A write older than that
// is assumed to be in every cache, so readers no longer wait for it; keep it well above the readers'
// wait timeouts.
func Retention(d time.Duration) RecorderOption {
	return func(r *Recorder) { r.retention = d }
}

// WithClock sets the clock that dates writes, for tests.
func WithClock(c clock.PassiveClock) RecorderOption {
	return func(r *Recorder) { r.clock = c }
}

// NewRecorder returns an empty Recorder.
func NewRecorder(opts ...RecorderOption) *Recorder {
	r := &Recorder{clock: clock.RealClock{}, retention: DefaultRetention, resources: map[schema.GroupResource]*ResourceWrites{}}
	for _, o := range opts {
		o(r)
	}
	return r
}

type recorderKey struct{}

// WithRecorder returns a copy of ctx whose writes through kgen's typed (runtime/gentype) and dynamic
// clients, apply included, are recorded in r. A nil r returns ctx unchanged.
func WithRecorder(ctx context.Context, r *Recorder) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, recorderKey{}, r)
}

// RecorderFrom returns the Recorder ctx carries, or nil. Clients call it after a successful write.
func RecorderFrom(ctx context.Context) *Recorder {
	r, _ := ctx.Value(recorderKey{}).(*Recorder)
	return r
}

// Resource returns the writes the recorder remembers for resource; readers keep it.
func (r *Recorder) Resource(resource schema.GroupResource) *ResourceWrites {
	r.mu.Lock()
	defer r.mu.Unlock()
	rw := r.resources[resource]
	if rw == nil {
		rw = &ResourceWrites{recorder: r, last: map[string]Write{}}
		r.resources[resource] = rw
	}
	return rw
}

// Record remembers a create, update, patch or apply of an object of resource whose result the server
// returned as obj. A nil object, or one without a name or resourceVersion, is ignored.
func (r *Recorder) Record(resource schema.GroupResource, obj metav1.Object) {
	if isNil(obj) || obj.GetName() == "" || obj.GetResourceVersion() == "" {
		return
	}
	r.Resource(resource).put(Write{
		Namespace:       obj.GetNamespace(),
		Name:            obj.GetName(),
		UID:             obj.GetUID(),
		ResourceVersion: obj.GetResourceVersion(),
		Labels:          maps.Clone(obj.GetLabels()),
	})
}

// RecordDelete remembers a delete of the object namespace/name of resource. uid is the UID the request
// named in its preconditions, or "". response is the object the server answered with (the deleted
// object, or the object now marked for deletion when finalizers or a grace period keep it), or nil
// when it answered with a Status.
func (r *Recorder) RecordDelete(resource schema.GroupResource, namespace, name string, uid types.UID, response metav1.Object) {
	w := Write{Namespace: namespace, Name: name, UID: uid, Deleted: true}
	if !isNil(response) && response.GetName() == name {
		w.ResourceVersion = response.GetResourceVersion()
		w.Labels = maps.Clone(response.GetLabels())
		if response.GetUID() != "" {
			w.UID = response.GetUID()
		}
	}
	r.Resource(resource).put(w)
}

// PreconditionUID returns the UID a delete's options make a precondition, or "".
func PreconditionUID(opts metav1.DeleteOptions) types.UID {
	if opts.Preconditions == nil || opts.Preconditions.UID == nil {
		return ""
	}
	return *opts.Preconditions.UID
}

// isNil reports whether obj is nil or a nil pointer, as a reactor of a fake client may return.
func isNil(obj metav1.Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// put remembers w as the last write to its object. A delete answered with a Status takes the UID
// (unless the request named one), labels and resourceVersion of the recorder's last write to the
// object, if any: that is the object it removed.
func (rw *ResourceWrites) put(w Write) {
	now := rw.recorder.clock.Now()
	w.at = now
	key := w.Key()
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if w.Deleted && w.ResourceVersion == "" {
		if prev, ok := rw.last[key]; ok && !prev.Deleted && !rw.expired(prev, now) && (w.UID == "" || w.UID == prev.UID) {
			w.UID, w.Labels, w.PreviousResourceVersion = prev.UID, prev.Labels, prev.ResourceVersion
		}
	}
	rw.last[key] = w
	count := rw.count.Add(1)
	switch {
	case !isVersion(w.ResourceVersion):
		rw.unversionedAt = count
	case rw.maxVersion == "" || newer(w.ResourceVersion, rw.maxVersion):
		rw.maxVersion = w.ResourceVersion
	}
	if len(rw.last) >= rw.pruneAt {
		for k, old := range rw.last {
			if now.Sub(old.at) > rw.recorder.retention {
				delete(rw.last, k)
			}
		}
		rw.pruneAt = max(2*len(rw.last), 64)
	}
}

// Count returns the number of writes recorded so far: while it stays the same, so do the writes.
func (rw *ResourceWrites) Count() uint64 { return rw.count.Load() }

// Summary returns, read together, the number of writes recorded so far, the highest resourceVersion
// among them that compares as an integer ("" if none), and the count just after the last write
// recorded without such a version (0 if none). A cache at or past maxVersion holds every write
// recorded after unversionedAt up to count.
func (rw *ResourceWrites) Summary() (count uint64, maxVersion string, unversionedAt uint64) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.count.Load(), rw.maxVersion, rw.unversionedAt
}

// isVersion reports whether rv is a resourceVersion that compares as an integer.
func isVersion(rv string) bool {
	_, err := resourceversion.CompareResourceVersion(rv, rv)
	return err == nil
}

// newer reports whether resourceVersion a is newer than b; both compare as integers.
func newer(a, b string) bool {
	cmp, err := resourceversion.CompareResourceVersion(a, b)
	return err == nil && cmp > 0
}

// Last returns the last write to the object with the given key ("namespace/name", or "name"), if the
// recorder still remembers it.
func (rw *ResourceWrites) Last(key string) (Write, bool) {
	rw.mu.Lock()
	w, ok := rw.last[key]
	rw.mu.Unlock()
	if !ok || rw.expired(w, rw.recorder.clock.Now()) {
		return Write{}, false
	}
	return w, true
}

// Writes returns the writes the recorder remembers (the last one per object), in no particular order;
// namespace, if not "", keeps only that namespace's.
func (rw *ResourceWrites) Writes(namespace string) []Write {
	now := rw.recorder.clock.Now()
	rw.mu.Lock()
	defer rw.mu.Unlock()
	out := make([]Write, 0, len(rw.last))
	for _, w := range rw.last {
		if rw.expired(w, now) || (namespace != "" && w.Namespace != namespace) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func (rw *ResourceWrites) expired(w Write, now time.Time) bool {
	return now.Sub(w.at) > rw.recorder.retention
}

// RecordsSubresource reports whether clients record a write of the given subresource path: the
// object itself (no subresource) or its status, whose answers are the object at its new version.
// Other subresources (scale, eviction, binding, token, ...) answer with other kinds.
func RecordsSubresource(subresources []string) bool {
	return len(subresources) == 0 || (len(subresources) == 1 && subresources[0] == "status")
}
