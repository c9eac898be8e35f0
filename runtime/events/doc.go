// Package events records Kubernetes Events on behalf of controllers: an EventRecorder turns
// "this happened to that object" into core/v1 Events, an EventBroadcaster fans them out to watchers,
// logs and sinks, and an EventCorrelator aggregates, de-duplicates and rate-limits them so that a
// misbehaving controller cannot flood etcd. It mirrors client-go's tools/record package: a controller
// written against record ports by changing the import.
//
// Typical wiring:
//
//	sink, err := events.NewEventSinkForConfig(config) // core/v1 Events; NewEventsV1SinkForConfig for events.k8s.io/v1
//	broadcaster := events.NewBroadcaster(events.WithContext(ctx))
//	broadcaster.StartRecordingToSink(sink)
//	recorder := broadcaster.NewRecorder(scheme, corev1.EventSource{Component: "my-controller"})
//	recorder.Eventf(obj, corev1.EventTypeWarning, "SyncFailed", "cannot sync: %v", err)
//
// Unit tests use NewFakeRecorder, which delivers events as strings on a channel.
//
// Differences from client-go worth knowing:
//   - The broadcaster counts what it drops (Stats) and can wait for slow watchers instead of dropping
//     (WithFullChannelBehavior(watch.WaitIfChannelFull)); recording never blocks either way.
//   - Shutdown flushes: events recorded before Shutdown are still delivered, with one attempt per event
//     and no retry sleeps, for up to the grace period (WithShutdownGracePeriod); the rest are dropped and
//     counted. Shutdown never waits longer than the grace period plus one in-flight sink call.
//   - Once a group of similar events is being aggregated, every further event of the group joins the
//     aggregate until the group has been quiet for the aggregation interval.
package events
