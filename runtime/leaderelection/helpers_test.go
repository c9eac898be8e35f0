package leaderelection_test

import (
	"context"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	coordinationv1fake "github.com/kgen-dev/kgen/builtin/kubernetes/typed/coordination/v1/fake"
	le "github.com/kgen-dev/kgen/runtime/leaderelection"
	rl "github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

const (
	leaseDuration = 15 * time.Second
	renewDeadline = 10 * time.Second
	retryPeriod   = 2 * time.Second
	// maxRetryGap is the longest a waiting candidate sleeps between attempts: RetryPeriod plus its
	// jitter. A candidate sees a change to the lock up to one gap late, and acts on an expired lease up
	// to one gap late; bounds in the tests allow for both and for the clock's 1s steps.
	maxRetryGap = retryPeriod + time.Duration(le.JitterFactor*float64(retryPeriod))
)

var (
	leasesGVR = coordinationv1.SchemeGroupVersion.WithResource("leases")
	scheme    = func() *runtime.Scheme {
		s := runtime.NewScheme()
		if err := coordinationv1.AddToScheme(s); err != nil {
			panic(err)
		}
		return s
	}()
)

// world is a fake API server holding one Lease lock and a fake clock all candidates share.
type world struct {
	t       *testing.T
	clock   *clocktesting.FakeClock
	fake    *ktesting.Fake
	tracker ktesting.ObjectTracker
}

func newWorld(t *testing.T) *world {
	tracker := ktesting.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder())
	fake := &ktesting.Fake{}
	fake.AddReactor("*", "*", ktesting.ObjectReaction(tracker))
	return &world{t: t, clock: clocktesting.NewFakeClock(time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)), fake: fake, tracker: tracker}
}

// lock returns candidate identity's lock on ns/lock.
func (w *world) lock(identity string) *rl.LeaseLock {
	return &rl.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: "ns", Name: "lock"},
		Client:     &coordinationv1fake.FakeCoordinationV1{Fake: w.fake},
		LockConfig: rl.ResourceLockConfig{Identity: identity},
	}
}

// lease returns the stored lock's record.
func (w *world) lease() rl.LeaderElectionRecord {
	w.t.Helper()
	obj, err := w.tracker.Get(leasesGVR, "ns", "lock")
	if err != nil {
		w.t.Fatal(err)
	}
	return *rl.LeaseSpecToLeaderElectionRecord(&obj.(*coordinationv1.Lease).Spec)
}

// hold stores a lease held by identity and renewed now.
func (w *world) hold(identity string, transitions int32) {
	w.t.Helper()
	now := metav1.NewMicroTime(w.clock.Now())
	lease := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "lock"},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity: ptr.To(identity), LeaseDurationSeconds: ptr.To(int32(15)),
			AcquireTime: &now, RenewTime: &now, LeaseTransitions: ptr.To(transitions),
		},
	}
	obj, err := w.tracker.Get(leasesGVR, "ns", "lock")
	if err != nil {
		err = w.tracker.Add(lease)
	} else {
		lease.ResourceVersion = obj.(*coordinationv1.Lease).ResourceVersion
		err = w.tracker.Update(leasesGVR, lease, "ns")
	}
	if err != nil {
		w.t.Fatal(err)
	}
}

// quiet waits until a timer waits on the clock, that is until the candidates sleep, or until
// returned is closed; it reports whether a timer waits.
func (w *world) quiet(returned <-chan struct{}) bool {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !w.clock.HasWaiters() {
		select {
		case <-returned:
			return false
		default:
		}
		if time.Now().After(deadline) {
			w.t.Fatal("no candidate sleeps on the clock")
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// advance moves the clock forward by d once a candidate sleeps on it; it reports false instead
// if returned was closed first.
func (w *world) advance(d time.Duration, returned <-chan struct{}) bool {
	w.t.Helper()
	if !w.quiet(returned) {
		return false
	}
	w.clock.Step(d)
	return true
}

// eventually waits until cond holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// candidate is one running elector and what its callbacks saw.
type candidate struct {
	*le.LeaderElector
	started  chan context.Context // receives OnStartedLeading's context
	stopped  chan struct{}        // closed by OnStoppedLeading
	returned chan struct{}        // closed when Run returns
	cancel   context.CancelFunc

	mu      sync.Mutex
	leaders []string // OnNewLeader's arguments
}

func (w *world) config(c *candidate, identity string) le.LeaderElectionConfig {
	return le.LeaderElectionConfig{
		Lock: w.lock(identity), LeaseDuration: leaseDuration, RenewDeadline: renewDeadline, RetryPeriod: retryPeriod,
		Clock: w.clock, Name: "test",
		Callbacks: le.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { c.started <- ctx },
			OnStoppedLeading: func() { close(c.stopped) },
			OnNewLeader: func(identity string) {
				c.mu.Lock()
				c.leaders = append(c.leaders, identity)
				c.mu.Unlock()
			},
		},
	}
}

// run starts a candidate; change adjusts its configuration.
func (w *world) run(identity string, change ...func(*le.LeaderElectionConfig)) *candidate {
	w.t.Helper()
	c := &candidate{started: make(chan context.Context, 1), stopped: make(chan struct{}), returned: make(chan struct{})}
	config := w.config(c, identity)
	for _, f := range change {
		f(&config)
	}
	elector, err := le.NewLeaderElector(config)
	if err != nil {
		w.t.Fatal(err)
	}
	c.LeaderElector = elector
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() {
		defer close(c.returned)
		elector.Run(ctx)
	}()
	w.t.Cleanup(func() {
		cancel()
		<-c.returned
	})
	return c
}

// leading waits until c starts leading and returns its leading context.
func (c *candidate) leading(t *testing.T) context.Context {
	t.Helper()
	select {
	case ctx := <-c.started:
		return ctx
	case <-time.After(10 * time.Second):
		t.Fatal("the candidate did not start leading")
		return nil
	}
}

// done waits until Run returned after calling OnStoppedLeading.
func (c *candidate) done(t *testing.T) {
	t.Helper()
	for _, ch := range []chan struct{}{c.stopped, c.returned} {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return")
		}
	}
}

// newLeaders returns the identities passed to OnNewLeader so far, once there are at least n.
func (c *candidate) newLeaders(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		got := append([]string(nil), c.leaders...)
		c.mu.Unlock()
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(time.Millisecond)
	}
}
