package cache

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilcache "k8s.io/apimachinery/pkg/util/cache"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// MutationCache overlays a controller's own recent writes on an informer's store, so that the
// controller reads what it just wrote before the informer has seen it: after an update, pass the
// server's answer to Mutation, and GetByKey and ByIndex return it until the store holds that
// resourceVersion or a newer one, or the entry expires. Informer handlers may call OnAddOrUpdate and
// OnDelete to drop entries the store has caught up with, and to keep a late Mutation from bringing
// back an object the informer saw deleted.
type MutationCache interface {
	// GetByKey returns the newer of the store's object and the mutated one.
	GetByKey(key string) (any, bool, error)
	// ByIndex returns the indexer's objects under indexKey, each replaced by a newer mutation; with
	// IncludeAdds, mutated objects the store lacks are added when the index function files them
	// under indexKey.
	ByIndex(indexName, indexKey string) ([]any, error)
	// Mutation records obj as written by the caller, unless a newer write or a deletion of it is
	// already known.
	Mutation(obj any)
	// OnAddOrUpdate drops the entry for obj's key when obj is at least as new.
	OnAddOrUpdate(obj runtime.Object)
	// OnDelete records that obj was deleted, dropping an older entry or one of the same object.
	OnDelete(obj runtime.Object)

	internal()
}

// MutationCacheOptions configures NewIntegerResourceVersionMutationCacheWithOptions.
type MutationCacheOptions struct {
	// Indexer serves ByIndex; without it ByIndex fails.
	Indexer Indexer
	// TTL is how long a mutation is kept; zero means five minutes.
	TTL time.Duration
	// IncludeAdds makes mutated objects visible before the store has them at all (created objects).
	IncludeAdds bool
	// MaxCacheSize bounds the entries kept, least recently used first out; zero means 100.
	MaxCacheSize int

	// clock is the entries' clock; nil means the real one (tests set a fake).
	clock clock.Clock
}

// NewIntegerResourceVersionMutationCache returns a MutationCache over backingCache that orders
// objects by their resourceVersions read as integers, as etcd-backed servers assign them.
func NewIntegerResourceVersionMutationCache(logger klog.Logger, backingCache Store, indexer Indexer, ttl time.Duration, includeAdds bool) MutationCache {
	return NewIntegerResourceVersionMutationCacheWithOptions(logger, backingCache,
		MutationCacheOptions{Indexer: indexer, TTL: ttl, IncludeAdds: includeAdds})
}

// NewIntegerResourceVersionMutationCacheWithOptions is NewIntegerResourceVersionMutationCache with
// options. A resourceVersion that is not an integer counts as zero: such an object never replaces
// another, and is replaced by any.
func NewIntegerResourceVersionMutationCacheWithOptions(logger klog.Logger, backingCache Store, options MutationCacheOptions) MutationCache {
	size, ttl, clk := options.MaxCacheSize, options.TTL, options.clock
	if size == 0 {
		size = 100
	}
	if ttl == 0 {
		ttl = 5 * time.Minute
	}
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &mutationCache{
		logger: logger, backing: backingCache, indexer: options.Indexer, includeAdds: options.IncludeAdds, ttl: ttl,
		entries: utilcache.NewLRUExpireCacheWithClock(size, clk),
	}
}

// mutationEntry is what the cache keeps for a key: a mutated object, or a deletion the informer saw.
type mutationEntry struct {
	obj     runtime.Object // nil for a deletion
	version uint64
	uid     types.UID
}

type mutationCache struct {
	logger      klog.Logger
	backing     Store
	indexer     Indexer
	includeAdds bool
	ttl         time.Duration

	mu      sync.Mutex
	entries *utilcache.LRUExpireCache // key -> *mutationEntry
}

func (c *mutationCache) internal() {}

// entry returns key's entry, if any.
func (c *mutationCache) entry(key string) (*mutationEntry, bool) {
	e, ok := c.entries.Get(key)
	if !ok {
		return nil, false
	}
	return e.(*mutationEntry), true
}

func (c *mutationCache) GetByKey(key string) (any, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	obj, exists, err := c.backing.GetByKey(key)
	if err != nil {
		return nil, false, err
	}
	if !exists {
		if e, ok := c.entry(key); ok && c.includeAdds && e.obj != nil {
			return e.obj, true, nil
		}
		return nil, false, nil
	}
	return c.newer(key, obj), true, nil
}

// newer returns the mutation of key if it is newer than stored, else stored (dropping a mutation
// the store has caught up with).
func (c *mutationCache) newer(key string, stored any) any {
	e, ok := c.entry(key)
	if !ok || e.obj == nil {
		return stored
	}
	if resourceVersion(stored) >= e.version {
		c.entries.Remove(key)
		return stored
	}
	return e.obj
}

func (c *mutationCache) ByIndex(indexName, indexKey string) ([]any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.indexer == nil {
		return nil, errors.New("mutation cache: ByIndex needs an indexer (MutationCacheOptions.Indexer)")
	}
	keys, err := c.indexer.IndexKeys(indexName, indexKey)
	if err != nil {
		return nil, err
	}
	var items []any
	seen := make(map[string]bool, len(keys))
	for _, key := range keys {
		seen[key] = true
		obj, exists, err := c.indexer.GetByKey(key)
		if err != nil {
			return nil, err
		}
		if exists {
			items = append(items, c.newer(key, obj))
		}
	}
	if !c.includeAdds {
		return items, nil
	}
	index := c.indexer.GetIndexers()[indexName]
	for _, k := range c.entries.Keys() {
		key := k.(string)
		e, ok := c.entry(key)
		if seen[key] || !ok || e.obj == nil {
			continue
		}
		values, err := index(e.obj)
		if err != nil {
			c.logger.V(4).Info("Mutation cache entry has no index value", "key", key, "index", indexName, "err", err)
			continue
		}
		for _, v := range values {
			if v == indexKey {
				items = append(items, e.obj)
				break
			}
		}
	}
	return items, nil
}

func (c *mutationCache) Mutation(obj any) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleErrorWithLogger(c.logger, err, "Mutation cache: object has no key")
		return
	}
	ro, ok := obj.(runtime.Object)
	if !ok {
		utilruntime.HandleErrorWithLogger(c.logger, fmt.Errorf("%T is not an API object", obj), "Mutation cache: mutation ignored", "key", key)
		return
	}
	version := resourceVersion(obj)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entry(key); ok {
		if version < e.version {
			return // a newer write is known
		}
		if e.obj == nil && (version == e.version || e.uid == objectUID(obj)) {
			return // this object, or this revision, was seen deleted
		}
	}
	c.entries.Add(key, &mutationEntry{obj: ro, version: version, uid: objectUID(obj)}, c.ttl)
}

func (c *mutationCache) OnAddOrUpdate(obj runtime.Object) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleErrorWithLogger(c.logger, err, "Mutation cache: object has no key")
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entry(key); ok && resourceVersion(obj) >= e.version {
		c.entries.Remove(key)
	}
}

func (c *mutationCache) OnDelete(obj runtime.Object) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleErrorWithLogger(c.logger, err, "Mutation cache: object has no key")
		return
	}
	version, uid := resourceVersion(obj), objectUID(obj)
	c.mu.Lock()
	defer c.mu.Unlock()
	// A mutation newer than the deletion, of another object of the same name, may be a re-creation:
	// keep it and let it expire.
	if e, ok := c.entry(key); ok && version < e.version && e.uid != uid {
		return
	}
	c.entries.Add(key, &mutationEntry{version: version, uid: uid}, c.ttl)
}

// resourceVersion reads obj's resourceVersion as an integer; anything else counts as zero.
func resourceVersion(obj any) uint64 {
	m, err := meta.Accessor(obj)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseUint(m.GetResourceVersion(), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// objectUID is obj's uid, or empty.
func objectUID(obj any) types.UID {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetUID()
}
