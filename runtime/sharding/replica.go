package sharding

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kgen-dev/kgen/runtime/cache"
	le "github.com/kgen-dev/kgen/runtime/leaderelection"
	"github.com/kgen-dev/kgen/runtime/metadata"
)

// Config configures a Replica.
type Config struct {
	// Ring names the set of replicas sharing the objects; a DNS label of at most 50 characters. Every
	// replica of one controller must use the same name.
	Ring string
	// Identity names this replica in the ring (typically the pod name): a DNS subdomain of at most 63
	// characters, unique among the ring's live replicas.
	Identity string
	// Namespace holds the ring's Leases.
	Namespace string
	// Leases reads and writes Leases in Namespace.
	Leases LeaseClient
	// Metadata reads and patches the sharded objects' metadata.
	Metadata metadata.Interface
	// ObjectNamespace limits the ring to the objects of one namespace; empty means all namespaces.
	ObjectNamespace string
	// Resources are the kinds the ring shards; each object is placed by its own key.
	Resources []Resource
	// Controlled are kinds placed with their controller owner when it is one of Resources (objects
	// with no such owner are placed by their own key).
	Controlled []Resource
	// LeaseDuration, RenewDeadline and RetryPeriod time membership as in leader election: a replica
	// renews every RetryPeriod, stops reconciling RenewDeadline after its last successful renewal
	// began, and is treated as gone once its Lease stayed unchanged for LeaseDuration on the
	// observer's clock. Zero means 15s, 10s and 2s.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// VirtualNodes is the number of ring points per member; zero means DefaultVirtualNodes.
	VirtualNodes int
	// Workers is the number of concurrent label patches the coordinator makes; zero means 10.
	Workers int
	// Clock is the source of time; nil means the real clock.
	Clock clock.WithTicker
	// Metrics makes the ring's metrics; nil records nothing.
	Metrics MetricsProvider
	// Mode chooses how replicas find and cache their share: LabelMode (the default) or ServerMode.
	Mode Mode
	// ServerField is the field ServerMode hashes: UIDField (the default) spreads objects evenly but
	// places an object and the objects it controls independently; NamespaceField keeps each namespace
	// on one replica, so an object and the objects it controls land together, as evenly as the
	// namespaces' sizes allow.
	ServerField string
}

// Mode chooses how the replicas of a ring learn which objects are theirs and cache only those.
type Mode int

const (
	// LabelMode records each object's owner in its shard label: an elected coordinator labels new
	// objects and drains moved ones, and each replica's informers select their own label (Replica.
	// LabelSelector). Objects controlled by one of Resources follow their owner. Works with every
	// API server.
	LabelMode Mode = iota
	// ServerMode uses the API server's sharded list and watch (KEP-5866, kube-apiserver 1.36+ with
	// the ShardedListAndWatch feature gate; check with SupportsServerMode): the hash space of
	// ServerField is split among the live members (Partition), each replica's informers list and
	// watch only its ranges (Replica.ListerWatcher), and a change of members needs no write to any
	// object, only a handshake through the member Leases (ClaimAnnotation). There is no coordinator.
	ServerMode
)

// Replica is one member of a ring: it keeps its member Lease, runs for coordinator, and guards the
// controller's reconciles so that each object is reconciled by at most one replica at a time.
type Replica struct {
	cfg      Config
	clock    clock.WithTicker
	member   *membership
	observer *observer
	metrics  replicaMetrics
	changed  chan struct{} // signals ring or membership changes to the coordinator
	departed chan struct{} // signals departed members to takeOver

	inflight sync.WaitGroup

	parkMu   sync.Mutex
	parkings []*parked // the keys each guard refused, to requeue when they may run

	mode     shardMode     // LabelMode's or ServerMode's part
	renewNow chan struct{} // asks Run to write the member Lease now
}

type replicaMetrics struct {
	members       GaugeMetric
	moves, drains CounterMetric
	drainDuration HistogramMetric
	provider      MetricsProvider
}

// New checks cfg and returns a replica; Run starts it.
func New(cfg Config) (*Replica, error) {
	if cfg.LeaseDuration == 0 {
		cfg.LeaseDuration = 15 * time.Second
	}
	if cfg.RenewDeadline == 0 {
		cfg.RenewDeadline = 10 * time.Second
	}
	if cfg.RetryPeriod == 0 {
		cfg.RetryPeriod = 2 * time.Second
	}
	if cfg.Workers == 0 {
		cfg.Workers = 10
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NoopMetricsProvider{}
	}
	switch {
	case len(validation.IsDNS1123Label(cfg.Ring)) > 0 || len(cfg.Ring) > 50:
		return nil, fmt.Errorf("sharding: ring name %q must be a DNS label of at most 50 characters", cfg.Ring)
	case len(validation.IsDNS1123Subdomain(cfg.Identity)) > 0 || len(cfg.Identity) > 63:
		return nil, fmt.Errorf("sharding: identity %q must be a DNS subdomain of at most 63 characters", cfg.Identity)
	case cfg.Namespace == "" || cfg.Leases == nil || cfg.Metadata == nil:
		return nil, errors.New("sharding: Namespace, Leases and Metadata are required")
	case len(cfg.Resources) == 0:
		return nil, errors.New("sharding: no Resources to shard")
	case cfg.LeaseDuration < time.Second || cfg.LeaseDuration%time.Second != 0:
		return nil, fmt.Errorf("sharding: LeaseDuration %v must be whole seconds", cfg.LeaseDuration)
	case cfg.RenewDeadline >= cfg.LeaseDuration:
		return nil, fmt.Errorf("sharding: RenewDeadline %v must be shorter than LeaseDuration %v", cfg.RenewDeadline, cfg.LeaseDuration)
	case float64(cfg.RenewDeadline) <= le.JitterFactor*float64(cfg.RetryPeriod):
		return nil, fmt.Errorf("sharding: RenewDeadline %v must exceed %v × RetryPeriod %v", cfg.RenewDeadline, le.JitterFactor, cfg.RetryPeriod)
	}
	switch {
	case cfg.Mode != LabelMode && cfg.Mode != ServerMode:
		return nil, fmt.Errorf("sharding: unknown mode %d", cfg.Mode)
	case cfg.Mode == ServerMode && cfg.ServerField == "":
		cfg.ServerField = UIDField
	case cfg.Mode == ServerMode && cfg.ServerField != UIDField && cfg.ServerField != NamespaceField:
		return nil, fmt.Errorf("sharding: ServerField %q must be %s or %s", cfg.ServerField, UIDField, NamespaceField)
	}
	if err := validateNames(cfg.Ring, cfg.Identity); err != nil {
		return nil, err
	}
	for _, res := range append(append([]Resource(nil), cfg.Resources...), cfg.Controlled...) {
		if res.Resource.Resource == "" || res.Resource.Version == "" || res.Kind == "" {
			return nil, fmt.Errorf("sharding: resource %v needs a version, a plural name and a kind", res)
		}
	}
	r := &Replica{cfg: cfg, clock: cfg.Clock, changed: make(chan struct{}, 1), departed: make(chan struct{}, 1),
		renewNow: make(chan struct{}, 1)}
	if cfg.Mode == ServerMode {
		r.mode = newServerMode(r)
	} else {
		r.mode = newLabelMode(r)
	}
	r.member = newMembership(r, utilrand.String(8))
	r.observer = newObserver(r)
	r.metrics = replicaMetrics{
		members:       cfg.Metrics.NewRingMembersMetric(cfg.Ring),
		moves:         cfg.Metrics.NewMovesMetric(cfg.Ring),
		drains:        cfg.Metrics.NewDrainsMetric(cfg.Ring),
		drainDuration: cfg.Metrics.NewDrainDurationMetric(cfg.Ring),
		provider:      cfg.Metrics,
	}
	return r, nil
}

// renewSoon asks Run to write the member Lease without waiting for the next retry period.
func (r *Replica) renewSoon() {
	select {
	case r.renewNow <- struct{}{}:
	default:
	}
}

// Mode returns the mode the replica runs in.
func (r *Replica) Mode() Mode { return r.cfg.Mode }

// IsMember reports whether the replica may reconcile now.
func (r *Replica) IsMember() bool {
	_, ok := r.member.current()
	return ok
}

// Ring returns the ring of live members this replica last observed.
func (r *Replica) Ring() *Ring { return r.observer.currentRing() }

// ringChanged logs the new ring and tells the coordinator.
func (r *Replica) ringChanged(logger klog.Logger) {
	logger.Info("sharding: ring changed", "members", r.observer.currentRing().Members())
	r.notify()
}

func (r *Replica) notify() {
	r.requeueParked()
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Run keeps the member Lease, watches the ring and runs for coordinator until ctx ends; then it waits
// for the reconciles in flight to return and releases the Lease, so its objects move at once.
func (r *Replica) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx).WithValues("ring", r.cfg.Ring, "identity", r.cfg.Identity)
	ctx = klog.NewContext(ctx, logger)
	ringWork, err := r.mode.ringWork(ctx, logger)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(4)
	go func() {
		defer wg.Done()
		r.takeOver(ctx, logger)
	}()
	go func() {
		defer wg.Done()
		r.observer.run(ctx, logger, func() { r.ringChanged(logger) })
	}()
	go func() {
		defer wg.Done()
		ringWork()
	}()
	go func() {
		defer wg.Done()
		ticker := r.clock.NewTicker(r.cfg.RetryPeriod / 4)
		defer ticker.Stop()
		for {
			r.member.checkExpiry(logger)
			select {
			case <-ctx.Done():
				return
			case <-ticker.C():
			}
		}
	}()
	ticker := r.clock.NewTicker(r.cfg.RetryPeriod)
	defer ticker.Stop()
	for ctx.Err() == nil {
		r.member.tryAcquireOrRenew(ctx, logger)
		r.requeueParked()
		select {
		case <-ctx.Done():
		case <-ticker.C():
		case <-r.renewNow:
		}
	}
	r.member.lapse()
	r.inflight.Wait()
	wg.Wait()
	release, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.RenewDeadline)
	defer cancel()
	r.member.release(release, logger)
	return nil
}

// ReconcileFunc reconciles the object named by key (namespace/name, or name).
type ReconcileFunc func(ctx context.Context, key string) error

// Getter reads an object from the controller's (label-selected) cache, as an Indexer's GetByKey does.
type Getter func(key string) (item any, exists bool, err error)

// Reconciler guards reconcile for objects of res read through get from the replica's cache:
//   - it does nothing for an object the cache no longer holds: a label change away from this replica
//     looks like a delete to its informer, so deletions must be handled with finalizers;
//   - it does nothing for an object assigned to another replica, so queued keys and delayed requeues
//     of moved objects never run here;
//   - for an object with a drain request it acknowledges instead: it hands the object to the replica
//     named in the request with one patch; the work queue never runs one key twice at once, so any
//     reconcile in flight has returned;
//   - after this replica joins or rejoins the ring it checks its first reconcile of each object
//     against the server, since a cache that lagged through a pause may still show objects moved away;
//   - reconcile's context ends, and its Err returns ErrNotMember, once membership lapses.
//
// In ServerMode there are no labels: an object is this replica's when its hash falls in the
// replica's adopted share and no other member's published claim still covers it.
//
// A key the guard cannot run yet — the replica is not a member (yet, or again), or in ServerMode the
// object's previous owner has not let it go — is not an error: the guard returns nil, so the
// controller's rate limiter is not charged, and adds the key to queue again the moment it may run
// (membership starts, the ring or a claim changes, or at the latest after the next renewal).
func (r *Replica) Reconciler(res Resource, get Getter, queue Queue, reconcile ReconcileFunc) ReconcileFunc {
	parked := r.newParked(queue)
	return func(ctx context.Context, key string) error {
		epoch, ok := r.member.current()
		if !ok {
			return r.park(parked, key)
		}
		item, exists, err := get(key)
		if err != nil || !exists {
			return err
		}
		obj, err := meta.Accessor(item)
		if err != nil {
			return fmt.Errorf("sharding: %s: %w", key, err)
		}
		return r.mode.reconcile(ctx, res, epoch, key, obj, parked, reconcile)
	}
}

// Shard makes informer, an informer of one of Resources that has not started yet, hold only this
// replica's share, in either mode: it lists and watches through ListerWatcher. It is the one call
// that wires a replica into an informer from any factory (typed, dynamic, metadata):
//
//	if err := replica.Shard(factory.Stable().V1().CronTabs().Informer()); err != nil { ... }
func (r *Replica) Shard(informer cache.SharedInformer) error {
	return informer.WrapListerWatcher(r.ListerWatcher)
}

// ShardControlled is Shard for an informer of one of Controlled. Controlled objects follow their
// owner in LabelMode and with NamespaceField, so their informer holds this replica's share; with
// ServerMode's UIDField they hash apart from their owners, so the informer is left holding every
// object.
func (r *Replica) ShardControlled(informer cache.SharedInformer) error {
	if !r.mode.controlledFollowOwners() {
		return nil
	}
	return r.Shard(informer)
}

// ListerWatcher wraps lw, the ListerWatcher of an informer of objects this ring shards, so that the
// informer holds only this replica's share:
//   - in LabelMode it sets LabelSelector on every request, as TweakListOptions does, and lists and
//     watches only while the replica is a member: after an outage the informer resumes with the
//     renewal that rejoins the ring;
//   - in ServerMode it sets the shard selector of the replica's adopted ranges on every list and
//     watch (a list waits until the replica has adopted a share), ends the informer's watch as
//     expired when the share changes, so the informer relists at once with the new ranges, and drops
//     and reports any object outside the ranges, should the server ignore the selector.
//
// In ServerMode with UIDField, wrap only informers of Resources: controlled objects hash apart from
// their owners, so their informers must see every object. With NamespaceField, wrap those too.
//
// In ServerMode the replica reports the objects its wrapped informers hold as its shard's objects
// metric.
//
// In both modes the wrapped informer syncs only once Run has made the replica a member.
func (r *Replica) ListerWatcher(lw cache.ListerWatcher) cache.ListerWatcher {
	return r.mode.listerWatcher(cache.ToListerWatcherWithContext(lw))
}

// park leaves key for later; if membership returned meanwhile, it requeues it at once.
func (r *Replica) park(p *parked, key string) error {
	p.park(key)
	r.requeueParked()
	return nil
}

// runOwned runs reconcile for key with a context that ends when membership epoch lapses.
func (r *Replica) runOwned(ctx context.Context, epoch uint64, key string, parked *parked, reconcile ReconcileFunc) error {
	rctx, done, ok := r.member.ownedContext(ctx, epoch)
	if !ok {
		return r.park(parked, key)
	}
	r.inflight.Add(1)
	defer r.inflight.Done()
	defer done()
	return reconcile(rctx, key)
}

func (r *Replica) client(res Resource, namespace string) metadata.ResourceInterface {
	g := r.cfg.Metadata.Resource(res.Resource)
	if namespace == "" {
		return g
	}
	return g.Namespace(namespace)
}

// takeOver runs in every replica: it fences the Leases of members that stopped renewing, as judged
// on this replica's clock at the moment each expires, and lets the mode take over what departed
// members owned and the ring now places here (in LabelMode, label patches), so a failover does not
// wait for the coordinator, which may be the replica that died.
func (r *Replica) takeOver(ctx context.Context, logger klog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.departed:
		case <-r.clock.After(r.observer.untilNextExpiry(r.cfg.RetryPeriod)):
		}
		if !r.IsMember() {
			continue
		}
		fenced := false
		for _, l := range r.observer.expired() {
			fenced = r.observer.fence(ctx, logger, l) || fenced
		}
		if fenced && r.observer.recompute() {
			r.ringChanged(logger)
		}
		r.mode.departed(ctx, logger, r.observer.takeDeparted())
	}
}
