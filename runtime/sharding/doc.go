// Package sharding lets N replicas of one controller share its objects, with nothing but what the API
// server offers: Leases, labels, label-selected watches and optimistic concurrency.
//
// Each replica (Replica, started with Run) keeps its own member Lease in a ring and may reconcile only
// while its last successful renewal began less than RenewDeadline ago on its local clock; others watch
// the ring's Leases, treat a member as gone once its Lease stayed unchanged for LeaseDuration on their
// own clocks since they saw it change, and at that moment fence it (take its Lease over with a
// compare-and-swap) and claim its objects. A consistent hash Ring with
// virtual nodes places each object, and the objects it controls, on one member; the owner is recorded
// in the shard label (ShardLabel), which the replicas' informers select (Replica.LabelSelector), so each
// caches only its share. One replica, elected on the ring's Lease, labels new objects and asks live
// owners to hand objects over through the drain label (DrainLabel); the owner's reconcile guard
// (Replica.Reconciler) acknowledges with one patch after any reconcile of the object has returned, and
// never runs a queued key or delayed requeue of an object that moved away. WrapTransport refuses the
// requests of reconciles whose membership lapsed.
//
// In ServerMode the replicas use the API server's own sharded list and watch (KEP-5866) instead of
// labels: a Partition splits the hash space of the objects' UIDs (or namespaces) among the live
// members, each replica's informers list and watch only its ranges (Replica.ListerWatcher), and a
// change of members is a handshake through the member Leases (ClaimAnnotation) with no write to any
// object. SupportsServerMode tells whether the server offers it. docs/sharding.md describes
// deployment, RBAC and what the package does not promise.
//
// Layout: what both modes share is in replica.go (Config, Replica, the guard's frame, takeovers),
// lease.go (the member Lease), observer.go (the ring's Leases, expiry, fencing), requeue.go (parked
// keys), ring.go, labels.go and transport.go. What differs is behind one internal interface
// (mode.go) with one implementation per mode: label_mode.go and label_coordinator.go for LabelMode;
// server_mode.go, server_claims.go, server_listwatch.go, server_partition.go and server_probe.go for
// ServerMode.
package sharding
