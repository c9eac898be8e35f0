package leaderelection

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kgen-dev/kgen/internal/pause"
	rl "github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
)

// JitterFactor spreads the retries of candidates waiting for the lock: each waits RetryPeriod plus
// a random part of up to JitterFactor times RetryPeriod.
const JitterFactor = 1.2

// LeaderElectionConfig configures a LeaderElector.
type LeaderElectionConfig struct {
	// Lock is the lock candidates compete for.
	Lock rl.Interface
	// LeaseDuration is how long candidates wait, after they last saw the lock change, before taking
	// it over: the longest a dead leader keeps the others waiting. Whole seconds, at least one.
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps retrying a failed renewal before it steps down;
	// shorter than LeaseDuration, so it steps down before anyone may take over.
	RenewDeadline time.Duration
	// RetryPeriod is the wait between attempts to acquire or renew.
	RetryPeriod time.Duration
	// Callbacks are called as leadership changes.
	Callbacks LeaderCallbacks
	// WatchDog, if set, is pointed at the elector by RunOrDie.
	WatchDog *HealthzAdaptor
	// ReleaseOnCancel makes the leader release the lock when it stops leading, so another candidate
	// takes over at once instead of after LeaseDuration. Only safe when the work started by
	// OnStartedLeading stops with its context.
	ReleaseOnCancel bool
	// Name names the election in metrics and errors.
	Name string
	// Clock is the source of time; nil means the real clock.
	Clock clock.Clock
}

// LeaderCallbacks are called as leadership changes.
type LeaderCallbacks struct {
	// OnStartedLeading is called in a goroutine of its own when this candidate starts leading; its
	// context is cancelled when it stops, before the lock is released.
	OnStartedLeading func(context.Context)
	// OnStoppedLeading is called when Run returns, whether or not this candidate led.
	OnStoppedLeading func()
	// OnNewLeader, if set, is called with the identity of each new leader observed (this candidate's
	// too), in order and never concurrently with itself, from a goroutine other than Run's.
	OnNewLeader func(identity string)
}

// LeaderElector runs one candidate of a leader election.
type LeaderElector struct {
	config LeaderElectionConfig
	clock  clock.Clock
	metric LeaderMetric

	mu           sync.RWMutex
	observed     rl.LeaderElectionRecord // the record last read or written
	observedRaw  []byte                  // the serialized record last read, to notice changes
	observedTime time.Time               // when observed last changed, on this candidate's clock

	reportedLeader string // the leader last passed to OnNewLeader; Run's goroutine only
	newLeaders     leaderNotifier
}

// NewLeaderElector validates lec and returns an elector for it.
func NewLeaderElector(lec LeaderElectionConfig) (*LeaderElector, error) {
	if err := validate(lec); err != nil {
		return nil, fmt.Errorf("leaderelection: %w", err)
	}
	le := &LeaderElector{config: lec, clock: lec.Clock, metric: newLeaderMetric()}
	if le.clock == nil {
		le.clock = clock.RealClock{}
	}
	le.newLeaders.call = lec.Callbacks.OnNewLeader
	le.metric.Off(lec.Name)
	return le, nil
}

func validate(lec LeaderElectionConfig) error {
	switch {
	case lec.LeaseDuration < time.Second:
		return fmt.Errorf("LeaseDuration %v is under one second; the lock records it in whole seconds", lec.LeaseDuration)
	case lec.RenewDeadline <= 0:
		return fmt.Errorf("RenewDeadline %v must be positive", lec.RenewDeadline)
	case lec.RetryPeriod <= 0:
		return fmt.Errorf("RetryPeriod %v must be positive", lec.RetryPeriod)
	case lec.LeaseDuration <= lec.RenewDeadline:
		return fmt.Errorf("LeaseDuration %v must be greater than RenewDeadline %v", lec.LeaseDuration, lec.RenewDeadline)
	case lec.RenewDeadline <= time.Duration(JitterFactor*float64(lec.RetryPeriod)):
		return fmt.Errorf("RenewDeadline %v must be greater than RetryPeriod %v times JitterFactor %v",
			lec.RenewDeadline, lec.RetryPeriod, JitterFactor)
	case lec.Callbacks.OnStartedLeading == nil:
		return errors.New("Callbacks.OnStartedLeading must be set")
	case lec.Callbacks.OnStoppedLeading == nil:
		return errors.New("Callbacks.OnStoppedLeading must be set")
	case lec.Lock == nil:
		return errors.New("the Lock must be set")
	case lec.Lock.Identity() == "":
		return errors.New("the lock's identity is empty")
	}
	return nil
}

// RunOrDie runs an elector for lec until ctx ends or leadership is lost; it panics if lec is invalid.
func RunOrDie(ctx context.Context, lec LeaderElectionConfig) {
	le, err := NewLeaderElector(lec)
	if err != nil {
		panic(err)
	}
	if lec.WatchDog != nil {
		lec.WatchDog.SetLeaderElection(le)
	}
	le.Run(ctx)
}

// Run competes for the lock until it is acquired, then leads (OnStartedLeading) and renews the lock
// until ctx ends or renewal fails for RenewDeadline. It returns when this candidate stops leading,
// or when ctx ends before it led, after calling OnStoppedLeading.
func (le *LeaderElector) Run(ctx context.Context) {
	defer le.config.Callbacks.OnStoppedLeading()
	if !le.acquire(ctx) {
		return
	}
	leading, stopLeading := context.WithCancel(ctx)
	go le.config.Callbacks.OnStartedLeading(leading)
	le.renew(leading)
	stopLeading()
	le.metric.Off(le.config.Name)
	le.config.Lock.RecordEvent("stopped leading")
	if le.config.ReleaseOnCancel {
		le.release(klog.FromContext(ctx))
	}
}

// IsLeader reports whether this candidate held the lock when it last read or wrote it.
func (le *LeaderElector) IsLeader() bool {
	return le.observedRecord().HolderIdentity == le.config.Lock.Identity()
}

// GetLeader returns the identity of the leader as last observed; empty if none.
func (le *LeaderElector) GetLeader() string {
	return le.observedRecord().HolderIdentity
}

// Check reports an error when this candidate leads but has not renewed the lock for LeaseDuration
// plus maxTolerableExpiredLease: a health check for a leader stuck without noticing.
func (le *LeaderElector) Check(maxTolerableExpiredLease time.Duration) error {
	if !le.IsLeader() {
		return nil
	}
	le.mu.RLock()
	since := le.clock.Since(le.observedTime)
	le.mu.RUnlock()
	if since > le.config.LeaseDuration+maxTolerableExpiredLease {
		return fmt.Errorf("leaderelection %q: leading on a lease last renewed %v ago", le.config.Name, since.Round(time.Millisecond))
	}
	return nil
}

// acquire tries to acquire the lock every RetryPeriod (jittered) until it succeeds or ctx ends.
func (le *LeaderElector) acquire(ctx context.Context) bool {
	logger := klog.FromContext(ctx)
	desc := le.config.Lock.Describe()
	logger.Info("Attempting to acquire leader lease", "lock", desc)
	for ctx.Err() == nil {
		ok := le.tryAcquireOrRenew(ctx)
		le.reportLeader()
		if ok {
			le.config.Lock.RecordEvent("became leader")
			le.metric.On(le.config.Name)
			logger.Info("Acquired leader lease", "lock", desc)
			return true
		}
		logger.V(4).Info("Lease not acquired", "lock", desc)
		if !pause.For(ctx, le.clock, wait.Jitter(le.config.RetryPeriod, JitterFactor)) {
			break
		}
	}
	return false
}

// renew renews the lock every RetryPeriod until ctx ends or a renewal fails. The first renewal
// waits a RetryPeriod too: the lock was just written.
func (le *LeaderElector) renew(ctx context.Context) {
	for pause.For(ctx, le.clock, le.config.RetryPeriod) && le.renewBefore(ctx, le.clock.Now().Add(le.config.RenewDeadline)) {
	}
}

// renewBefore tries to renew the lock every RetryPeriod until it succeeds, ctx ends, or no further
// attempt fits before deadline; it reports success.
func (le *LeaderElector) renewBefore(ctx context.Context, deadline time.Time) bool {
	ctx, cancel := context.WithTimeout(ctx, le.config.RenewDeadline) // bounds requests that hang
	defer cancel()
	logger := klog.FromContext(ctx)
	for {
		ok := le.tryAcquireOrRenew(ctx)
		le.reportLeader()
		if ok {
			logger.V(5).Info("Renewed lease", "lock", le.config.Lock.Describe())
			return true
		}
		if ctx.Err() != nil || !le.clock.Now().Add(le.config.RetryPeriod).Before(deadline) {
			logger.Info("Failed to renew lease; stepping down", "lock", le.config.Lock.Describe(), "renewDeadline", le.config.RenewDeadline)
			return false
		}
		if !pause.For(ctx, le.clock, le.config.RetryPeriod) {
			return false
		}
	}
}

// tryAcquireOrRenew writes this candidate's record to the lock if it holds the lock, or the lock is
// free, or its holder's lease expired; it reports whether it did.
func (le *LeaderElector) tryAcquireOrRenew(ctx context.Context) bool {
	logger := klog.FromContext(ctx)
	lock := le.config.Lock
	now := le.clock.Now()
	desired := rl.LeaderElectionRecord{
		HolderIdentity:       lock.Identity(),
		LeaseDurationSeconds: int(le.config.LeaseDuration / time.Second),
		AcquireTime:          metav1.NewTime(now),
		RenewTime:            metav1.NewTime(now),
	}

	// Fast path: a leader within its lease writes without reading first. If someone else wrote
	// meanwhile the write conflicts and the slow path below reads the lock.
	if le.IsLeader() && le.leaseValid(now) {
		held := le.observedRecord()
		desired.AcquireTime, desired.LeaderTransitions = held.AcquireTime, held.LeaderTransitions
		err := lock.Update(ctx, desired)
		if err == nil {
			le.setObserved(desired)
			return true
		}
		logger.V(2).Info("Renewing without reading the lease failed; reading it", "lock", lock.Describe(), "err", err)
	}

	current, raw, err := lock.Get(ctx)
	switch {
	case apierrors.IsNotFound(err):
		if err := lock.Create(ctx, desired); err != nil {
			logger.Error(err, "Failed to create the lease lock", "lock", lock.Describe())
			return false
		}
		le.setObserved(desired)
		return true
	case err != nil:
		logger.Error(err, "Failed to read the lease lock", "lock", lock.Describe())
		return false
	}
	le.observeRead(*current, raw)
	if current.HolderIdentity != "" && current.HolderIdentity != lock.Identity() && le.leaseValid(now) {
		logger.V(4).Info("Lease is held by another candidate and has not expired", "lock", lock.Describe(), "holder", current.HolderIdentity)
		return false
	}
	if current.HolderIdentity == lock.Identity() {
		desired.AcquireTime, desired.LeaderTransitions = current.AcquireTime, current.LeaderTransitions
		le.metric.SlowpathExercised(le.config.Name)
	} else {
		desired.LeaderTransitions = current.LeaderTransitions + 1
	}
	if err := lock.Update(ctx, desired); err != nil {
		logger.Error(err, "Failed to update the lease lock", "lock", lock.Describe())
		return false
	}
	le.setObserved(desired)
	return true
}

// release gives up the lock if this candidate still holds it: the record keeps the transition count
// and expires in a second, so the next candidate need not wait out the lease.
func (le *LeaderElector) release(logger klog.Logger) bool {
	ctx, cancel := context.WithTimeout(klog.NewContext(context.Background(), logger), le.config.RenewDeadline)
	defer cancel()
	lock := le.config.Lock
	for {
		current, _, err := lock.Get(ctx)
		if err != nil {
			logger.Error(err, "Failed to read the lease lock to release it", "lock", lock.Describe())
			return false
		}
		if current.HolderIdentity != lock.Identity() {
			return true // someone else holds it: nothing of ours to release
		}
		now := metav1.NewTime(le.clock.Now())
		released := rl.LeaderElectionRecord{
			LeaseDurationSeconds: 1,
			AcquireTime:          now,
			RenewTime:            now,
			LeaderTransitions:    current.LeaderTransitions,
		}
		err = lock.Update(ctx, released)
		if apierrors.IsConflict(err) {
			continue
		}
		if err != nil {
			logger.Error(err, "Failed to release the lease lock", "lock", lock.Describe())
			return false
		}
		le.setObserved(released)
		return true
	}
}

// leaseValid reports whether the observed holder's lease runs past now.
func (le *LeaderElector) leaseValid(now time.Time) bool {
	le.mu.RLock()
	defer le.mu.RUnlock()
	return le.observedTime.Add(time.Duration(le.observed.LeaseDurationSeconds) * time.Second).After(now)
}

// setObserved records a record this candidate wrote.
func (le *LeaderElector) setObserved(record rl.LeaderElectionRecord) {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.observed = record
	le.observedTime = le.clock.Now()
}

// observeRead records a record read from the lock if it differs from the one last read, so a
// holder's lease is timed from when its record last changed.
func (le *LeaderElector) observeRead(record rl.LeaderElectionRecord, raw []byte) {
	le.mu.Lock()
	defer le.mu.Unlock()
	if bytes.Equal(raw, le.observedRaw) {
		return
	}
	le.observed, le.observedRaw = record, raw
	le.observedTime = le.clock.Now()
}

func (le *LeaderElector) observedRecord() rl.LeaderElectionRecord {
	le.mu.RLock()
	defer le.mu.RUnlock()
	return le.observed
}

// reportLeader passes the observed leader to OnNewLeader when it changed.
func (le *LeaderElector) reportLeader() {
	leader := le.GetLeader()
	if leader == le.reportedLeader {
		return
	}
	le.reportedLeader = leader
	le.newLeaders.notify(leader)
}

// leaderNotifier calls call with each identity notified, in order, from one goroutine at a time that
// lives only while notifications are pending.
type leaderNotifier struct {
	call func(identity string)

	mu      sync.Mutex
	pending []string
	running bool
}

func (n *leaderNotifier) notify(identity string) {
	if n.call == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pending = append(n.pending, identity)
	if !n.running {
		n.running = true
		go n.deliver()
	}
}

func (n *leaderNotifier) deliver() {
	for {
		n.mu.Lock()
		if len(n.pending) == 0 {
			n.running = false
			n.mu.Unlock()
			return
		}
		identity := n.pending[0]
		n.pending = n.pending[1:]
		n.mu.Unlock()
		n.call(identity)
	}
}
