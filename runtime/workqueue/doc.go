// Package workqueue provides the work queues controllers feed from informers:
// a deduplicating FIFO that never hands one item to two workers at once, with
// delayed adds, rate-limited retries, priorities and client-go's metric set.
//
// The API mirrors k8s.io/client-go/util/workqueue (TypedInterface,
// NewTypedRateLimitingQueue, DefaultTypedControllerRateLimiter, …) so code
// ports by changing the import path.
//
// # Design
//
// One type, Typed, implements every queue. A single mutex guards:
//   - one hash table from item to a record of its latest entry (sequence
//     number and priority) and the priority of an add that arrived while it
//     was in progress. The table is a pointer-free index of 8-byte slots
//     (part of the hash and a record number; open-addressed, hashes computed
//     before the mutex is taken, no tombstones on removal) over records packed
//     in fixed-size chunks in arrival order, so growing it copies no item and
//     a backlog handed out in FIFO order walks its records in memory order;
//   - one ring-buffer FIFO per priority in use (a sorted handful of levels),
//     whose entries are a record number, a sequence number and part of the
//     item's hash, and hold no pointer. Each level remembers the last
//     sequence number it handed out, so whether an item is queued or in
//     progress follows from its record, and Get hands an item out by reading
//     the record its entry names: a full Add, Get and Done cycle is one
//     insert, two lookups and one removal, and no allocation. Get prefetches
//     the index slot that its item's Done will probe and the record and slot
//     of the next entry, so in a queue larger than the CPU's caches those
//     misses overlap the caller's work instead of lengthening the holds of
//     the mutex;
//   - a min-heap of delayed adds plus a map of each waiting item's ready time.
//
// Raising a queued item's priority writes a new entry and leaves the old one
// to be skipped when reached (its sequence number no longer matches); an
// earlier ready time for a waiting item does the same in the heap. No
// operation searches a FIFO or fixes a heap in place. Get blocks on a
// sync.Cond that Add signals only when a Get is waiting; the fields every
// Add, Get and Done writes share the mutex's cache line. A goroutine that
// finds the mutex held polls it with exponentially growing pauses before
// blocking, so under contention one core runs many operations in a row with
// its caches warm instead of the mutex changing cores on every operation.
// An Add that would change nothing (the item is queued, or in progress and
// already re-added) returns through a flag of the item's own in a small
// cache, without the mutex, so a producer re-adding hot keys does not
// contend with the workers; and a Get that finds the queue empty polls for
// an item for a few tens of microseconds before it parks, so a worker that
// catches up with its producer does not pay a wake-up per item.
// Delayed adds go straight into the heap under the same mutex; one timer
// goroutine per queue, started on the first delayed add (or when metrics are
// on), sleeps until the earliest ready time and exits at shutdown.
//
// # Beyond client-go
//
//   - Speed: no allocation per Add/Get/Done in steady state; AddAfter is a heap
//     push instead of a channel handoff to a goroutine and an allocation per
//     call; with metrics off the clock is never read.
//   - Priorities: AddWithOpts queues items at a priority (higher first, FIFO
//     within one priority, re-adding raises), with an optional delay or rate
//     limiting, so an informer's initial list and resyncs can queue below live
//     changes without starving them.
//   - Bounded memory: the per-item rate limiters drop the failure record of an
//     item that has not failed for a while, so forgetting to call Forget no
//     longer leaks (see WithForgetAfter).
//   - Injectable time throughout: queues take a k8s.io/utils/clock.Clock and
//     rate limiters take one through WithLimiterClock or the bucket's Clock
//     field, so tests of delays step a fake clock instead of sleeping.
//   - Every constructor returns a concrete type (Typed, TypedRateLimiting), so
//     the extra methods are reachable without type assertions.
//
// Differences to know when porting: configs have no custom Queue or Logger
// fields, and TypedQueueConfig is shared by the delaying and rate-limiting
// constructors.
package workqueue
