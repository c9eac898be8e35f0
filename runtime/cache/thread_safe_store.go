package cache

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
)

// ThreadSafeStore is a key-addressed, indexed map safe for concurrent use. Callers must treat stored
// objects as read-only: mutating one does not re-index it.
type ThreadSafeStore interface {
	// Add stores obj under key.
	Add(key string, obj any)
	// Update stores obj under key, the same as Add.
	Update(key string, obj any)
	// Delete removes key.
	Delete(key string)
	// DeleteWithObject removes key; obj is the deleted state (it may be nil).
	DeleteWithObject(key string, obj any)
	// Get returns the object stored under key.
	Get(key string) (item any, exists bool)
	// List returns all objects.
	List() []any
	// ListKeys returns all keys.
	ListKeys() []string
	// Replace swaps in items as the whole content, recorded at resourceVersion.
	Replace(items map[string]any, resourceVersion string)
	// Index returns the objects that share an indexed value with obj.
	Index(indexName string, obj any) ([]any, error)
	// IndexKeys returns the keys indexed under indexedValue.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// Bookmark records the resourceVersion the content reflects.
	Bookmark(rv string)
	// LastStoreSyncResourceVersion returns the last recorded resourceVersion.
	LastStoreSyncResourceVersion() string
	// ListIndexFuncValues returns every value of the named index.
	ListIndexFuncValues(name string) []string
	// ByIndex returns the objects indexed under indexedValue.
	ByIndex(indexName, indexedValue string) ([]any, error)
	// GetIndexers returns the index functions.
	GetIndexers() Indexers
	// AddIndexers adds indexes and builds them for the objects already stored.
	AddIndexers(newIndexers Indexers) error
	// Resync does nothing; it exists for interface compatibility.
	Resync() error
}

// NewThreadSafeStore returns a ThreadSafeStore maintaining indexers. indices may carry prebuilt indexes
// (it is usually empty).
func NewThreadSafeStore(indexers Indexers, indices Indices) ThreadSafeStore {
	s := newThreadSafeMap(nil, 0)
	for name, f := range indexers {
		idx := indices[name]
		if idx == nil {
			idx = Index{}
		}
		s.setIndex(name, f, idx)
	}
	return s
}

// threadSafeMap is the ThreadSafeStore implementation. Writers take the lock once per operation or per
// batch (see apply), so a burst of writes pays for one lock acquisition.
type threadSafeMap struct {
	lock     sync.RWMutex
	items    map[string]any
	indexers Indexers
	indices  Indices
	// writeIndexes lists the indexes for the write path, which walks them for every object.
	writeIndexes []writeIndex
	rv           string
	// rvGauge, when set, receives the store's resourceVersion.
	rvGauge GaugeMetric
	// rvChanged, once a reader asked for it, is closed (and cleared) when rv next changes.
	rvChanged atomic.Pointer[chan struct{}]
}

// writeIndex is one index as the write path needs it.
type writeIndex struct {
	name string
	f    IndexFunc
	idx  Index
}

func newThreadSafeMap(indexers Indexers, size int) *threadSafeMap {
	s := &threadSafeMap{items: make(map[string]any, size), indexers: Indexers{}, indices: Indices{}}
	for name, f := range indexers {
		s.setIndex(name, f, Index{})
	}
	return s
}

// setIndex installs an index; the caller holds the lock or owns the map.
func (c *threadSafeMap) setIndex(name string, f IndexFunc, idx Index) {
	c.indexers[name] = f
	c.indices[name] = idx
	c.writeIndexes = append(c.writeIndexes, writeIndex{name, f, idx})
}

func (c *threadSafeMap) Add(key string, obj any) {
	c.lock.Lock()
	c.putLocked(key, obj)
	c.lock.Unlock()
}

func (c *threadSafeMap) Update(key string, obj any) { c.Add(key, obj) }

func (c *threadSafeMap) Delete(key string) { c.DeleteWithObject(key, nil) }

func (c *threadSafeMap) DeleteWithObject(key string, _ any) {
	c.lock.Lock()
	c.removeLocked(key)
	c.lock.Unlock()
}

func (c *threadSafeMap) Get(key string) (any, bool) {
	c.lock.RLock()
	item, ok := c.items[key]
	c.lock.RUnlock()
	return item, ok
}

// getUncontended is Get for callers that would rather go without than wait: it reports false at once
// while a writer holds or waits for the lock.
func (c *threadSafeMap) getUncontended(key string) (any, bool) {
	if !c.lock.TryRLock() {
		return nil, false
	}
	item, ok := c.items[key]
	c.lock.RUnlock()
	return item, ok
}

func (c *threadSafeMap) List() []any {
	c.lock.RLock()
	defer c.lock.RUnlock()
	list := make([]any, 0, len(c.items))
	for _, item := range c.items {
		list = append(list, item)
	}
	return list
}

func (c *threadSafeMap) ListKeys() []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys := make([]string, 0, len(c.items))
	for key := range c.items {
		keys = append(keys, key)
	}
	return keys
}

func (c *threadSafeMap) Replace(items map[string]any, resourceVersion string) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.items = items
	for _, wi := range c.writeIndexes {
		clear(wi.idx)
	}
	for key, obj := range items {
		c.indexLocked(key, nil, obj)
	}
	c.setRVLocked(resourceVersion)
}

func (c *threadSafeMap) Bookmark(rv string) {
	c.lock.Lock()
	c.setRVLocked(rv)
	c.lock.Unlock()
}

func (c *threadSafeMap) setRVLocked(rv string) {
	c.rv = rv
	if c.rvChanged.Load() != nil {
		if ch := c.rvChanged.Swap(nil); ch != nil {
			close(*ch)
		}
	}
	if c.rvGauge != nil {
		if v, ok := resourceVersionNumber(rv); ok {
			c.rvGauge.Set(v)
		}
	}
}

func (c *threadSafeMap) LastStoreSyncResourceVersion() string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.rv
}

// ResourceVersionChanged returns a channel that is closed the next time the recorded resourceVersion
// is set (by an applied event, a bookmark or a relist). Ask for the channel before reading
// LastStoreSyncResourceVersion, so that no change between the two is missed.
func (c *threadSafeMap) ResourceVersionChanged() <-chan struct{} {
	for {
		if ch := c.rvChanged.Load(); ch != nil {
			return *ch
		}
		ch := make(chan struct{})
		if c.rvChanged.CompareAndSwap(nil, &ch) {
			return ch
		}
	}
}

func (c *threadSafeMap) Resync() error { return nil }

func (c *threadSafeMap) GetIndexers() Indexers {
	c.lock.RLock()
	defer c.lock.RUnlock()
	out := make(Indexers, len(c.indexers))
	for name, f := range c.indexers {
		out[name] = f
	}
	return out
}

// AddIndexers adds the indexes and indexes every stored object under them. Adding an index name that
// already exists is an error and changes nothing.
func (c *threadSafeMap) AddIndexers(newIndexers Indexers) error {
	c.lock.Lock()
	defer c.lock.Unlock()
	for name := range newIndexers {
		if _, ok := c.indexers[name]; ok {
			return fmt.Errorf("indexer %q already exists", name)
		}
	}
	for name, f := range newIndexers {
		idx := Index{}
		c.setIndex(name, f, idx)
		for key, obj := range c.items {
			for _, v := range c.indexValues(name, f, key, obj) {
				addToIndex(idx, v, key)
			}
		}
	}
	return nil
}

func (c *threadSafeMap) Index(indexName string, obj any) ([]any, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	f, idx, err := c.lookupIndexLocked(indexName)
	if err != nil {
		return nil, err
	}
	values, err := f(obj)
	if err != nil {
		return nil, err
	}
	var keys sets.Set[string]
	if len(values) == 1 {
		keys = idx[values[0]]
	} else {
		keys = sets.Set[string]{}
		for _, v := range values {
			keys = keys.Union(idx[v])
		}
	}
	return c.objectsLocked(keys), nil
}

func (c *threadSafeMap) IndexKeys(indexName, indexedValue string) ([]string, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	_, idx, err := c.lookupIndexLocked(indexName)
	if err != nil {
		return nil, err
	}
	return sets.List(idx[indexedValue]), nil
}

func (c *threadSafeMap) ListIndexFuncValues(indexName string) []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	idx := c.indices[indexName]
	values := make([]string, 0, len(idx))
	for v := range idx {
		values = append(values, v)
	}
	return values
}

func (c *threadSafeMap) ByIndex(indexName, indexedValue string) ([]any, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	_, idx, err := c.lookupIndexLocked(indexName)
	if err != nil {
		return nil, err
	}
	return c.objectsLocked(idx[indexedValue]), nil
}

// selectIndexed returns the objects indexed under indexedValue that keep accepts. keep runs under
// the read lock and must not call back into the store.
func (c *threadSafeMap) selectIndexed(indexName, indexedValue string, keep func(obj any) bool) ([]any, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	_, idx, err := c.lookupIndexLocked(indexName)
	if err != nil {
		return nil, err
	}
	keys := idx[indexedValue]
	out := make([]any, 0, len(keys))
	for key := range keys {
		if obj := c.items[key]; keep(obj) {
			out = append(out, obj)
		}
	}
	return out, nil
}

// selectAll returns the objects that keep accepts. keep runs under the read lock and must not call
// back into the store.
func (c *threadSafeMap) selectAll(keep func(obj any) bool) []any {
	c.lock.RLock()
	defer c.lock.RUnlock()
	var out []any
	for _, obj := range c.items {
		if keep(obj) {
			out = append(out, obj)
		}
	}
	return out
}

func (c *threadSafeMap) lookupIndexLocked(indexName string) (IndexFunc, Index, error) {
	f, ok := c.indexers[indexName]
	if !ok {
		return nil, nil, fmt.Errorf("index with name %s does not exist", indexName)
	}
	return f, c.indices[indexName], nil
}

func (c *threadSafeMap) objectsLocked(keys sets.Set[string]) []any {
	list := make([]any, 0, len(keys))
	for key := range keys {
		list = append(list, c.items[key])
	}
	return list
}

// putLocked stores obj under key, updates the indexes and returns the previous object.
func (c *threadSafeMap) putLocked(key string, obj any) (old any, existed bool) {
	old, existed = c.items[key]
	c.items[key] = obj
	c.indexLocked(key, old, obj)
	return old, existed
}

// removeLocked deletes key, updates the indexes and returns the removed object.
func (c *threadSafeMap) removeLocked(key string) (old any, existed bool) {
	old, existed = c.items[key]
	if existed {
		delete(c.items, key)
		c.indexLocked(key, old, nil)
	}
	return old, existed
}

// indexLocked moves key from the index values of oldObj to those of newObj, touching only the values
// that differ. Either object may be nil.
func (c *threadSafeMap) indexLocked(key string, oldObj, newObj any) {
	for _, wi := range c.writeIndexes {
		var oldValues, newValues []string
		if oldObj != nil {
			oldValues = c.indexValues(wi.name, wi.f, key, oldObj)
		}
		if newObj != nil {
			newValues = c.indexValues(wi.name, wi.f, key, newObj)
		}
		switch {
		case len(oldValues) == 0:
			for _, v := range newValues {
				addToIndex(wi.idx, v, key)
			}
		case len(newValues) == 0:
			for _, v := range oldValues {
				removeFromIndex(wi.idx, v, key)
			}
		case slices.Equal(oldValues, newValues):
		default:
			for _, v := range oldValues {
				if !slices.Contains(newValues, v) {
					removeFromIndex(wi.idx, v, key)
				}
			}
			for _, v := range newValues {
				if !slices.Contains(oldValues, v) {
					addToIndex(wi.idx, v, key)
				}
			}
		}
	}
}

// indexValues runs an index function; a failing function leaves the object out of that index and is
// logged, so one bad object never breaks the store.
func (c *threadSafeMap) indexValues(name string, f IndexFunc, key string, obj any) []string {
	values, err := f(obj)
	if err != nil {
		klog.ErrorS(err, "Index function failed; object left out of the index", "index", name, "key", key)
		return nil
	}
	return values
}

func addToIndex(idx Index, value, key string) {
	set := idx[value]
	if set == nil {
		set = sets.Set[string]{}
		idx[value] = set
	}
	set[key] = struct{}{}
}

func removeFromIndex(idx Index, value, key string) {
	set := idx[value]
	if set == nil {
		return
	}
	delete(set, key)
	if len(set) == 0 {
		delete(idx, value)
	}
}
