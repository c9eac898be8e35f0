// Package testing is the engine of generated fake clientsets: Fake records actions and answers them
// through reactor chains, and ObjectTracker stores objects and answers requests the way the API
// server does — resourceVersions from one counter, conflicts, generateName, generation, the status
// subresource, selectors, finalizers, patches, server-side apply and watches that never miss or
// reorder an event. Names and signatures mirror k8s.io/client-go/testing, so tests port by
// changing imports.
package testing
