package sharding

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

// memberState is what an observer knows of one member Lease.
type memberState struct {
	lease    *coordinationv1.Lease
	observed time.Time // when its resourceVersion last changed, on the observer's clock
	graced   bool      // observed was moved forward after a gap in observation (once per version)
}

// observer follows the ring's member Leases and judges on its own clock which members are live. A
// watch shows each renewal, release or fence as it happens, so a member's expiry is timed from its
// last change rather than from the next list; a list every RetryPeriod fills in whatever a broken
// watch missed and proves that observation is current.
type observer struct {
	c           *Replica
	selector    string // selects the Leases observed
	foreign     bool   // observes the members of other rings, for ServerMode's claims only
	mu          sync.Mutex
	states      map[string]*memberState // by member identity
	ring        *Ring
	lastRefresh time.Time
	listRV      string               // resourceVersion of the last list, where a new watch starts
	listed      chan struct{}        // signalled after each successful list, for a watch waiting to start
	departed    map[string]bool      // members whose Lease was released, fenced or deleted, not yet claimed from
	departedAt  map[string]time.Time // when members departed, for a RetryPeriod after
}

func newObserver(c *Replica) *observer {
	return &observer{c: c, selector: RingLabel + "=" + c.cfg.Ring, states: map[string]*memberState{}, departed: map[string]bool{}, departedAt: map[string]time.Time{}, listed: make(chan struct{}, 1)}
}

// newForeignObserver observes the member Leases of the other rings in the namespace, whose ServerMode
// claims may cover the same objects (a replica started with the wrong ring name).
func newForeignObserver(c *Replica) *observer {
	o := newObserver(c)
	o.selector = RingLabel + "," + RingLabel + "!=" + c.cfg.Ring
	o.foreign = true
	return o
}

// keyOf returns the key of a Lease's state: its member's identity, or for other rings, its name.
func (o *observer) keyOf(l *coordinationv1.Lease) string {
	if o.foreign {
		return l.Name
	}
	return l.Labels[MemberLabel]
}

// holdsMember reports whether a Lease is held by a replica (not released, not fenced).
func holdsMember(l *coordinationv1.Lease) bool {
	h := ptrString(l.Spec.HolderIdentity)
	return h != "" && h != FencedHolder
}

// run lists the Leases every RetryPeriod and watches them in between until ctx ends, calling
// changed whenever the set of live members changes.
func (o *observer) run(ctx context.Context, logger klog.Logger, changed func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		o.watch(ctx, logger, changed)
	}()
	ticker := o.c.clock.NewTicker(o.c.cfg.RetryPeriod)
	defer ticker.Stop()
	for {
		if ringChanged, err := o.refresh(ctx); err != nil {
			logger.V(2).Info("sharding: listing the ring's Leases failed", "err", err)
		} else if ringChanged {
			changed()
		}
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-ticker.C():
		}
	}
}

// watch follows the Leases from the last list's resourceVersion; when a watch ends it starts the
// next one after the next successful list, whose result covers the events in between.
func (o *observer) watch(ctx context.Context, logger klog.Logger, changed func()) {
	cfg := &o.c.cfg
	for {
		select {
		case <-ctx.Done():
			return
		case <-o.listed:
		}
		o.mu.Lock()
		rv := o.listRV
		o.mu.Unlock()
		w, err := cfg.Leases.Watch(ctx, metav1.ListOptions{LabelSelector: o.selector, ResourceVersion: rv})
		if err != nil {
			logger.V(2).Info("sharding: watching the ring's Leases failed; relying on lists until the next try", "err", err)
			continue
		}
		o.follow(ctx, w, changed)
		w.Stop()
	}
}

// follow applies the events of one watch until it ends.
func (o *observer) follow(ctx context.Context, w watch.Interface, changed func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			l, isLease := ev.Object.(*coordinationv1.Lease)
			if !isLease {
				return // an error event: the next list restarts the watch
			}
			now := o.c.clock.Now()
			o.mu.Lock()
			switch ev.Type {
			case watch.Added, watch.Modified:
				o.observeLocked(l, now)
			case watch.Deleted:
				if s := o.states[o.keyOf(l)]; s != nil && !olderVersion(l.ResourceVersion, s.lease.ResourceVersion) {
					o.forgetLocked(o.keyOf(l))
				}
			}
			ringChanged := o.recomputeLocked(now)
			o.mu.Unlock()
			if ringChanged {
				changed()
			}
		}
	}
}

// refresh lists the Leases once; it reports whether the set of live members changed.
func (o *observer) refresh(ctx context.Context) (bool, error) {
	cfg := &o.c.cfg
	list, err := cfg.Leases.List(ctx, metav1.ListOptions{LabelSelector: o.selector})
	if err != nil {
		return false, err
	}
	now := o.c.clock.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.lastRefresh.IsZero() && now.Sub(o.lastRefresh) > 2*cfg.RetryPeriod {
		// We could not observe for a while, most likely because the API server was unreachable and
		// nobody could renew. A Lease whose version is still the one seen before was not written
		// since, so its member stopped reconciling at its renew deadline as usual; but a live member
		// needs a moment after the outage to renew, so no Lease expires before two retry periods
		// from now (rather than a whole LeaseDuration, which would hold a dead member's objects
		// that much longer after every outage).
		o.afterGapLocked(now)
	}
	o.lastRefresh = now
	o.listRV = list.ResourceVersion
	select {
	case o.listed <- struct{}{}:
	default:
	}
	seen := map[string]bool{}
	for i := range list.Items {
		l := &list.Items[i]
		if id := o.keyOf(l); id != "" {
			seen[id] = true
			o.observeLocked(l, now)
		}
	}
	for id, s := range o.states {
		// A Lease the watch delivered after this list was taken is not gone.
		if !seen[id] && !olderVersion(list.ResourceVersion, s.lease.ResourceVersion) {
			o.forgetLocked(id)
		}
	}
	return o.recomputeLocked(now), nil
}

// afterGapLocked gives every member observed before a gap in observation until two retry periods
// from now to show a new version of its Lease, unless its Lease expires later anyway. A version gets
// that grace once: on a loaded server, where every list takes longer than two retry periods, a
// grace at each list would keep a dead member's Lease from ever expiring.
func (o *observer) afterGapLocked(now time.Time) {
	grace := 2 * o.c.cfg.RetryPeriod
	for _, s := range o.states {
		if earliest := now.Add(grace - leaseDuration(s.lease, o.c.cfg.LeaseDuration)); !s.graced && s.observed.Before(earliest) {
			s.observed, s.graced = earliest, true
		}
	}
}

// observeLocked records a version of a member Lease seen at now; a version older than the one
// already recorded (a list that raced with the watch) changes nothing.
func (o *observer) observeLocked(l *coordinationv1.Lease, now time.Time) {
	id := o.keyOf(l)
	if id == "" {
		return
	}
	s := o.states[id]
	if s != nil && (s.lease.ResourceVersion == l.ResourceVersion || olderVersion(l.ResourceVersion, s.lease.ResourceVersion)) {
		return
	}
	if s != nil && holdsMember(s.lease) && !holdsMember(l) {
		o.departedLocked(id, now)
	}
	o.states[id] = &memberState{lease: l.DeepCopy(), observed: now}
}

// departedLocked records that member id left and wakes takeOver.
func (o *observer) departedLocked(id string, now time.Time) {
	if o.foreign {
		return
	}
	o.departed[id] = true
	o.departedAt[id] = now
	o.signalDeparted()
}

// claimGrace returns how much longer the replicas' own claims of the objects of departed member id
// are left to run before the coordinator moves what they did not; zero if id did not depart within
// the last RetryPeriod.
func (o *observer) claimGrace(id string) time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	at, ok := o.departedAt[id]
	if !ok {
		return 0
	}
	return max(o.c.cfg.RetryPeriod-o.c.clock.Since(at), 0)
}

// forgetLocked drops a member whose Lease is gone.
func (o *observer) forgetLocked(id string) {
	if s := o.states[id]; s != nil && holdsMember(s.lease) {
		o.departedLocked(id, o.c.clock.Now())
	}
	delete(o.states, id)
}

// recompute rebuilds the ring from what was observed; it reports whether the set of live members
// changed.
func (o *observer) recompute() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.recomputeLocked(o.c.clock.Now())
}

func (o *observer) recomputeLocked(now time.Time) bool {
	if o.foreign {
		return false
	}
	for id, at := range o.departedAt {
		if now.Sub(at) >= o.c.cfg.RetryPeriod {
			delete(o.departedAt, id)
		}
	}
	var live []string
	for id, s := range o.states {
		if o.liveLocked(s, now) {
			live = append(live, id)
		}
	}
	slices.Sort(live)
	if o.ring != nil && slices.Equal(live, o.ring.members) {
		return false // building a ring costs thousands of hashes per member; most events renew a Lease
	}
	ring := NewRing(live, o.c.cfg.VirtualNodes)
	o.ring = ring
	o.c.metrics.members.Set(float64(ring.Len()))
	return true
}

// olderVersion reports whether resourceVersion a is known to precede b. Resource versions are
// compared as numbers, as etcd's are; anything else is never called older.
func olderVersion(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	return errA == nil && errB == nil && x < y
}

func (o *observer) liveLocked(s *memberState, now time.Time) bool {
	return holdsMember(s.lease) && now.Before(s.observed.Add(leaseDuration(s.lease, o.c.cfg.LeaseDuration)))
}

// currentRing returns the ring of live members last observed.
func (o *observer) currentRing() *Ring {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ring == nil {
		return NewRing(nil, o.c.cfg.VirtualNodes)
	}
	return o.ring
}

// memberClaim says whether identity may still act on its objects: claimed while its Lease is held by
// one of its instances, whether live or expired-but-unfenced (the coordinator fences it first).
type memberClaim int

const (
	claimNone    memberClaim = iota // no Lease, released or fenced: its objects may move without a drain
	claimLive                       // a live member: objects leave it only through a drain
	claimExpired                    // held but expired on our clock: fence before moving
)

func (o *observer) claim(identity string) (memberClaim, *coordinationv1.Lease) {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := o.states[identity]
	if s == nil {
		return claimNone, nil
	}
	switch {
	case !holdsMember(s.lease):
		return claimNone, nil
	case o.liveLocked(s, o.c.clock.Now()):
		return claimLive, nil
	default:
		return claimExpired, s.lease.DeepCopy()
	}
}

// expired returns the Leases held by members that stopped renewing; none while observation is not
// current (no successful list for two retry periods), since a Lease unchanged while we could not
// look proves nothing.
func (o *observer) expired() []*coordinationv1.Lease {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.c.clock.Now()
	var out []*coordinationv1.Lease
	if now.Sub(o.lastRefresh) > 2*o.c.cfg.RetryPeriod {
		return nil
	}
	for _, s := range o.states {
		if holdsMember(s.lease) && !o.liveLocked(s, now) {
			out = append(out, s.lease.DeepCopy())
		}
	}
	return out
}

// fence takes over an expired member Lease, compare-and-swap on the version observed, so the member
// cannot renew it any more; it reports success.
func (o *observer) fence(ctx context.Context, logger klog.Logger, l *coordinationv1.Lease) bool {
	cfg := &o.c.cfg
	o.mu.Lock()
	s := o.states[l.Labels[MemberLabel]]
	var since time.Duration
	if s != nil {
		since = o.c.clock.Since(s.observed)
	}
	o.mu.Unlock()
	holder := FencedHolder
	now := metav1.NewMicroTime(o.c.clock.Now())
	l.Spec.HolderIdentity = &holder
	l.Spec.RenewTime = &now
	l.Spec.AcquireTime = &now
	updated, err := cfg.Leases.Update(ctx, l, metav1.UpdateOptions{})
	if err != nil {
		logger.V(2).Info("sharding: fencing an expired member Lease failed", "lease", l.Name, "err", err)
		return false
	}
	logger.Error(nil, "sharding: member stopped renewing its Lease; fenced it and moving its objects",
		"ring", cfg.Ring, "member", l.Labels[MemberLabel], "unchangedFor", since.Round(time.Millisecond))
	o.mu.Lock()
	o.observeLocked(updated, o.c.clock.Now())
	o.mu.Unlock()
	return true
}

// publishedClaim is a ServerMode claim another member published in its Lease.
type publishedClaim struct {
	member, value string
}

// claimsOfOthers returns, by Lease name, the ServerMode claims published by members other than self
// whose claims may cover objects of scope: of this ring, those whose Lease is held, live or expired but
// not yet fenced; of other rings, those whose Lease is live on this replica's clock and whose scope
// overlaps (other rings do not fence them, and a replica stops reconciling before its Lease expires).
func (o *observer) claimsOfOthers(self string, scope claimScope) map[string]publishedClaim {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.c.clock.Now()
	out := map[string]publishedClaim{}
	for id, s := range o.states {
		claim := s.lease.Annotations[ClaimAnnotation]
		if claim == "" || id == self && !o.foreign || !holdsMember(s.lease) {
			continue
		}
		if o.foreign && (!o.liveLocked(s, now) || !scope.overlaps(parseScope(s.lease.Annotations[ScopeAnnotation]))) {
			continue
		}
		out[s.lease.Name] = publishedClaim{member: s.lease.Labels[MemberLabel], value: claim}
	}
	return out
}

// takeDeparted returns the members that left since the last call and forgets them.
func (o *observer) takeDeparted() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.departed))
	for id := range o.departed {
		out = append(out, id)
	}
	clear(o.departed)
	return out
}

// untilNextExpiry returns how long until the first live member's Lease expires on our clock, at most limit.
func (o *observer) untilNextExpiry(limit time.Duration) time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.c.clock.Now()
	wait := limit
	for _, s := range o.states {
		if o.liveLocked(s, now) {
			if d := s.observed.Add(leaseDuration(s.lease, o.c.cfg.LeaseDuration)).Sub(now); d < wait {
				wait = d
			}
		}
	}
	return max(wait, 0)
}

func (o *observer) signalDeparted() {
	select {
	case o.c.departed <- struct{}{}:
	default:
	}
}
