package workqueue

import "sync/atomic"

// addCache lets Add return without taking the queue's mutex when the add
// would change nothing: the item is already queued, or in progress and
// already marked to be queued again, at the default priority or above.
//
// Such no-op adds are what an informer does to a hot object: every update
// of an object whose key is still waiting adds it again. Under the mutex,
// a producer making them contends with the workers' Get and Done for every
// item; through the cache it touches one flag of the item's own.
//
// The cache is two-way set-associative by hash and filled only with items an
// Add found absorbing under the mutex, so a queue whose adds all do something
// never fills it and pays one branch per Get. Each cached item carries a
// flag, absorbs, that is true exactly while an Add at priority 0 would be a
// no-op (the queue updates it under the mutex on every change of the item's
// state). Add reads it with a compare-and-swap, and Get clears it with a swap
// when it hands the item out, so the caller's writes before an Add the cache
// absorbed happen before the Get that returns the item, as they do through
// the mutex.
type addCache[T comparable] struct {
	sets [addCacheSets][2]cacheSlot[T]
	used bool // whether any slot was ever filled; read and written under the queue's mutex
}

// cacheSlot is one way of a set: the cached item and its hash, which lets a
// lookup pass over a slot without following its pointer.
type cacheSlot[T comparable] struct {
	hash atomic.Uint64
	item atomic.Pointer[cachedItem[T]]
}

// find returns the entry of item, whose hash is h, in its set, or nil. A
// slot's hash and item are written one after the other, so without the mutex
// find may miss an entry while its slot is being filled; the Add then takes
// the mutex, as for an item not cached.
func (c *addCache[T]) find(h uint64, item T) *cachedItem[T] {
	set := &c.sets[h%addCacheSets]
	for i := range set {
		if set[i].hash.Load() == h {
			if e := set[i].item.Load(); e.is(h, item) {
				return e
			}
		}
	}
	return nil
}

// addCacheSets is the number of sets of the cache: room for many more than
// the hot keys of any queue, in two kilobytes of hashes and pointers.
const addCacheSets = 64

// cachedItem is an item in the cache. Its hash and item never change.
type cachedItem[T comparable] struct {
	hash    uint64
	item    T
	absorbs atomic.Bool
}

// is reports whether e caches item, whose hash is h.
func (e *cachedItem[T]) is(h uint64, item T) bool {
	return e != nil && e.hash == h && e.item == item
}

// absorbs reports whether an Add of item, whose hash is h, would change
// nothing. It needs no lock.
func (c *addCache[T]) absorbs(h uint64, item T) bool {
	e := c.find(h, item)
	return e != nil && e.absorbs.CompareAndSwap(true, true)
}

// lookup returns the cached entry of item, whose hash is h, or nil. It must be
// called with the queue's mutex held.
func (c *addCache[T]) lookup(h uint64, item T) *cachedItem[T] {
	if !c.used {
		return nil
	}
	return c.find(h, item)
}

// set records, with the queue's mutex held, whether Add of item now absorbs,
// and reports whether the cache holds item.
func (c *addCache[T]) set(h uint64, item T, absorbs bool) (cached bool) {
	e := c.lookup(h, item)
	if e != nil {
		e.absorbs.Store(absorbs)
	}
	return e != nil
}

// taken clears the flag of item, whose hash is h, as Get hands it out.
func (c *addCache[T]) taken(h uint64, item T) {
	if e := c.lookup(h, item); e != nil {
		e.absorbs.Swap(false)
	}
}

// cache records, with the queue's mutex held, that Add of item now absorbs,
// caching item unless both slots of its set hold items that absorb too. It
// only displaces an item that does not absorb, whose flag Get already
// cleared, so no absorbed Add goes unseen by the Get of its item. It reports
// whether the cache holds item.
func (c *addCache[T]) cache(h uint64, item T) (cached bool) {
	if e := c.lookup(h, item); e != nil {
		e.absorbs.Store(true)
		return true
	}
	set := &c.sets[h%addCacheSets]
	for i := range set {
		if old := set[i].item.Load(); old != nil && old.absorbs.Load() {
			continue
		}
		e := &cachedItem[T]{hash: h, item: item}
		e.absorbs.Store(true)
		set[i].item.Store(e)
		set[i].hash.Store(h)
		c.used = true
		return true
	}
	return false
}
