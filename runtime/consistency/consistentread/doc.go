// Package consistentread reads informer caches at least as new as the writes a consistency.Recorder
// recorded (read-your-writes).
//
// A Reader binds a recorder to one informer of one resource. WaitForObject waits until the cache
// holds the recorder's last write to one object; WaitForCacheSync until it holds every remembered write
// to the resource; a Lister does either before it reads, as a generated lister would. Each wait is
// bounded (Timeout, DefaultTimeout) and fails with a *NotObservedError naming the write, the cache's
// resourceVersion and how long it waited. A wait costs two atomic loads when nothing was written since
// the cache last held every write.
//
// How a write is known to be in the cache: the API server's resourceVersions of one resource are
// integers that grow (KEP-5504's comparison rules, k8s.io/apimachinery's CompareResourceVersion), its
// watch delivers a resource's events in that order, and the informer's store records the version of
// every event, bookmark and relist it applies, under the same lock as the objects. So a cache whose
// resourceVersion is at or past a write's holds that write or a later state of the object, or its
// deletion. Where a version does not compare as an integer, the cache holds a write once it was seen
// holding the object at exactly that version. A delete the server answered with the object carries a
// resourceVersion and is waited for like a write; one answered with a Status is in the cache once the
// object (by UID) is gone from it.
//
// An informer that sees part of a resource — a label or field selector, a sharded informer — is given
// Covers, a predicate on the recorded Write (its namespace, name, UID and labels), so that writes to
// objects outside its share are not waited for. docs/read-your-writes.md has the promises and their
// limits.
package consistentread
