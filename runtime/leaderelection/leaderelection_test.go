package leaderelection_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"

	le "github.com/kgen-dev/kgen/runtime/leaderelection"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

func TestNewLeaderElectorValidatesTheConfig(t *testing.T) {
	w := newWorld(t)
	for _, tc := range []struct {
		change func(*le.LeaderElectionConfig)
		want   string
	}{
		{func(c *le.LeaderElectionConfig) { c.LeaseDuration = 500 * time.Millisecond }, "under one second"},
		{func(c *le.LeaderElectionConfig) { c.RenewDeadline = 0 }, "RenewDeadline 0s must be positive"},
		{func(c *le.LeaderElectionConfig) { c.RetryPeriod = -time.Second }, "RetryPeriod -1s must be positive"},
		{func(c *le.LeaderElectionConfig) { c.RenewDeadline = leaseDuration }, "LeaseDuration 15s must be greater than RenewDeadline 15s"},
		{func(c *le.LeaderElectionConfig) { c.RetryPeriod = 9 * time.Second }, "greater than RetryPeriod 9s times JitterFactor 1.2"},
		{func(c *le.LeaderElectionConfig) { c.Callbacks.OnStartedLeading = nil }, "OnStartedLeading must be set"},
		{func(c *le.LeaderElectionConfig) { c.Callbacks.OnStoppedLeading = nil }, "OnStoppedLeading must be set"},
		{func(c *le.LeaderElectionConfig) { c.Lock = nil }, "Lock must be set"},
		{func(c *le.LeaderElectionConfig) { c.Lock = w.lock("") }, "identity is empty"},
	} {
		config := w.config(&candidate{}, "a")
		tc.change(&config)
		if _, err := le.NewLeaderElector(config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error containing %q", err, tc.want)
		}
	}
	config := w.config(&candidate{}, "a")
	config.Lock = nil
	defer func() {
		if recover() == nil {
			t.Error("RunOrDie did not panic on an invalid config")
		}
	}()
	le.RunOrDie(context.Background(), config)
}

func TestAcquiresAFreeLockAndRenewsItWithoutReading(t *testing.T) {
	w := newWorld(t)
	start := w.clock.Now()
	a := w.run("a")
	a.leading(t)
	if !a.IsLeader() || a.GetLeader() != "a" {
		t.Fatalf("IsLeader %v, GetLeader %q", a.IsLeader(), a.GetLeader())
	}
	got := w.lease()
	if got.HolderIdentity != "a" || got.LeaseDurationSeconds != 15 || got.LeaderTransitions != 0 ||
		!got.AcquireTime.Time.Equal(start) || !got.RenewTime.Time.Equal(start) {
		t.Fatalf("lease %+v", got)
	}
	if leaders := a.newLeaders(t, 1); !slices.Equal(leaders, []string{"a"}) {
		t.Fatalf("OnNewLeader saw %v", leaders)
	}

	w.quiet(a.returned)
	w.fake.ClearActions()
	w.clock.Step(retryPeriod)
	eventually(t, "the lease is renewed", func() bool { return w.lease().RenewTime.Time.Equal(start.Add(retryPeriod)) })
	w.quiet(a.returned)
	var verbs []string
	for _, action := range w.fake.Actions() {
		verbs = append(verbs, action.GetVerb())
	}
	if !slices.Equal(verbs, []string{"update"}) {
		t.Fatalf("a renewal made %v, want one update and no read", verbs)
	}
	if got := w.lease(); !got.AcquireTime.Time.Equal(start) || got.LeaderTransitions != 0 {
		t.Fatalf("renewal changed the acquire time or transitions: %+v", got)
	}
}

func TestWaitsOutTheHoldersLease(t *testing.T) {
	w := newWorld(t)
	t0 := w.clock.Now()
	w.hold("other", 4)
	b := w.run("b")
	for {
		w.quiet(b.returned)
		led := w.lease().HolderIdentity == "b"
		now := w.clock.Since(t0)
		if led && now < leaseDuration {
			t.Fatalf("took the lock over %v after the holder's last renewal, before its %v lease ran out", now, leaseDuration)
		}
		if led {
			break
		}
		if now > leaseDuration+2*maxRetryGap+time.Second {
			t.Fatalf("still not leading %v after the holder's last renewal", now)
		}
		w.clock.Step(time.Second)
	}
	got := w.lease()
	if got.HolderIdentity != "b" || got.LeaderTransitions != 5 || !got.AcquireTime.Time.Equal(w.clock.Now()) {
		t.Fatalf("lease %+v", got)
	}
	if leaders := b.newLeaders(t, 2); !slices.Equal(leaders, []string{"other", "b"}) {
		t.Fatalf("OnNewLeader saw %v", leaders)
	}
}

func TestARenewingHolderKeepsOthersOut(t *testing.T) {
	w := newWorld(t)
	t0 := w.clock.Now()
	w.hold("other", 0)
	b := w.run("b")
	for w.clock.Since(t0) < 10*time.Second {
		w.advance(time.Second, b.returned)
	}
	w.hold("other", 0) // renewed at t0+10s: b times the lease from when it sees the change
	for w.clock.Since(t0) < 10*time.Second+leaseDuration {
		w.quiet(b.returned)
		if w.lease().HolderIdentity == "b" {
			t.Fatalf("took over at t0+%v from a holder that renewed at t0+10s", w.clock.Since(t0))
		}
		w.clock.Step(time.Second)
	}
	for {
		w.quiet(b.returned)
		if w.lease().HolderIdentity == "b" {
			return
		}
		if w.clock.Since(t0) > 10*time.Second+leaseDuration+2*maxRetryGap+time.Second {
			t.Fatal("never took over after the holder stopped renewing")
		}
		w.clock.Step(time.Second)
	}
}

func TestReleaseOnCancelStopsTheWorkFirstAndHandsOverAtOnce(t *testing.T) {
	w := newWorld(t)
	a := w.run("a", func(c *le.LeaderElectionConfig) { c.ReleaseOnCancel = true })
	work := a.leading(t)
	w.quiet(a.returned)
	var workStoppedBeforeRelease atomic.Bool
	w.fake.PrependReactor("update", "leases", func(action ktesting.Action) (bool, runtime.Object, error) {
		if lease := action.(ktesting.UpdateAction).GetObject().(*coordinationv1.Lease); *lease.Spec.HolderIdentity == "" {
			workStoppedBeforeRelease.Store(work.Err() != nil)
		}
		return false, nil, nil
	})
	a.cancel()
	a.done(t)
	if !workStoppedBeforeRelease.Load() {
		t.Fatal("the lease was released while the leader's work could still run")
	}
	if got := w.lease(); got.HolderIdentity != "" || got.LeaseDurationSeconds != 1 || got.LeaderTransitions != 0 {
		t.Fatalf("released lease %+v", got)
	}
	if a.IsLeader() {
		t.Fatal("IsLeader after releasing")
	}

	b := w.run("b") // no clock step: the released lock is free now
	b.leading(t)
	if got := w.lease(); got.HolderIdentity != "b" || got.LeaderTransitions != 1 {
		t.Fatalf("lease %+v", got)
	}
}

func TestStepsDownWhenItCannotRenewBeforeTheDeadline(t *testing.T) {
	w := newWorld(t)
	a := w.run("a")
	work := a.leading(t)
	w.quiet(a.returned)
	w.fake.PrependReactor("*", "leases", func(ktesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewInternalError(errors.New("etcd is down"))
	})
	lastRenewal := w.clock.Now()
	for w.advance(retryPeriod, a.returned) {
		if w.clock.Since(lastRenewal) > retryPeriod+renewDeadline {
			t.Fatalf("still leading %v after the last renewal", w.clock.Since(lastRenewal))
		}
	}
	a.done(t)
	if work.Err() == nil {
		t.Fatal("the leader's context was not cancelled")
	}
	if since := w.clock.Since(lastRenewal); since < renewDeadline-retryPeriod {
		t.Fatalf("stepped down %v after the last renewal, before trying for the renew deadline", since)
	}
}

func TestStepsDownWhenAnotherCandidateTookOver(t *testing.T) {
	w := newWorld(t)
	a := w.run("a", func(c *le.LeaderElectionConfig) { c.ReleaseOnCancel = true })
	a.leading(t)
	w.quiet(a.returned)
	w.hold("b", 1) // b took the lock, e.g. while a was paused
	for w.advance(retryPeriod, a.returned) {
	}
	a.done(t)
	if got := w.lease(); got.HolderIdentity != "b" {
		t.Fatalf("stepping down overwrote the new holder's lease: %+v", got)
	}
	if leaders := a.newLeaders(t, 2); !slices.Equal(leaders, []string{"a", "b"}) {
		t.Fatalf("OnNewLeader saw %v", leaders)
	}
	if a.IsLeader() || a.GetLeader() != "b" {
		t.Fatalf("IsLeader %v, GetLeader %q", a.IsLeader(), a.GetLeader())
	}
}

func TestOnNewLeaderIsCalledInOrderOneAtATime(t *testing.T) {
	w := newWorld(t)
	w.hold("x", 0)
	var running, overlapped atomic.Int32
	var mu sync.Mutex
	var seen []string
	b := w.run("b", func(c *le.LeaderElectionConfig) {
		c.Callbacks.OnNewLeader = func(identity string) {
			if running.Add(1) > 1 {
				overlapped.Add(1)
			}
			time.Sleep(20 * time.Millisecond) // slow: later leaders are observed meanwhile
			mu.Lock()
			seen = append(seen, identity)
			mu.Unlock()
			running.Add(-1)
		}
	})
	w.quiet(b.returned)
	w.hold("y", 1)
	for w.advance(retryPeriod, b.returned) && w.lease().HolderIdentity != "b" {
	}
	eventually(t, "three leaders are reported", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) == 3
	})
	if !slices.Equal(seen, []string{"x", "y", "b"}) || overlapped.Load() != 0 {
		t.Fatalf("OnNewLeader saw %v, %d overlapping calls", seen, overlapped.Load())
	}
}

func TestCheckFailsForALeaderThatStoppedRenewing(t *testing.T) {
	w := newWorld(t)
	h := le.NewLeaderHealthzAdaptor(5 * time.Second)
	if h.Name() != "leaderElection" || h.Check(nil) != nil {
		t.Fatalf("an adaptor without an elector: name %q, check %v", h.Name(), h.Check(nil))
	}
	a := w.run("a")
	h.SetLeaderElection(a.LeaderElector)
	a.leading(t)
	if err := h.Check(nil); err != nil {
		t.Fatal(err)
	}
	a.cancel()
	a.done(t) // without releasing, a still believes it leads but renews no more
	w.clock.Step(leaseDuration + 5*time.Second)
	if err := h.Check(nil); err != nil {
		t.Fatalf("failed within the tolerance: %v", err)
	}
	w.clock.Step(time.Millisecond)
	if err := h.Check(nil); err == nil || !strings.Contains(err.Error(), `leaderelection "test": leading on a lease last renewed 20.001s ago`) {
		t.Fatalf("Check: %v", err)
	}

	b, err := le.NewLeaderElector(w.config(&candidate{}, "b"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Check(0); err != nil {
		t.Fatalf("a candidate that does not lead is healthy: %v", err)
	}
}

func TestRunOrDieReturnsWhenCancelledBeforeLeading(t *testing.T) {
	w := newWorld(t)
	w.hold("other", 0)
	c := &candidate{stopped: make(chan struct{})}
	config := w.config(c, "b")
	config.WatchDog = le.NewLeaderHealthzAdaptor(0)
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		le.RunOrDie(ctx, config)
	}()
	w.quiet(returned)
	cancel()
	<-returned
	select {
	case <-c.stopped:
	default:
		t.Fatal("OnStoppedLeading was not called")
	}
}

// metricLog records the calls of every leader metric it provides.
type metricLog struct {
	mu    sync.Mutex
	calls []string
}

func (m *metricLog) NewLeaderMetric() le.LeaderMetric { return m }
func (m *metricLog) On(name string)                   { m.add("on " + name) }
func (m *metricLog) Off(name string)                  { m.add("off " + name) }
func (m *metricLog) SlowpathExercised(name string)    { m.add("slowpath " + name) }
func (m *metricLog) add(call string) {
	m.mu.Lock()
	m.calls = append(m.calls, call)
	m.mu.Unlock()
}
func (m *metricLog) get() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.calls)
}

// recorded is the provider of every leader metric in this test binary: SetProvider only takes the
// first provider it is given.
var recorded = &metricLog{}

func TestMetricsFollowLeadership(t *testing.T) {
	ignored := &metricLog{}
	le.SetProvider(recorded)
	le.SetProvider(ignored)
	before := len(recorded.get())
	w := newWorld(t)
	a := w.run("a")
	a.leading(t)
	w.quiet(a.returned)
	w.hold("a", 1) // someone else wrote the lease: the next renewal must read it first
	w.clock.Step(retryPeriod)
	w.quiet(a.returned)
	a.cancel()
	a.done(t)
	want := []string{"off test", "on test", "slowpath test", "off test"}
	if got := recorded.get()[before:]; !slices.Equal(got, want) || len(ignored.get()) != 0 {
		t.Fatalf("metric calls %v (ignored provider %v), want %v", got, ignored.get(), want)
	}
}
