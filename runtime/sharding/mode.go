package sharding

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// shardMode is what differs between the two modes; the Replica keeps what they share: its member
// Lease (lease.go), the observer of the ring's Leases and fencing (observer.go), parked keys
// (requeue.go) and the reconcile guard's frame (replica.go).
//
// labelMode (label_*.go) records owners in shard labels: an elected coordinator labels and drains,
// replicas claim departed members' objects with label patches. serverMode (server_*.go) lets the API
// server filter by hash ranges: a Partition of the live members, claims published in the member
// Leases, no write to any object.
type shardMode interface {
	// ringWork returns the mode's ring-wide loop, which Run runs until ctx ends: candidacy for
	// coordinator, or adopting the partition of the live members.
	ringWork(ctx context.Context, logger klog.Logger) (func(), error)
	// reconcile is the Reconciler guard's part after membership: it runs reconcile (through
	// Replica.runOwned) for obj, read from the cache under key while a member in epoch, if the object
	// is this replica's now, parks key if it may be soon, and does nothing otherwise.
	reconcile(ctx context.Context, res Resource, epoch uint64, key string, obj metav1.Object, parked *parked, reconcile ReconcileFunc) error
	// departed takes over what members that left the ring owned and the ring now places here.
	departed(ctx context.Context, logger klog.Logger, members []string)
	// leaseClaim returns the claim the next member Lease write carries; acquire tells whether that
	// write acquires the Lease (creates it, or takes it over from another holder or a fence), after
	// which whatever the replica held before may have gone to others.
	leaseClaim(acquire bool) string
	// leaseWritten records that a member Lease write carrying claim succeeded.
	leaseWritten(claim string)
	// leaseAnnotations returns the annotations of a member Lease carrying claim.
	leaseAnnotations(existing map[string]string, claim string) map[string]string
	// listerWatcher wraps lw so that an informer holds only this replica's share.
	listerWatcher(lw cache.ListerWatcherWithContext) cache.ListerWatcher
	// controlledFollowOwners reports whether controlled objects land with their owners, so that
	// their informers hold this replica's share too.
	controlledFollowOwners() bool
}
