package workqueue

import (
	"testing"
	"time"
)

// absorbs reports whether the add cache would absorb an Add of item.
func absorbs[T comparable](q *Typed[T], item T) bool {
	return q.cache.absorbs(q.items.hash(item), item)
}

func TestAddCacheFollowsTheItemsState(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("a")
	if absorbs(q, "a") {
		t.Fatal("an item added once is cached; only items re-added while queued should be")
	}
	q.Add("a") // a no-op add: "a" is hot
	if !absorbs(q, "a") {
		t.Fatal("queued item re-added is not absorbed")
	}
	item := mustGet(t, q)
	if absorbs(q, "a") {
		t.Fatal("item in progress and not re-added is absorbed: its next Add would be lost")
	}
	q.Add("a") // marks it to be queued again on Done
	if !absorbs(q, "a") {
		t.Fatal("item in progress and re-added is not absorbed")
	}
	q.Done(item)
	if !absorbs(q, "a") || q.Len() != 1 {
		t.Fatalf("after Done of a re-added item: absorbs %v, Len %d; want true, 1", absorbs(q, "a"), q.Len())
	}
	q.Done(mustGet(t, q))
	if absorbs(q, "a") || q.Len() != 0 {
		t.Fatalf("after the last Done: absorbs %v, Len %d; want false, 0", absorbs(q, "a"), q.Len())
	}
	q.Add("a")
	if !absorbs(q, "a") || q.Len() != 1 {
		t.Fatalf("cached item added again: absorbs %v, Len %d; want true, 1", absorbs(q, "a"), q.Len())
	}
}

func TestAddCacheRespectsPriorities(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.AddWithOpts(AddOpts{Priority: -1}, "low")
	q.AddWithOpts(AddOpts{Priority: -1}, "low")
	if absorbs(q, "low") {
		t.Fatal("an item queued below the default priority is absorbed: Add must raise it")
	}
	q.Add("b")
	q.Add("low")
	if got := mustGet(t, q); got != "b" {
		t.Fatalf("Get = %q, want b (queued at 0 before low was raised)", got)
	}
	q.Add("low") // queued at 0 now: a no-op
	if !absorbs(q, "low") {
		t.Fatal("raised item re-added is not absorbed")
	}
	q.AddWithOpts(AddOpts{Priority: 5}, "low")
	q.AddWithOpts(AddOpts{Priority: 3}, "c")
	if got := mustGet(t, q); got != "low" {
		t.Fatalf("Get = %q, want low: an absorbed item must still be raised by a higher priority", got)
	}
}

func TestAbsorbedAddTakesNoLock(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("hot")
	q.Add("hot")
	q.mu.Lock()
	added := make(chan struct{})
	go func() {
		q.Add("hot")
		close(added)
	}()
	select {
	case <-added:
	case <-time.After(10 * time.Second):
		t.Fatal("Add of a hot queued item waited for the queue's mutex")
	}
	q.mu.Unlock()
	if got := q.Len(); got != 1 {
		t.Fatalf("Len = %d, want 1", got)
	}
}

func TestAddCacheKeepsItemsThatAbsorb(t *testing.T) {
	q := NewTyped[int]()
	defer q.ShutDown()
	// More hot items than the cache holds: every one stays queued once, and
	// whatever the cache keeps, the queue's order and contents are unchanged.
	const n = 4 * 2 * addCacheSets
	for range 3 {
		for i := range n {
			q.Add(i)
		}
	}
	cached := 0
	for i := range n {
		if absorbs(q, i) {
			cached++
		}
	}
	if cached == 0 || cached > 2*addCacheSets {
		t.Fatalf("%d items absorbed, want between 1 and %d", cached, 2*addCacheSets)
	}
	for i := range n {
		if got := mustGet(t, q); got != i {
			t.Fatalf("Get #%d = %d", i, got)
		}
		if absorbs(q, i) {
			t.Fatalf("item %d handed out is still absorbed", i)
		}
	}
	if got := q.Len(); got != 0 {
		t.Fatalf("Len = %d, want 0", got)
	}
}

// TestAddCacheFindNeedsHashAndItemToAgree fills a slot the way a lookup
// without the mutex may see it halfway through being refilled: the new hash
// with the old item, or the old hash with the new item. Neither may pass for
// a cached entry, so the Add takes the mutex instead.
func TestAddCacheFindNeedsHashAndItemToAgree(t *testing.T) {
	var c addCache[string]
	const oldHash, newHash = 2 * addCacheSets, 3 * addCacheSets // the same set
	old := &cachedItem[string]{hash: oldHash, item: "old"}
	fresh := &cachedItem[string]{hash: newHash, item: "new"}
	slot := &c.sets[0][0]

	slot.item.Store(old)
	slot.hash.Store(newHash)
	if e := c.find(newHash, "new"); e != nil {
		t.Fatalf("find(new) with the new hash over the old item = %+v, want nil", e)
	}
	slot.item.Store(fresh)
	slot.hash.Store(oldHash)
	if e := c.find(oldHash, "old"); e != nil {
		t.Fatalf("find(old) with the old hash over the new item = %+v, want nil", e)
	}
	slot.hash.Store(newHash)
	if e := c.find(newHash, "new"); e != fresh {
		t.Fatalf("find(new) once the slot is filled = %+v, want the new entry", e)
	}
}
