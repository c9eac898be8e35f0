// Package cache keeps local, indexed copies of Kubernetes collections up to date and tells handlers
// about every change: the runtime that generated listers and informers build on. Names and signatures
// follow client-go's tools/cache, so code ports by changing imports.
//
// # Data path
//
//	ListerWatcher ─► Reflector ─► eventQueue ─► processLoop ─► Indexer (ThreadSafeStore)
//	                                                  └──────► listener buffers ─► handlers
//
// The Reflector fetches the initial state (a streaming list when the server supports it, otherwise a
// chunked LIST), then watches from its resourceVersion. It restarts watches that end, relists when the
// server has compacted the resourceVersion away, backs off with jitter after failures, and never panics
// on a malformed event: it logs it and watches again from the last good resourceVersion.
//
// A streaming list that goes quiet before its initial-events-end bookmark is abandoned after an idle
// deadline (ReflectorOptions.WatchListIdleTimeout) and the reflector falls back to LIST and WATCH,
// where client-go would wait forever. Streaming lists are off with DisableWatchList, with
// KUBE_FEATURE_WatchListClient=false, or for ListerWatchers (and clients, through
// ToListWatcherWithWatchListSemantics) whose IsWatchListSemanticsUnSupported returns true.
//
// # Why not DeltaFIFO
//
// DeltaFIFO, which client-go's informers were built on, exists here with its exact semantics for code
// that uses it directly, but informers use a simpler and stronger design:
//
//   - The reflector appends events to an in-order queue (eventQueue) without grouping them by key, so
//     every change of an object is delivered in order, and a relist is a single event.
//   - One goroutine takes the store's write lock, then everything queued by then (up to 512 events),
//     applies it under that single hold, and turns the changes into notifications. Events that arrive
//     while readers delay the lock join the batch, so contention makes batches larger, not slower.
//     A relist is applied in one step that infers deletions, so no reader or handler ever sees half
//     the old and half the new list. A listed object whose resourceVersion did not change is a
//     resync, delivered only to handlers that asked for a resync period.
//   - Notifications go, as one shared batch, to every handler's own unbounded buffer; each handler
//     runs in its own goroutine. No lock is held while a handler runs, so a slow handler delays only
//     itself: it never blocks the watch, the store, or other handlers.
//   - Readers (List, ByIndex, listers) take the store's read lock only to collect what they return;
//     list helpers call their callbacks after releasing it. Because writes arrive in batches,
//     concurrent readers cost the writer one lock hand-over per batch instead of one per object, and
//     Go's RWMutex keeps a waiting writer from being starved by a stream of readers.
//   - The initial list is never held twice: each page's items are taken (as shallow copies, so a page
//     is not kept alive by the few objects that never change) and the page is dropped before the
//     next is fetched; the relist goes to the store as one slice of those objects, with no per-key
//     queue in between. A streaming list holds no list object at all.
//
// Handlers added after the informer synced first receive the current contents as adds; their
// registration's HasSynced turns true once they have handled them.
//
// # Memory helpers
//
// TransformStripManagedFields drops managedFields before objects are cached, and
// TransformToPartialObjectMetadata caches metadata only; install either with SetTransform.
//
// # Catching handlers that modify the cache
//
// Objects handed to handlers and returned by listers are the cached ones and must not be modified.
// With KGEN_CACHE_MUTATION_DETECTOR=true (or SharedIndexInformerOptions.MutationDetector) every
// informer keeps a deep copy of each object it caches and panics with a diff when one changes: a
// debugging aid for tests, costly in memory.
//
// # Metrics
//
// Reflectors report list and watch counts, durations and sizes and the last resourceVersion through a
// MetricsProvider; informers with an Identifier report queue length, batch processing latency and the
// store's resourceVersion through an InformerMetricsProvider.
package cache
