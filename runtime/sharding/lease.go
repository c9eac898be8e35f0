package sharding

import (
	"context"
	"errors"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

// LeaseClient reads and writes the Leases of one namespace; a generated clientset's
// CoordinationV1().Leases(namespace) fits.
type LeaseClient interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*coordinationv1.Lease, error)
	List(ctx context.Context, opts metav1.ListOptions) (*coordinationv1.LeaseList, error)
	Create(ctx context.Context, lease *coordinationv1.Lease, opts metav1.CreateOptions) (*coordinationv1.Lease, error)
	Update(ctx context.Context, lease *coordinationv1.Lease, opts metav1.UpdateOptions) (*coordinationv1.Lease, error)
}

// FencedHolder is the holder the coordinator writes into the Lease of a member that stopped renewing
// before it moves that member's objects, so the member cannot renew its way back in meanwhile.
const FencedHolder = "sharding.kgen.dev/fenced"

// ErrNotMember is returned (wrapped) by a reconcile the replica refused to run, and by the contexts it
// hands to reconciles once membership lapsed.
var ErrNotMember = errors.New("sharding: this replica is not a member of its ring")

// memberLeaseName is the name of identity's Lease in ring.
func memberLeaseName(ring, identity string) string { return ring + "." + identity }

// membership keeps this replica's own Lease. The replica may act as a member while validUntil, set
// to the start of the last successful renewal plus RenewDeadline on the local clock, lies ahead: any
// other replica waits LeaseDuration from when it saw the Lease change before treating it as
// expired, so the replica stops first.
type membership struct {
	c      *Replica
	name   string
	holder string // identity_instance

	mu         sync.Mutex
	validUntil time.Time
	epoch      uint64 // counts the times membership started: the first join and each rejoin after a lapse
	cancels    map[*func()]struct{}
	// otherRV and otherSeen observe a Lease held by someone else, on our clock.
	otherRV   string
	otherSeen time.Time
	warned    string
}

func newMembership(c *Replica, instance string) *membership {
	return &membership{c: c, name: memberLeaseName(c.cfg.Ring, c.cfg.Identity), holder: c.cfg.Identity + "_" + instance,
		cancels: map[*func()]struct{}{}}
}

// current returns the epoch and whether the replica is a member now.
func (m *membership) current() (uint64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.epoch, m.validLocked()
}

func (m *membership) validLocked() bool {
	return !m.validUntil.IsZero() && m.c.clock.Now().Before(m.validUntil)
}

// valid reports whether the replica is a member in epoch now.
func (m *membership) valid(epoch uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.epoch == epoch && m.validLocked()
}

// renewed records a successful write of the Lease begun at start.
func (m *membership) renewed(logger klog.Logger, start time.Time) {
	m.mu.Lock()
	rejoined := !m.validLocked()
	if rejoined {
		m.epoch++
		m.cancelAllLocked()
	}
	m.validUntil = start.Add(m.c.cfg.RenewDeadline)
	epoch := m.epoch
	m.mu.Unlock()
	if rejoined {
		logger.Info("sharding: joined ring", "ring", m.c.cfg.Ring, "identity", m.c.cfg.Identity, "lease", m.name, "epoch", epoch)
		m.c.notify()
	}
}

// lapse ends membership now, cancelling the reconciles in flight.
func (m *membership) lapse() {
	m.mu.Lock()
	m.validUntil = time.Time{}
	m.cancelAllLocked()
	m.mu.Unlock()
}

// checkExpiry cancels the reconciles in flight once validUntil passed and reports whether it did.
func (m *membership) checkExpiry(logger klog.Logger) {
	m.mu.Lock()
	lapsed := !m.validUntil.IsZero() && !m.validLocked()
	if lapsed {
		m.validUntil = time.Time{}
		m.cancelAllLocked()
	}
	m.mu.Unlock()
	if lapsed {
		logger.Error(nil, "sharding: could not renew the member Lease within the renew deadline; stopped reconciling",
			"ring", m.c.cfg.Ring, "identity", m.c.cfg.Identity, "lease", m.name, "renewDeadline", m.c.cfg.RenewDeadline)
	}
}

func (m *membership) cancelAllLocked() {
	for cancel := range m.cancels {
		(*cancel)()
	}
	clear(m.cancels)
}

// ownedContext derives the context of a reconcile running in epoch: it is cancelled when membership
// lapses, and its Err reports ErrNotMember as soon as the local clock passes the renew deadline,
// even before the watchdog noticed. ok is false if the replica is not a member in epoch.
func (m *membership) ownedContext(parent context.Context, epoch uint64) (context.Context, func(), bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.epoch != epoch || !m.validLocked() {
		return nil, nil, false
	}
	ctx, cancel := context.WithCancelCause(parent)
	stop := func() { cancel(ErrNotMember) }
	m.cancels[&stop] = struct{}{}
	done := func() {
		m.mu.Lock()
		delete(m.cancels, &stop)
		m.mu.Unlock()
		cancel(context.Canceled)
	}
	return &ownedContext{Context: ctx, m: m, epoch: epoch}, done, true
}

type ownedContext struct {
	context.Context
	m     *membership
	epoch uint64
}

// Err returns ErrNotMember once the membership the reconcile started in has lapsed.
func (c *ownedContext) Err() error {
	if err := c.Context.Err(); err != nil {
		if cause := context.Cause(c.Context); errors.Is(cause, ErrNotMember) {
			return cause
		}
		return err
	}
	if !c.m.valid(c.epoch) {
		return ErrNotMember
	}
	return nil
}

// tryAcquireOrRenew writes the Lease once, creating or taking it over when allowed.
func (m *membership) tryAcquireOrRenew(ctx context.Context, logger klog.Logger) {
	cfg := &m.c.cfg
	start := m.c.clock.Now()
	ctx, cancel := context.WithTimeout(ctx, cfg.RenewDeadline)
	defer cancel()
	now := metav1.NewMicroTime(start)
	seconds := int32(cfg.LeaseDuration / time.Second)
	lease, err := cfg.Leases.Get(ctx, m.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		lease = &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: m.name, Labels: m.labels()},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: &m.holder, LeaseDurationSeconds: &seconds,
				AcquireTime: &now, RenewTime: &now},
		}
		if _, err := cfg.Leases.Create(ctx, lease, metav1.CreateOptions{}); err != nil {
			logger.V(2).Info("sharding: creating the member Lease failed", "lease", m.name, "err", err)
			return
		}
		m.renewed(logger, start)
		return
	}
	if err != nil {
		logger.V(2).Info("sharding: reading the member Lease failed", "lease", m.name, "err", err)
		return
	}
	if lease.Labels[RingLabel] != cfg.Ring || lease.Labels[MemberLabel] != cfg.Identity {
		m.warn(logger, "labels:"+lease.ResourceVersion, "sharding: Lease name is taken by a Lease that is not this ring's member Lease; not joining",
			"lease", m.name, "ring", cfg.Ring, "leaseLabels", lease.Labels)
		m.lapse()
		return
	}
	holder := ptrString(lease.Spec.HolderIdentity)
	update := lease.DeepCopy()
	if holder != m.holder {
		if holder != "" {
			if lease.ResourceVersion != m.otherRV {
				m.otherRV, m.otherSeen = lease.ResourceVersion, start
			}
			if start.Before(m.otherSeen.Add(leaseDuration(lease, cfg.LeaseDuration))) {
				if holder == FencedHolder {
					m.warn(logger, "fenced", "sharding: the coordinator fenced this replica's Lease after it stopped renewing; rejoining once that fence expires",
						"lease", m.name, "ring", cfg.Ring, "identity", cfg.Identity)
				} else {
					m.warn(logger, "conflict:"+holder, "sharding: another live replica holds this identity's Lease; two replicas share one identity, this one waits until that Lease expires",
						"lease", m.name, "ring", cfg.Ring, "identity", cfg.Identity, "holder", holder)
				}
				m.lapse()
				return
			}
		}
		update.Spec.AcquireTime = &now
		transitions := ptrInt32(lease.Spec.LeaseTransitions) + 1
		update.Spec.LeaseTransitions = &transitions
		update.Spec.HolderIdentity = &m.holder
	}
	update.Spec.RenewTime = &now
	update.Spec.LeaseDurationSeconds = &seconds
	if _, err := cfg.Leases.Update(ctx, update, metav1.UpdateOptions{}); err != nil {
		logger.V(2).Info("sharding: renewing the member Lease failed", "lease", m.name, "err", err)
		return
	}
	m.otherRV, m.warned = "", ""
	m.renewed(logger, start)
}

// release gives the Lease up so the coordinator moves this replica's objects at once; the caller
// makes sure no reconcile runs any more.
func (m *membership) release(ctx context.Context, logger klog.Logger) {
	m.lapse()
	cfg := &m.c.cfg
	lease, err := cfg.Leases.Get(ctx, m.name, metav1.GetOptions{})
	if err != nil || ptrString(lease.Spec.HolderIdentity) != m.holder {
		return
	}
	lease.Spec.HolderIdentity = nil
	if _, err := cfg.Leases.Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		logger.Info("sharding: releasing the member Lease failed; its objects move once it expires", "lease", m.name, "err", err)
		return
	}
	logger.Info("sharding: left ring", "ring", cfg.Ring, "identity", cfg.Identity)
}

func (m *membership) labels() map[string]string {
	return map[string]string{RingLabel: m.c.cfg.Ring, MemberLabel: m.c.cfg.Identity}
}

// warn logs msg once per distinct key.
func (m *membership) warn(logger klog.Logger, key, msg string, kv ...any) {
	if m.warned == key {
		return
	}
	m.warned = key
	logger.Error(nil, msg, kv...)
}

func leaseDuration(l *coordinationv1.Lease, fallback time.Duration) time.Duration {
	if l.Spec.LeaseDurationSeconds != nil && *l.Spec.LeaseDurationSeconds > 0 {
		return time.Duration(*l.Spec.LeaseDurationSeconds) * time.Second
	}
	return fallback
}

func ptrString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func ptrInt32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// memberState is what an observer knows of one member Lease.
type memberState struct {
	lease    *coordinationv1.Lease
	observed time.Time // when its resourceVersion last changed, on the observer's clock
}

// observer lists the ring's member Leases and judges on its own clock which members are live.
type observer struct {
	c           *Replica
	mu          sync.Mutex
	states      map[string]*memberState // by member identity
	ring        *Ring
	lastRefresh time.Time
	departed    map[string]bool // members whose Lease was released, fenced or deleted, not yet claimed from
}

// holdsMember reports whether a Lease is held by a replica (not released, not fenced).
func holdsMember(l *coordinationv1.Lease) bool {
	h := ptrString(l.Spec.HolderIdentity)
	return h != "" && h != FencedHolder
}

// refresh lists the Leases once; it reports whether the set of live members changed.
func (o *observer) refresh(ctx context.Context) (bool, error) {
	cfg := &o.c.cfg
	list, err := cfg.Leases.List(ctx, metav1.ListOptions{LabelSelector: RingLabel + "=" + cfg.Ring})
	if err != nil {
		return false, err
	}
	now := o.c.clock.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.lastRefresh.IsZero() && now.Sub(o.lastRefresh) > 2*cfg.RetryPeriod {
		// We could not observe for a while (most likely the API server was unreachable, so nobody
		// could renew): unchanged Leases prove nothing about that time, so observation starts over.
		clear(o.states)
	}
	o.lastRefresh = now
	seen := map[string]bool{}
	for i := range list.Items {
		l := &list.Items[i]
		id := l.Labels[MemberLabel]
		if id == "" {
			continue
		}
		seen[id] = true
		s := o.states[id]
		if s == nil || s.lease.ResourceVersion != l.ResourceVersion {
			if s != nil && holdsMember(s.lease) && !holdsMember(l) {
				o.departed[id] = true
				o.signalDeparted()
			}
			o.states[id] = &memberState{lease: l.DeepCopy(), observed: now}
		}
	}
	for id, s := range o.states {
		if !seen[id] {
			if holdsMember(s.lease) {
				o.departed[id] = true
				o.signalDeparted()
			}
			delete(o.states, id)
		}
	}
	var live []string
	for id, s := range o.states {
		if o.liveLocked(s, now) {
			live = append(live, id)
		}
	}
	ring := NewRing(live, cfg.VirtualNodes)
	changed := !ring.Equal(o.ring)
	if changed {
		o.ring = ring
		o.c.metrics.members.Set(float64(ring.Len()))
	}
	return changed, nil
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

// expired returns the Leases held by members that stopped renewing.
func (o *observer) expired() []*coordinationv1.Lease {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.c.clock.Now()
	var out []*coordinationv1.Lease
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
	o.states[l.Labels[MemberLabel]] = &memberState{lease: updated, observed: o.c.clock.Now()}
	o.departed[l.Labels[MemberLabel]] = true
	o.mu.Unlock()
	return true
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
