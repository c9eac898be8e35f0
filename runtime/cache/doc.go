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
// # Recovery and backoff
//
// After a failure the reflector waits before it retries. The delays start at 800ms and double after
// each further failure up to a cap of 30s; each is lengthened by a random 0-100% (jitter), so they
// fall in [0.8s, 1.6s), [1.6s, 3.2s), [3.2s, 6.4s) ... and at most [30s, 60s). The delay returns to
// 800ms (reset) as soon as the reflector is healthy again, that is when a watch delivers an event or
// stays open for a second, and also when no delay was needed for two minutes. Unlike client-go's,
// whose delays start over only every two minutes, a server restarted every few tens of seconds is
// met with short delays each time. ReflectorOptions.Backoff and BackoffResetAfter change the schedule.
//
// Only failures the server answered (errors, 429, timeouts, broken streams) grow the delay. A server
// that cannot be reached at all — the connection refused, or reset or closed before any response, as
// by a load balancer in front of a server that is down — spends nothing on the attempt, so it is
// retried after the initial delay (0.8-1.6s) however long the outage lasts: the reflector resumes
// within that of the server accepting connections again, where a doubling backoff would have climbed
// toward its cap (a 5s network cut cost 36s). Once the server answers, its errors back off as before.
//
// A watch that the server closes normally is resumed at once from the last resourceVersion; a watch
// that fails, is refused, or ends within a second without an event is resumed from there after a
// delay. A watch that expired (410 Gone) shows that the server answers again, so the relist follows at
// once, unless a relist for an expired watch already happened since the reflector was last healthy.
// Beneath the reflector, the REST client resends a watch request whose connection was closed before
// any response (a load balancer in front of a restarting server accepts and closes connections) once
// a second, up to ten times, as client-go does; so a reflector resumes within about a second of the
// server being back.
//
// # Logs
//
// Failures expected while a server restarts or is unreachable (connection refused or reset, EOF,
// timeouts, 429, 503, very short watches) cost an operator two lines per reflector: a warning when the
// first one happens, and "Watch recovered" with their count once the watch is healthy again; each one
// is also logged at verbosity 4. An expired resourceVersion is logged at verbosity 4. Errors are kept
// for what needs a human, such as a forbidden list or an object of the wrong type.
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
// # Memory
//
// A controller's memory is mostly its informers' caches, so informers trim objects as they arrive (a
// listed object as soon as its page is decoded), in this order, before the object is cached or handed
// to any handler:
//
//  1. metadata.managedFields is dropped (often a third of an object or more, and rarely read), unless
//     SharedIndexInformerOptions.KeepManagedFields or SetKeepManagedFields(true) keeps it. Handlers and
//     listers therefore see objects without managed fields; code that needs them (extracting apply
//     configurations) reads the object from the server.
//  2. The transform set with SetTransform runs, on the trimmed object.
//  3. Equal parts of cached objects share one copy, unless SharedIndexInformerOptions.DisableSharing or
//     SetDisableSharing(true) (a factory's WithDisableSharing(true)) turns it off. The object is
//     walked side by side with an exemplar, a similar cached object: its own previous version (an
//     update), else the object cached last with the same controller owner, else the object cached
//     last. Every string, map, slice and pointed-to value whose content equals the exemplar's at the
//     same place is replaced by the exemplar's. The Pods of one ReplicaSet hold equal resource lists,
//     environments, probes, security contexts, tolerations, volume sources and label maps; custom
//     objects of one kind hold equal label maps, specs and conditions' reasons; an update repeats
//     most of the version it replaces. Typed objects of any Go type are walked by a plan compiled once
//     per type; unstructured ones as trees of maps and slices (a map that differs keeps its own keys).
//     Content is always compared; values do not change, only memory is shared. It costs CPU on every
//     object that arrives (a few microseconds for a listed Pod, about 15 for a watch update of one,
//     whose previous version is no longer in the processor's caches; a list's pages are prepared on
//     a goroutine of their own while the next page is fetched and decoded), and it is off while a
//     mutation detector runs.
//
// Sharing is safe because cached objects are read-only, as with client-go: a handler or a lister's
// caller that modifies a cached object in place corrupts the cache either way, and with sharing it
// also changes the other objects that share the part it modified. Deep copies (DeepCopy,
// DeepCopyObject) own all of their memory and may be modified freely.
//
// Steps 1 and 3 modify objects in place: an informer owns the objects its ListerWatcher returns, as
// with a client decoding responses, so a ListerWatcher must not hand one object to several informers.
//
// TransformToPartialObjectMetadata caches metadata only; TransformStripManagedFields drops
// managedFields for a DeltaFIFO or a Store filled by hand. docs/informer-memory.md has the figures.
//
// # Catching handlers that modify the cache
//
// Objects handed to handlers and returned by listers are the cached ones and must not be modified.
// In test binaries (testing.Testing(), except while running benchmarks) every informer keeps a deep
// copy of each object for six seconds after caching it and compares the two every two seconds and
// when it stops: a handler
// or reconcile that modifies a cached object — or a part it shares with other cached objects —
// makes the test binary panic with a report naming each changed object, the changed fields
// (metadata.labels[app]) and a diff. With KGEN_CACHE_MUTATION_DETECTOR=true (or
// SharedIndexInformerOptions.MutationDetector) the detector runs anywhere, watches objects for two
// minutes and turns sharing off; =false turns it off in tests too.
//
// # Shards
//
// SetShardSelector (or SharedIndexInformerOptions.ShardSelector) restricts an informer to the objects
// a shard selector selects (k8s.io/apimachinery/pkg/sharding.Selector, built by runtime/shardselector),
// as client-go 1.38's does: NewShardedListWatch sends the selector with every list and watch, and
// drops what a server without the ShardedListAndWatch feature gate sends regardless.
//
// # Metrics
//
// Reflectors report list and watch counts, durations and sizes and the last resourceVersion through a
// MetricsProvider; informers with an Identifier report queue length, batch processing latency, the
// store's resourceVersion and each handler's backlog (notifications buffered for it) through an
// InformerMetricsProvider.
//
// A slow handler never blocks the informer, but its buffer grows. When a notification takes 100ms or
// more while at least 10 others wait behind it, the handler's logger (HandlerOptions.Logger) gets a
// warning naming the informer's type, the handler's registration and the backlog, at most once a
// minute per handler, with the number of slow notifications since the last one.
package cache
