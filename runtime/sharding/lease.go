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

	coordinationv1client "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1"
)

// LeaseClient reads and writes the Leases of one namespace: a clientset's
// CoordinationV1().Leases(namespace).
type LeaseClient = coordinationv1client.LeaseInterface

// namespaceLeases hands resourcelock a replica's LeaseClient as the LeasesGetter it takes; the lock
// asks only for the replica's namespace, the one the client is bound to.
type namespaceLeases struct{ LeaseClient }

// Leases returns the replica's Lease client.
func (n namespaceLeases) Leases(string) coordinationv1client.LeaseInterface { return n.LeaseClient }

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
	// tenure counts the writes that acquired the Lease (created it, or took it over from another
	// holder, a fence included). While it stays the same, the Lease was held by this replica all
	// along, so nobody else took over its objects, even across a lapse of its membership.
	tenure  uint64
	cancels map[*func()]struct{}
	joined  chan struct{} // closed (and replaced) whenever membership starts
	// otherRV and otherSeen observe a Lease held by someone else, on our clock.
	otherRV   string
	otherSeen time.Time
	warned    string
	waited    string    // what the replica waited for before it could (re)join, if anything
	waitStart time.Time // when it began waiting
	// last is the Lease as this replica's last successful write left it, renewed with one request;
	// only the goroutine writing the Lease uses it.
	last *coordinationv1.Lease
}

func newMembership(c *Replica, instance string) *membership {
	return &membership{c: c, name: memberLeaseName(c.cfg.Ring, c.cfg.Identity), holder: c.cfg.Identity + "_" + instance,
		cancels: map[*func()]struct{}{}, joined: make(chan struct{})}
}

// waitMember returns once the replica is a member, or with ctx's error once ctx ends.
func (m *membership) waitMember(ctx context.Context) error {
	for {
		m.mu.Lock()
		ok, joined := m.validLocked(), m.joined
		m.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-joined:
		}
	}
}

// currentTenure returns the tenure the replica holds its Lease in.
func (m *membership) currentTenure() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tenure
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

// renewed records a successful write of the Lease begun at start, carrying claim (ServerMode's;
// empty in LabelMode); acquired tells whether the write acquired the Lease.
func (m *membership) renewed(logger klog.Logger, start time.Time, claim string, acquired bool) {
	m.c.mode.leaseWritten(claim)
	m.mu.Lock()
	if acquired {
		m.tenure++
	}
	validUntil := start.Add(m.c.cfg.RenewDeadline)
	if !m.c.clock.Now().Before(validUntil) {
		// Landed too late to make the replica a member; the other members saw it live all the same.
		m.mu.Unlock()
		return
	}
	rejoined := !m.validLocked()
	if rejoined {
		m.epoch++
		m.cancelAllLocked()
		close(m.joined)
		m.joined = make(chan struct{})
	}
	m.validUntil = validUntil
	epoch := m.epoch
	m.mu.Unlock()
	if rejoined {
		kv := []any{"ring", m.c.cfg.Ring, "identity", m.c.cfg.Identity, "lease", m.name, "epoch", epoch}
		if m.waited != "" {
			kv = append(kv, "waitedFor", m.waited, "waited", start.Sub(m.waitStart).Round(time.Millisecond))
		}
		logger.Info("sharding: joined ring", kv...)
		m.c.notify()
	}
	m.waited = ""
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

// tryAcquireOrRenew writes the Lease once, creating or taking it over when allowed. An attempt may
// take up to LeaseDuration: a renewal that lands after the renew deadline no longer makes the
// replica a member (membership runs from when the write began), but it still shows the other
// members that the replica lives, so they do not fence it, and its next renewal resumes its tenure
// instead of taking the Lease back after the fence.
func (m *membership) tryAcquireOrRenew(ctx context.Context, logger klog.Logger) {
	cfg := &m.c.cfg
	start := m.c.clock.Now()
	ctx, cancel := context.WithTimeout(ctx, cfg.LeaseDuration)
	defer cancel()
	now := metav1.NewMicroTime(start)
	seconds := int32(cfg.LeaseDuration / time.Second)
	if m.last != nil && m.renewLast(ctx, logger, start) {
		return
	}
	lease, err := cfg.Leases.Get(ctx, m.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		claim := m.c.mode.leaseClaim(true)
		lease = &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: m.name, Labels: m.labels(), Annotations: m.c.mode.leaseAnnotations(nil, claim)},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: &m.holder, LeaseDurationSeconds: &seconds,
				AcquireTime: &now, RenewTime: &now},
		}
		created, err := cfg.Leases.Create(ctx, lease, metav1.CreateOptions{})
		if err != nil {
			logger.V(2).Info("sharding: creating the member Lease failed", "lease", m.name, "err", err)
			return
		}
		m.last = created
		m.renewed(logger, start, claim, true)
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
	acquire := holder != m.holder
	if acquire {
		if holder != "" {
			if lease.ResourceVersion != m.otherRV {
				m.otherRV, m.otherSeen = lease.ResourceVersion, start
			}
			if expires := m.otherSeen.Add(leaseDuration(lease, cfg.LeaseDuration)); start.Before(expires) {
				// Say what the replica waits for and how long at least: nothing else shows why a
				// replacement of a killed pod that kept its name does not start reconciling.
				wait := expires.Sub(start).Round(time.Millisecond)
				if holder == FencedHolder {
					m.waitFor(start, "the fence on this identity's Lease to expire")
					m.warn(logger, "fenced:"+lease.ResourceVersion, "sharding: another replica fenced this identity's Lease after it stopped renewing; rejoining once that fence expires",
						"lease", m.name, "ring", cfg.Ring, "identity", cfg.Identity, "expiresIn", wait)
				} else {
					m.waitFor(start, "the Lease of the previous holder "+holder+" to expire")
					m.warn(logger, "conflict:"+holder, "sharding: this identity's Lease is held by another instance (a predecessor that did not release it, or a second replica with this identity); waiting until it expires unrenewed, then fenced",
						"lease", m.name, "ring", cfg.Ring, "identity", cfg.Identity, "holder", holder, "expiresIn", wait,
						"atLeast", "the Lease's duration after its last renewal, then as long again for the fence other members put on it")
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
	claim := m.c.mode.leaseClaim(acquire)
	update.Spec.RenewTime = &now
	update.Spec.LeaseDurationSeconds = &seconds
	update.Annotations = m.c.mode.leaseAnnotations(update.Annotations, claim)
	written, err := cfg.Leases.Update(ctx, update, metav1.UpdateOptions{})
	if err != nil {
		logger.V(2).Info("sharding: renewing the member Lease failed", "lease", m.name, "err", err)
		return
	}
	m.last = written
	m.otherRV, m.warned = "", ""
	m.renewed(logger, start, claim, acquire)
}

// renewLast renews by updating the Lease as this replica's last write left it: one request instead
// of a read and a write, so that a loaded API server costs a renewal half the time. It reports
// whether that settled the attempt; when the Lease changed since (another replica fenced it, or it
// is gone), it forgets last and the caller reads the Lease. A renewal that succeeds acquires
// nothing: the Lease stayed this replica's since its last write.
func (m *membership) renewLast(ctx context.Context, logger klog.Logger, start time.Time) bool {
	claim := m.c.mode.leaseClaim(false)
	now := metav1.NewMicroTime(start)
	seconds := int32(m.c.cfg.LeaseDuration / time.Second)
	update := m.last.DeepCopy()
	update.Spec.RenewTime = &now
	update.Spec.LeaseDurationSeconds = &seconds
	update.Annotations = m.c.mode.leaseAnnotations(update.Annotations, claim)
	written, err := m.c.cfg.Leases.Update(ctx, update, metav1.UpdateOptions{})
	switch {
	case err == nil:
		m.last = written
		m.otherRV, m.warned = "", ""
		m.renewed(logger, start, claim, false)
		return true
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		m.last = nil
		return false
	default:
		logger.V(2).Info("sharding: renewing the member Lease failed", "lease", m.name, "err", err)
		return true
	}
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
	m.last = nil
	if _, err := cfg.Leases.Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		logger.Info("sharding: releasing the member Lease failed; its objects move once it expires", "lease", m.name, "err", err)
		return
	}
	logger.Info("sharding: left ring", "ring", cfg.Ring, "identity", cfg.Identity)
}

func (m *membership) labels() map[string]string {
	return map[string]string{RingLabel: m.c.cfg.Ring, MemberLabel: m.c.cfg.Identity}
}

// waitFor records that the replica waits for what, from now on if it was not waiting yet.
func (m *membership) waitFor(now time.Time, what string) {
	if m.waited == "" {
		m.waitStart = now
	}
	m.waited = what
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
