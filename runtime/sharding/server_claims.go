package sharding

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/klog/v2"
)

// Annotations of member Leases in ServerMode.
const (
	// ClaimAnnotation lists the members (comma-separated, sorted) of the Partition whose share the
	// Lease's member may reconcile; absent or empty, it claims nothing.
	ClaimAnnotation = "sharding.kgen.dev/claim"
	// ScopeAnnotation says which objects the claim is about: the namespace (empty for all), a
	// semicolon, and the sharded resources as group/resource, comma-separated and sorted.
	ScopeAnnotation = "sharding.kgen.dev/scope"
)

// claimScope is what a ServerMode ring shards: resources (group/resource) in a namespace, or in all
// namespaces when namespace is empty.
type claimScope struct {
	namespace string
	resources []string
}

func newClaimScope(cfg *Config) claimScope {
	res := cfg.Resources
	if cfg.ServerField == NamespaceField {
		res = append(append([]Resource(nil), cfg.Resources...), cfg.Controlled...)
	}
	sc := claimScope{namespace: cfg.ObjectNamespace}
	for _, r := range res {
		sc.resources = append(sc.resources, r.Resource.GroupResource().String())
	}
	slices.Sort(sc.resources)
	sc.resources = slices.Compact(sc.resources)
	return sc
}

func (sc claimScope) String() string { return sc.namespace + ";" + strings.Join(sc.resources, ",") }

func parseScope(v string) claimScope {
	ns, res, ok := strings.Cut(v, ";")
	if !ok {
		return claimScope{}
	}
	return claimScope{namespace: ns, resources: strings.Split(res, ",")}
}

// overlaps reports whether some object may be in both scopes.
func (sc claimScope) overlaps(o claimScope) bool {
	if sc.namespace != o.namespace && sc.namespace != "" && o.namespace != "" {
		return false
	}
	for _, r := range sc.resources {
		if r != "" && slices.Contains(o.resources, r) {
			return true
		}
	}
	return false
}

// claims is a replica's state in ServerMode. Its own claim, published in its member Lease, always
// covers what it reconciles: on a change of members it first stops reconciling what it loses (and
// waits for those reconciles to return), then publishes the new partition, then reads every member
// Lease with a consistent list before it starts on what it gains. Of two replicas that both want an
// object, the one whose read comes later sees the other's claim, so the replica reconciles an object
// only if its hash falls in its share and no claim it read then (a blocker) has covered the object
// ever since: claims published after its read are the publishers' to wait on. So no object has two
// owners, and none waits longer than its previous owner's next adoption or the expiry of its Lease.
//
// Members of other rings with an overlapping scope (a replica started under the wrong ring name) are
// kept out the same way, at the first adoption: a replica that claimed nothing and reads a live claim
// of another ring withdraws its own and tries again later, so the ring that was there first keeps the
// objects until its last member is gone.
type claims struct {
	r    *Replica
	mu   sync.Mutex
	cond *sync.Cond // broadcast when a reconcile ends, a claim is published or the state resets

	adopted   *Partition // published and checked; nil claims nothing
	narrowed  *Partition // while adopting: reconciles start only for objects it also gives here
	target    *Partition // the partition of the live members, being adopted or adopted
	want      string     // the claim the next Lease write carries
	published string     // the claim the last successful Lease write carried
	inflight  map[uint64]int
	changed   chan struct{} // closed (and replaced) whenever adopted changes
	blockers  map[string]*blocker
	parsed    map[string]*Partition // claims' partitions, by claim
	scope     claimScope
	foreign   *observer // the Leases of other rings
	withdrawn bool      // the last adoption gave way to another ring
	joinedAt  time.Time // when the write that (re)joined the ring began
}

// blocker is a claim read when the adopted partition was activated, followed since: the object is
// blocked while every claim its member published since covers it.
type blocker struct {
	member string
	last   string       // the claim last seen
	claims []*Partition // each claim seen since the read
}

func newClaims(r *Replica) *claims {
	c := &claims{r: r, inflight: map[uint64]int{}, changed: make(chan struct{}), parsed: map[string]*Partition{},
		scope: newClaimScope(&r.cfg), foreign: newForeignObserver(r)}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func claimValue(p *Partition) string { return strings.Join(p.members, ",") }

// forWrite returns the claim a Lease write should carry. A write that acquires the Lease claims
// nothing: the replica's share may have gone to others since it last held the Lease (it was fenced,
// or this is a new instance), and it must adopt its share again. A write that renews a Lease the
// replica held all along keeps the claim, also when membership lapsed meanwhile (a renewal missed
// the renew deadline, the API server was unreachable): the claim published in that Lease counted
// for the other members all that time, so nobody took the share over, and the replica resumes
// without a new adoption and its informers without a relist.
func (c *claims) forWrite(acquire bool) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if acquire {
		c.resetLocked()
		c.joinedAt = c.r.clock.Now()
	}
	return c.want
}

// resetLocked drops the adopted share.
func (c *claims) resetLocked() {
	if c.adopted != nil {
		c.adopted = nil
		c.signalChangedLocked()
	}
	c.narrowed, c.target, c.want = nil, nil, ""
	c.cond.Broadcast()
}

func (c *claims) signalChangedLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// written records that a Lease write carrying claim succeeded.
func (c *claims) written(claim string) {
	c.mu.Lock()
	c.published = claim
	c.cond.Broadcast()
	c.mu.Unlock()
}

// run adopts the partition of the live members whenever they change, until ctx ends.
func (c *claims) run(ctx context.Context, logger klog.Logger) {
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { c.foreign.run(ctx, logger, func() {}) })
	ticker := c.r.clock.NewTicker(c.r.cfg.RetryPeriod)
	defer ticker.Stop()
	for {
		if err := c.adopt(ctx, logger); err != nil && ctx.Err() == nil {
			logger.V(2).Info("sharding: adopting the ring's new partition failed; retrying", "err", err)
		}
		c.r.requeueParked() // keys waiting for a handoff may run now
		select {
		case <-ctx.Done():
			return
		case <-c.r.changed:
		case <-ticker.C():
		}
	}
}

// settleTime is how long a replica that (re)joined a ring where no other member claims anything yet
// waits before its first adoption, so that replicas started together see each other first and each
// lists only its share, rather than the first one listing every object and then giving most of them
// away. A replica joining a working ring adopts at once.
func settleTime(cfg *Config) time.Duration { return 2 * cfg.RetryPeriod }

var errAdoptionInterrupted = errors.New("membership lapsed while adopting")

// adopt takes the partition of the live members this replica observes as its own, if it is not yet.
func (c *claims) adopt(ctx context.Context, logger klog.Logger) error {
	if !c.r.IsMember() {
		return nil
	}
	self := c.r.cfg.Identity
	target := NewPartition(c.r.observer.currentRing().Members())
	if !target.Has(self) {
		return nil
	}
	value := claimValue(target)
	c.mu.Lock()
	if c.adopted != nil && c.adopted.Equal(target) {
		c.mu.Unlock()
		return nil
	}
	newcomer, previous := c.adopted == nil, c.adopted
	justJoined := c.r.clock.Since(c.joinedAt) < settleTime(&c.r.cfg)
	c.mu.Unlock()
	if newcomer && justJoined && len(c.r.observer.claimsOfOthers(self, c.scope)) == 0 {
		return nil // a ring starting up: replicas started together see each other first
	}
	if newcomer && len(c.foreign.claimsOfOthers("", c.scope)) > 0 {
		return c.withdraw(logger) // known already: do not even publish
	}
	// Stop what the new partition takes away, and wait for its reconciles to return.
	start := c.r.clock.Now()
	c.mu.Lock()
	c.narrowed, c.target = target, target
	for c.busyOutsideLocked(target) && ctx.Err() == nil {
		c.cond.Wait()
	}
	// Publish, then read every member's claim from etcd, not from a cache that may lag.
	c.want = value
	c.mu.Unlock()
	c.r.renewSoon()
	c.mu.Lock()
	for c.published != value && c.want == value && ctx.Err() == nil {
		c.cond.Wait()
	}
	interrupted := c.want != value
	c.mu.Unlock()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if interrupted {
		return errAdoptionInterrupted
	}
	if lost := slotsMoved(previous, target, self); lost > 0 {
		c.r.metrics.drains.Inc()
		c.r.metrics.drainDuration.Observe(c.r.clock.Since(start).Seconds())
	}
	if _, err := c.r.observer.refresh(ctx); err != nil {
		return err
	}
	if _, err := c.foreign.refresh(ctx); err != nil {
		return err
	}
	others := c.r.observer.claimsOfOthers(self, c.scope)
	foreign := c.foreign.claimsOfOthers("", c.scope)
	if newcomer && len(foreign) > 0 {
		return c.withdraw(logger)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.want != value {
		return errAdoptionInterrupted
	}
	if c.withdrawn {
		c.withdrawn = false
		logger.Info("sharding: taking an object whose ring has no live member", "ring", c.r.cfg.Ring, "identity", self)
	}
	c.blockers = map[string]*blocker{}
	for name, pc := range others {
		c.blockers[name] = &blocker{member: pc.member, last: pc.value, claims: []*Partition{c.partitionLocked(pc.value)}}
	}
	gained := slotsMoved(target, previous, self)
	c.adopted, c.narrowed = target, nil
	c.signalChangedLocked()
	for range gained {
		c.r.metrics.moves.Inc()
	}
	logger.Info("sharding: adopted the ring's partition", "members", target.members, "ranges", len(target.Ranges(self)))
	return nil
}

// withdraw gives way to another live ring claiming the same objects: this replica claims nothing and
// tries again at its next adoption.
func (c *claims) withdraw(logger klog.Logger) error {
	c.mu.Lock()
	c.narrowed, c.target, c.want = nil, nil, ""
	c.cond.Broadcast()
	first := !c.withdrawn
	c.withdrawn = true
	c.mu.Unlock()
	c.r.renewSoon()
	if first {
		var leases []string
		for name := range c.foreign.claimsOfOthers("", c.scope) {
			leases = append(leases, name)
		}
		slices.Sort(leases)
		logger.Error(nil, "sharding: object belongs to another live ring; this ring leaves it alone (do all replicas use one ring name?)",
			"ring", c.r.cfg.Ring, "identity", c.r.cfg.Identity, "otherLeases", leases)
	}
	return nil
}

// slotsMoved counts the slots of the hash space from gives member and to does not (all of from's, if
// to is nil).
func slotsMoved(from, to *Partition, member string) int {
	if from == nil {
		return 0
	}
	n := 0
	for s := range PartitionSlots {
		if from.members[from.owner[s]] == member && (to == nil || to.members[to.owner[s]] != member) {
			n++
		}
	}
	return n
}

// busyOutsideLocked reports whether a reconcile runs for an object p does not give to this replica.
func (c *claims) busyOutsideLocked(p *Partition) bool {
	for h, n := range c.inflight {
		if n > 0 && p.Owner(h) != c.r.cfg.Identity {
			return true
		}
	}
	return false
}

// guardDecision is what the guard makes of an object.
type guardDecision int

const (
	guardRun     guardDecision = iota // ours: reconcile it
	guardSkip                         // not ours (any more): leave it to its owner
	guardPending                      // maybe ours once the replica adopted a share or the previous owner let it go: retry later
)

func (c *claims) partitionLocked(claim string) *Partition {
	p := c.parsed[claim]
	if p == nil {
		if len(c.parsed) > 64 {
			clear(c.parsed)
		}
		p = NewPartition(strings.Split(claim, ","))
		c.parsed[claim] = p
	}
	return p
}

// begin decides whether the object with hash h may be reconciled here now and, if so, records the
// reconcile until end.
func (c *claims) begin(h uint64) guardDecision {
	self := c.r.cfg.Identity
	others := c.r.observer.claimsOfOthers(self, c.scope)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.adopted == nil && !c.withdrawn {
		// Joining, or rejoining after a lapse: whether the object is ours is known once the
		// replica adopted a share. Its informer relists then, but an object unchanged since the
		// last list brings no event, so the key must wait here rather than be dropped.
		return guardPending
	}
	if c.adopted == nil || c.adopted.Owner(h) != self || (c.narrowed != nil && c.narrowed.Owner(h) != self) {
		if c.target != nil && c.target.Owner(h) == self {
			return guardPending
		}
		return guardSkip
	}
	for name, b := range c.blockers {
		pc, ok := others[name]
		if !ok {
			delete(c.blockers, name) // released, fenced, expired or gone
			continue
		}
		if pc.value != b.last {
			b.last = pc.value
			b.claims = append(b.claims, c.partitionLocked(pc.value))
		}
		if b.covers(h) {
			return guardPending
		}
	}
	c.inflight[h]++
	return guardRun
}

// covers reports whether every claim b's member published since it was read covers hash h.
func (b *blocker) covers(h uint64) bool {
	for _, p := range b.claims {
		if !p.Has(b.member) || p.Owner(h) != b.member {
			return false
		}
	}
	return true
}

// end records that a reconcile begin allowed returned.
func (c *claims) end(h uint64) {
	c.mu.Lock()
	if c.inflight[h]--; c.inflight[h] <= 0 {
		delete(c.inflight, h)
	}
	c.cond.Broadcast()
	c.mu.Unlock()
}

// share returns this replica's adopted ranges and a channel closed when they change; ranges is nil
// while the replica has adopted nothing.
func (c *claims) share() (ranges []HashRange, changed <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.adopted != nil {
		ranges = c.adopted.Ranges(c.r.cfg.Identity)
	}
	return ranges, c.changed
}
