// Package consistency records a controller's own writes so that its informer caches can be read
// "at least as new as my last write" (read-your-writes), the guarantee controller-runtime v0.25 offers
// as its experimental consistency store.
//
// A Recorder is opt-in and travels in the context: writes made through kgen's typed clients
// (runtime/gentype, so every generated clientset, and its fakes), its dynamic client
// (runtime/dynamic) and their apply calls under a context from WithRecorder are recorded — the
// object's namespace, name, UID, labels and the resourceVersion the server answered with, per group
// and resource. Without a recorder in the context a write costs one context lookup more.
//
//	rec := consistency.NewRecorder()
//	ctx = consistency.WithRecorder(ctx, rec)
//	cms := consistentread.NewLister[*corev1.ConfigMap](
//		consistentread.New(rec, corev1.Resource("configmaps"), factory.Core().V1().ConfigMaps().Informer()))
//	...
//	client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
//	cm, err = cms.Namespace(ns).Get(ctx, name) // never older than the update
//
// Reading is package consistentread: a Reader waits, bounded by a timeout, until an informer's cache
// holds the recorded writes of its resource, per object or all of them, and its Lister reads after
// waiting. docs/read-your-writes.md says what is promised and what is not.
//
// Recorded are: create, update, updateStatus, patch and apply of an object or its status, and
// delete of one object. Not recorded: writes of other subresources (scale, eviction, binding, ...),
// DeleteCollection, and writes through other clients or by other writers.
package consistency
