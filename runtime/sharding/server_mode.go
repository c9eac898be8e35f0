package sharding

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// serverMode is ServerMode: the API server filters lists and watches by shard selectors over hash
// ranges (server_probe.go), a Partition of the live members gives each its ranges
// (server_partition.go), the member Leases carry the claims that hand objects over
// (server_claims.go), and wrapped informers list and watch the adopted ranges
// (server_listwatch.go). Nothing writes to an object, and there is no coordinator.
type serverMode struct {
	r      *Replica
	claims *claims

	objects struct { // the objects the wrapped informers hold
		mu         sync.Mutex
		byInformer map[*serverListWatch]int
		gauge      GaugeMetric
	}
}

func newServerMode(r *Replica) *serverMode {
	return &serverMode{r: r, claims: newClaims(r)}
}

// ringWork adopts the partition of the live members whenever they change.
func (m *serverMode) ringWork(ctx context.Context, logger klog.Logger) (func(), error) {
	return func() { m.claims.run(ctx, logger) }, nil
}

// reconcile runs reconcile for an object whose hash falls in the adopted share and that no other
// member's claim still covers; one that may become ours once a claim changes is parked.
func (m *serverMode) reconcile(ctx context.Context, _ Resource, epoch uint64, key string, obj metav1.Object, parked *parked, reconcile ReconcileFunc) error {
	h := ServerHash(fieldValue(m.r.cfg.ServerField, obj))
	switch m.claims.begin(h) {
	case guardSkip:
		return nil
	case guardPending:
		parked.park(key) // released when the claims change or after the next renewal
		return nil
	}
	defer m.claims.end(h)
	return m.r.runOwned(ctx, epoch, key, parked, reconcile)
}

// departed does nothing: there are no labels to move, the survivors adopt the departed member's
// share.
func (m *serverMode) departed(context.Context, klog.Logger, []string) {}

// leaseClaim returns the claim the next member Lease write publishes.
func (m *serverMode) leaseClaim(acquire bool) string { return m.claims.forWrite(acquire) }

// leaseWritten records the claim published.
func (m *serverMode) leaseWritten(claim string) { m.claims.written(claim) }

// leaseAnnotations returns a member Lease's annotations with claim (none if empty) and the ring's
// scope set.
func (m *serverMode) leaseAnnotations(existing map[string]string, claim string) map[string]string {
	out := make(map[string]string, len(existing)+1)
	for k, v := range existing {
		out[k] = v
	}
	if claim == "" {
		delete(out, ClaimAnnotation)
	} else {
		out[ClaimAnnotation] = claim
	}
	out[ScopeAnnotation] = m.claims.scope.String()
	return out
}

// controlledFollowOwners holds with NamespaceField only: UIDs hash an object and the objects it
// controls apart.
func (m *serverMode) controlledFollowOwners() bool { return m.r.cfg.ServerField != UIDField }

// listerWatcher lists and watches the adopted ranges.
func (m *serverMode) listerWatcher(lw cache.ListerWatcherWithContext) cache.ListerWatcher {
	return &serverListWatch{m: m, lw: lw}
}
