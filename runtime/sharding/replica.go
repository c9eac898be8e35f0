package sharding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	le "github.com/kgen-dev/kgen/runtime/leaderelection"
	rl "github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/workqueue"
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

	verifyMu sync.Mutex
	verified map[schema.GroupVersionResource]*verifiedSet

	claims   *claims       // ServerMode's state; nil in LabelMode
	renewNow chan struct{} // asks Run to write the member Lease now
	objects  struct {      // ServerMode: the objects the wrapped informers hold
		mu         sync.Mutex
		byInformer map[*shardedListWatch]int
		gauge      GaugeMetric
	}
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
		verified: map[schema.GroupVersionResource]*verifiedSet{}, renewNow: make(chan struct{}, 1)}
	if cfg.Mode == ServerMode {
		r.claims = newClaims(r)
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

// LabelSelector selects, in LabelMode, the objects assigned to this replica; give it to the
// controller's informers (for example through a factory's WithTweakListOptions) so the replica caches
// only its share.
func (r *Replica) LabelSelector() string { return ShardLabel(r.cfg.Ring) + "=" + r.cfg.Identity }

// TweakListOptions sets LabelSelector on opts, in the shape informer factories take (LabelMode; in
// ServerMode use ListerWatcher, which also restarts the informer when the replica's share changes).
func (r *Replica) TweakListOptions(opts *metav1.ListOptions) { opts.LabelSelector = r.LabelSelector() }

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
	lock := &rl.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: r.cfg.Namespace, Name: r.cfg.Ring},
		Client:     namespaceLeases{r.cfg.Leases},
		LockConfig: rl.ResourceLockConfig{Identity: r.member.holder},
	}
	elector, err := le.NewLeaderElector(le.LeaderElectionConfig{
		Lock: lock, LeaseDuration: r.cfg.LeaseDuration, RenewDeadline: r.cfg.RenewDeadline, RetryPeriod: r.cfg.RetryPeriod,
		Name: "sharding-" + r.cfg.Ring, Clock: r.clock, ReleaseOnCancel: true,
		Callbacks: le.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { newCoordinator(r).run(ctx) },
			OnStoppedLeading: func() {},
		},
	})
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(4)
	go func() {
		defer wg.Done()
		r.takeOver(ctx, logger)
	}()
	coordinate := func() {
		for ctx.Err() == nil {
			elector.Run(ctx)
		}
	}
	if r.claims != nil {
		coordinate = func() { r.claims.run(ctx, logger) }
	}
	go func() {
		defer wg.Done()
		r.observer.run(ctx, logger, func() { r.ringChanged(logger) })
	}()
	go func() {
		defer wg.Done()
		coordinate()
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
	if r.claims != nil {
		return r.serverReconciler(get, parked, reconcile)
	}
	return func(ctx context.Context, key string) error {
		epoch, ok := r.member.current()
		if !ok {
			return r.park(parked, key)
		}
		item, exists, err := get(key)
		if err != nil {
			return err
		}
		if !exists {
			return nil
		}
		obj, err := meta.Accessor(item)
		if err != nil {
			return fmt.Errorf("sharding: %s: %w", key, err)
		}
		labels := obj.GetLabels()
		if labels[ShardLabel(r.cfg.Ring)] != r.cfg.Identity {
			return nil
		}
		if target := labels[DrainLabel(r.cfg.Ring)]; target != "" {
			return r.acknowledge(ctx, res, obj, target)
		}
		if mine, err := r.verify(ctx, res, epoch, obj); err != nil || !mine {
			return err
		}
		return r.runOwned(ctx, epoch, key, parked, reconcile)
	}
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

// serverReconciler is Reconciler in ServerMode.
func (r *Replica) serverReconciler(get Getter, parked *parked, reconcile ReconcileFunc) ReconcileFunc {
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
		h := ServerHash(fieldValue(r.cfg.ServerField, obj))
		switch r.claims.begin(h) {
		case guardSkip:
			return nil
		case guardPending:
			parked.park(key) // released when the claims change or after the next renewal
			return nil
		}
		defer r.claims.end(h)
		return r.runOwned(ctx, epoch, key, parked, reconcile)
	}
}

// acknowledge hands obj to target, compare-and-swap on the cached version.
func (r *Replica) acknowledge(ctx context.Context, res Resource, obj metav1.Object, target string) error {
	patch := labelPatch(obj.GetResourceVersion(), map[string]any{ShardLabel(r.cfg.Ring): target, DrainLabel(r.cfg.Ring): nil})
	_, err := r.client(res, obj.GetNamespace()).Patch(ctx, obj.GetName(), types.MergePatchType, patch, metav1.PatchOptions{})
	switch {
	case err == nil:
		klog.FromContext(ctx).V(2).Info("sharding: drained object", "resource", res.Resource.Resource,
			"object", klog.KRef(obj.GetNamespace(), obj.GetName()), "to", target)
		return nil
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		return nil // the cache is behind; the next event brings the object back if it is still ours
	default:
		return err
	}
}

func (r *Replica) client(res Resource, namespace string) metadata.ResourceInterface {
	g := r.cfg.Metadata.Resource(res.Resource)
	if namespace == "" {
		return g
	}
	return g.Namespace(namespace)
}

// verifiedSet is what a consistent list said this replica owned when an epoch began.
type verifiedSet struct {
	epoch  uint64
	once   sync.Once
	err    error
	keys   map[types.UID]bool // objects known to be ours in this epoch; never false, since objects move back
	listRV uint64             // the list's resourceVersion; 0 if it was not a number
}

// verify reports whether obj, shown as ours by the cache, is ours on the server. Objects listed as
// ours when the epoch began are, and so is a cached version written after that list, since only a
// drain this replica acknowledges or a fence that ends the epoch moves an object off a member;
// any other object is read from the server once per epoch. Comparing resourceVersions as numbers
// relies on etcd's, as every kube-apiserver has; one that is not a number is read from the server.
func (r *Replica) verify(ctx context.Context, res Resource, epoch uint64, obj metav1.Object) (bool, error) {
	r.verifyMu.Lock()
	set := r.verified[res.Resource]
	if set == nil || set.epoch != epoch {
		set = &verifiedSet{epoch: epoch}
		r.verified[res.Resource] = set
	}
	r.verifyMu.Unlock()
	set.once.Do(func() { set.keys, set.listRV, set.err = r.listOwned(ctx, res) })
	if set.err != nil {
		r.verifyMu.Lock()
		if r.verified[res.Resource] == set {
			delete(r.verified, res.Resource)
		}
		r.verifyMu.Unlock()
		return false, set.err
	}
	r.verifyMu.Lock()
	known := set.keys[obj.GetUID()]
	r.verifyMu.Unlock()
	if known {
		return true, nil
	}
	if rv, err := strconv.ParseUint(obj.GetResourceVersion(), 10, 64); err == nil && set.listRV != 0 && rv > set.listRV {
		return true, nil // labels and drain label were read from the cache by the caller
	}
	live, err := r.client(res, obj.GetNamespace()).Get(ctx, obj.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	l := live.GetLabels()
	mine := l[ShardLabel(r.cfg.Ring)] == r.cfg.Identity && l[DrainLabel(r.cfg.Ring)] == ""
	if mine {
		r.verifyMu.Lock()
		set.keys[obj.GetUID()] = true
		r.verifyMu.Unlock()
	}
	return mine, nil
}

func (r *Replica) listOwned(ctx context.Context, res Resource) (map[types.UID]bool, uint64, error) {
	keys := map[types.UID]bool{}
	opts := metav1.ListOptions{LabelSelector: r.LabelSelector(), Limit: 500}
	var listRV uint64
	for {
		list, err := r.client(res, r.cfg.ObjectNamespace).List(ctx, opts)
		if err != nil {
			return nil, 0, fmt.Errorf("sharding: listing the objects this replica owns: %w", err)
		}
		if opts.Continue == "" {
			listRV, _ = strconv.ParseUint(list.ResourceVersion, 10, 64)
		}
		for i := range list.Items {
			if list.Items[i].Labels[DrainLabel(r.cfg.Ring)] == "" {
				keys[list.Items[i].UID] = true
			}
		}
		if list.Continue == "" {
			return keys, listRV, nil
		}
		opts.Continue = list.Continue
	}
}

// labelPatch is a JSON merge patch setting labels (nil deletes) with a resourceVersion precondition.
func labelPatch(resourceVersion string, labels map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": resourceVersion, "labels": labels}})
	return b
}

// takeOver runs in every replica: it fences the Leases of members that stopped renewing, as judged
// on this replica's clock at the moment each expires, and claims the objects of departed members that
// the ring now places here, so a failover does not wait for the coordinator, which may be the replica
// that died.
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
		departed := r.observer.takeDeparted()
		if r.claims != nil {
			continue // no labels to move: the survivors adopt the departed member's share
		}
		var wg sync.WaitGroup
		for _, id := range departed {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := r.claimFrom(ctx, id); err != nil {
					logger.V(2).Info("sharding: claiming a departed member's objects failed; the coordinator moves them", "member", id, "err", err)
				}
			}()
		}
		wg.Wait()
	}
}

// claimFrom labels with this replica's identity the objects of departed member that the ring
// places here.
func (r *Replica) claimFrom(ctx context.Context, member string) error {
	ring := r.observer.currentRing()
	var mains []schema.GroupKind
	for _, res := range r.cfg.Resources {
		mains = append(mains, res.groupKind())
	}
	patch := claimPatch(r.cfg.Ring, member, r.cfg.Identity)
	var claimed atomic.Int64
	var firstErr error
	var errOnce sync.Once
	for _, res := range append(append([]Resource(nil), r.cfg.Resources...), r.cfg.Controlled...) {
		opts := metav1.ListOptions{LabelSelector: ShardLabel(r.cfg.Ring) + "=" + member, Limit: 500}
		for {
			list, err := r.client(res, r.cfg.ObjectNamespace).List(ctx, opts)
			if err != nil {
				return err
			}
			workqueue.ParallelizeUntil(ctx, r.cfg.Workers, len(list.Items), func(i int) {
				obj := &list.Items[i]
				if ring.Owner(HashKey(res.groupKind(), obj, mains)) != r.cfg.Identity {
					return
				}
				_, err := r.client(res, obj.Namespace).Patch(ctx, obj.Name, types.JSONPatchType, patch, metav1.PatchOptions{})
				switch {
				case err == nil:
					claimed.Add(1)
					r.metrics.moves.Inc()
				case !apierrors.IsInvalid(err) && !apierrors.IsNotFound(err):
					errOnce.Do(func() { firstErr = err })
				}
			})
			if firstErr != nil {
				return firstErr
			}
			if list.Continue == "" {
				break
			}
			opts.Continue = list.Continue
		}
	}
	if n := claimed.Load(); n > 0 {
		klog.FromContext(ctx).Info("sharding: took over objects of a departed member", "member", member, "objects", n)
	}
	return nil
}

// claimPatch is a JSON patch giving an object to identity on condition that it still belongs to
// member, and dropping any drain request member can no longer acknowledge. Conditioning on the label
// rather than on the resourceVersion lets a claim succeed although the object's spec or status
// changed since it was listed; a failed condition is answered with 422 Unprocessable Entity.
func claimPatch(ring, member, identity string) []byte {
	shard := "/metadata/labels/" + jsonPointerEscape(ShardLabel(ring))
	drain := "/metadata/labels/" + jsonPointerEscape(DrainLabel(ring))
	b, _ := json.Marshal([]map[string]any{
		{"op": "test", "path": shard, "value": member},
		{"op": "replace", "path": shard, "value": identity},
		{"op": "add", "path": drain, "value": ""}, // so that the removal cannot fail
		{"op": "remove", "path": drain},
	})
	return b
}

// jsonPointerEscape escapes a map key for a JSON pointer (RFC 6901).
func jsonPointerEscape(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
