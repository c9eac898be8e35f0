package sharding

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

// eventually waits up to ten seconds of real time for cond, which another goroutine makes true.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

func (h *harness) watchers() int {
	h.leases.mu.Lock()
	defer h.leases.mu.Unlock()
	return len(h.leases.watchers)
}

func (h *harness) leaseRV(name string) string {
	l, err := h.leases.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return l.ResourceVersion
}

// observedRV returns the resourceVersion of id's Lease as o last recorded it.
func (o *observer) observedRV(id string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if s := o.states[id]; s != nil {
		return s.lease.ResourceVersion
	}
	return ""
}

func TestObserverTimesExpiryFromTheWatchedChange(t *testing.T) {
	h := newHarness(t)
	a, b := h.replica("a"), h.replica("b")
	renew(a)
	renew(b)
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		b.observer.watch(ctx, klog.Background(), func() {})
	}()
	defer func() { cancel(); <-stopped }()
	eventually(t, "the observer watches the Leases", func() bool { return h.watchers() == 1 })

	// Half a retry period after the list, a renews for the last time: the watch records it then,
	// not at the next list.
	h.clock.Step(testRetry / 2)
	renew(a)
	renewedRV := h.leaseRV("crontabs.a")
	eventually(t, "the watch delivers a's renewal", func() bool { return b.observer.observedRV("a") == renewedRV })
	lastSeen := h.clock.Now()

	// A list that raced with the watch and returns an older version changes nothing.
	stale, _ := h.leases.Get(context.Background(), "crontabs.a", metav1.GetOptions{})
	stale.ResourceVersion = "1"
	b.observer.mu.Lock()
	b.observer.observeLocked(stale, h.clock.Now())
	b.observer.mu.Unlock()
	if got := b.observer.observedRV("a"); got != renewedRV {
		t.Fatalf("an older version replaced the newer one: %s", got)
	}

	// b keeps renewing and listing; a is live until its Lease stayed unchanged for a Lease duration
	// since the watch showed the change, and expired from that moment on.
	for h.clock.Since(lastSeen)+testRetry < testLease {
		h.clock.Step(testRetry)
		renew(b)
		if _, err := b.observer.refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	h.clock.Step(testLease - h.clock.Since(lastSeen) - time.Millisecond)
	if claim, _ := b.observer.claim("a"); claim != claimLive {
		t.Fatalf("a is %v a millisecond before its Lease expires", claim)
	}
	if d := b.observer.untilNextExpiry(time.Hour); d != time.Millisecond {
		t.Fatalf("next expiry in %v, want 1ms", d)
	}
	h.clock.Step(time.Millisecond)
	if claim, _ := b.observer.claim("a"); claim != claimExpired {
		t.Fatalf("a is %v once its Lease expired on b's clock", claim)
	}
}

func TestTakeOverFencesAtExpiryAndClaims(t *testing.T) {
	h := newHarness(t)
	a, b := h.replica("a"), h.replica("b")
	renew(a)
	renew(b)
	shard, drain := ShardLabel("crontabs"), DrainLabel("crontabs")
	h.meta.add("ns", "x", map[string]string{shard: "a", drain: "c"}) // a drain a can no longer acknowledge
	h.meta.add("ns", "y", map[string]string{shard: "a"})
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	lastSeen := h.clock.Now()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		b.takeOver(ctx, klog.Background())
	}()
	defer func() { cancel(); <-stopped }()

	// a stops renewing; b renews and lists until a's Lease expires on its clock. Each step waits for
	// takeOver's timer, since the fake clock fires only timers set before it steps.
	for h.clock.Since(lastSeen)+testRetry < testLease {
		eventually(t, "takeOver sets its timer", h.clock.HasWaiters)
		h.clock.Step(testRetry)
		renew(b)
		if _, err := b.observer.refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "takeOver handled the last step and sets its timer", h.clock.HasWaiters)
	if h.leases.holder("crontabs.a") == FencedHolder {
		t.Fatal("fenced a's Lease before it expired")
	}
	h.clock.Step(testLease - h.clock.Since(lastSeen))
	eventually(t, "b fences a's Lease", func() bool { return h.leases.holder("crontabs.a") == FencedHolder })
	for _, name := range []string{"x", "y"} {
		eventually(t, "b claims "+name, func() bool {
			l := h.meta.get("ns", name).Labels
			return l[shard] == "b" && l[drain] == ""
		})
	}
	if got := b.Ring().Members(); len(got) != 1 || got[0] != "b" {
		t.Fatalf("ring after the fence = %v", got)
	}
}

func TestClaimPatchIsConditionalOnTheOldOwner(t *testing.T) {
	h := newHarness(t)
	shard := ShardLabel("crontabs")
	h.meta.add("ns", "moved", map[string]string{shard: "c"}) // someone else claimed it first
	client := h.meta.Resource(crontabs.Resource).Namespace("ns")
	_, err := client.Patch(context.Background(), "moved", "application/json-patch+json", claimPatch("crontabs", "a", "b"), metav1.PatchOptions{})
	if err == nil {
		t.Fatal("claimed an object that no longer belonged to the departed member")
	}
	if got := h.meta.get("ns", "moved").Labels[shard]; got != "c" {
		t.Fatalf("owner = %q, want c", got)
	}
}

func TestNoExpiryWhileObservationIsNotCurrent(t *testing.T) {
	h := newHarness(t)
	a, b := h.replica("a"), h.replica("b")
	renew(a)
	renew(b)
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	// b could not list for longer than the Lease (the API server was unreachable): a's Lease looks
	// expired, but nothing is fenced until a list shows what happened meanwhile.
	h.clock.Step(2 * testLease)
	if exp := b.observer.expired(); len(exp) != 0 {
		t.Fatalf("expired members while not observing: %d", len(exp))
	}
}
