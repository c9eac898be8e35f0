package sharding

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

func (h *harness) serverReplica(ring, identity string) *Replica {
	h.t.Helper()
	r, err := New(Config{Ring: ring, Identity: identity, Namespace: "default", Leases: h.leases, Metadata: h.meta,
		Resources: []Resource{crontabs}, LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
		Clock: h.clock, Mode: ServerMode})
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

// claimsOf returns the ServerMode state of r.
func claimsOf(r *Replica) *claims { return r.mode.(*serverMode).claims }

// startAdopt runs one adoption of r in the background, writing r's Lease whenever it asks to, and
// returns a function waiting for its result.
func startAdopt(t *testing.T, r *Replica) func() error {
	t.Helper()
	claimsOf(r).mu.Lock()
	claimsOf(r).joinedAt = time.Time{} // settled
	claimsOf(r).mu.Unlock()
	if _, err := r.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- claimsOf(r).adopt(context.Background(), klog.Background()) }()
	return func() error {
		for {
			select {
			case err := <-done:
				return err
			case <-r.renewNow:
				renew(r)
			case <-time.After(time.Minute):
				t.Fatal("the adoption does not end")
			}
		}
	}
}

// hashOwnedBy returns a hash p gives member.
func hashOwnedBy(t *testing.T, p *Partition, member string) uint64 {
	t.Helper()
	for i := range 10000 {
		if h := ServerHash(fmt.Sprint(i)); p.Owner(h) == member {
			return h
		}
	}
	t.Fatalf("no hash for %s", member)
	return 0
}

func (h *harness) claim(lease string) string {
	h.t.Helper()
	l, err := h.leases.Get(context.Background(), lease, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return l.Annotations[ClaimAnnotation]
}

// TestServerModeHandoff: a replica gives up an object only once its reconcile returned, publishes that
// before the new owner starts, and the new owner waits for it.
func TestServerModeHandoff(t *testing.T) {
	h := newHarness(t)
	a := h.serverReplica("crontabs", "a")
	renew(a)
	if err := startAdopt(t, a)(); err != nil {
		t.Fatal(err)
	}
	if got := h.claim("crontabs.a"); got != "a" {
		t.Fatalf("a claims %q after adopting alone", got)
	}
	if l, _ := h.leases.Get(context.Background(), "crontabs.a", metav1.GetOptions{}); l.Annotations[ScopeAnnotation] != ";crontabs.stable.example.com" {
		t.Fatalf("scope = %q", l.Annotations[ScopeAnnotation])
	}
	both := NewPartition([]string{"a", "b"})
	moving := hashOwnedBy(t, both, "b")
	staying := hashOwnedBy(t, both, "a")
	if claimsOf(a).begin(moving) != guardRun {
		t.Fatal("a alone does not reconcile every object")
	}
	// b joins while a reconciles an object that moves to b.
	b := h.serverReplica("crontabs", "b")
	renew(b)
	waitA := startAdopt(t, a)
	waitB := startAdopt(t, b)
	if err := waitB(); err != nil {
		t.Fatal(err)
	}
	if got := h.claim("crontabs.b"); got != "a,b" {
		t.Fatalf("b claims %q", got)
	}
	if got := claimsOf(b).begin(moving); got != guardPending {
		t.Fatalf("b's guard = %v while a still claims the object", got)
	}
	// a cannot publish while its reconcile of the moving object runs: it waits for it.
	for {
		claimsOf(a).mu.Lock()
		narrowed := claimsOf(a).narrowed != nil
		claimsOf(a).mu.Unlock()
		if narrowed {
			break
		}
		time.Sleep(time.Millisecond)
	}
	claimsOf(a).mu.Lock()
	want := claimsOf(a).want
	claimsOf(a).mu.Unlock()
	if want != "a" || h.claim("crontabs.a") != "a" {
		t.Fatalf("a is publishing %q with a reconcile of a moving object in flight", want)
	}
	if claimsOf(a).begin(moving) != guardSkip {
		t.Fatal("a starts another reconcile of an object it is giving up")
	}
	if claimsOf(a).begin(staying) != guardRun {
		t.Fatal("a stops reconciling an object it keeps")
	}
	claimsOf(a).end(staying)
	claimsOf(a).end(moving)
	if err := waitA(); err != nil {
		t.Fatal(err)
	}
	if got := h.claim("crontabs.a"); got != "a,b" {
		t.Fatalf("a claims %q", got)
	}
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := claimsOf(b).begin(moving); got != guardRun {
		t.Fatalf("b's guard = %v once a let go", got)
	}
	claimsOf(b).end(moving)
	if claimsOf(b).begin(staying) != guardSkip {
		t.Fatal("b reconciles a's object")
	}
}

// TestServerModeRejoinAfterAFenceClaimsNothing: a replica whose membership lapsed while it held its
// Lease all along keeps its claim when it renews and reconciles its share at once; one whose Lease
// was fenced meanwhile publishes an empty claim when it takes the Lease back, and reconciles
// nothing until it adopted its share again.
func TestServerModeRejoinAfterAFenceClaimsNothing(t *testing.T) {
	h := newHarness(t)
	a := h.serverReplica("crontabs", "a")
	renew(a)
	if err := startAdopt(t, a)(); err != nil {
		t.Fatal(err)
	}
	h.clock.Step(testRenew) // paused past its renew deadline, not past its Lease
	if a.IsMember() {
		t.Fatal("still a member")
	}
	if got := claimsOf(a).begin(42); got != guardRun {
		t.Fatalf("guard = %v while lapsed; the Reconciler's membership check refuses it first", got)
	}
	claimsOf(a).end(42)
	renew(a)
	if got := h.claim("crontabs.a"); got != "a" {
		t.Fatalf("a renewed its own Lease after a lapse claiming %q, want its claim kept", got)
	}
	if ranges, _ := claimsOf(a).share(); len(ranges) == 0 {
		t.Fatal("the share was dropped across a lapse")
	}

	// Fenced: the Lease is taken back once the fence expires, with an empty claim.
	h.fence("crontabs.a")
	h.clock.Step(testRenew)
	renew(a) // sees the fence, waits for it to expire
	h.clock.Step(testLease)
	renew(a)
	if !a.IsMember() {
		t.Fatal("a did not take its Lease back after the fence expired")
	}
	if got := h.claim("crontabs.a"); got != "" {
		t.Fatalf("a took its Lease back claiming %q", got)
	}
	if got := claimsOf(a).begin(42); got != guardPending {
		t.Fatalf("guard = %v before adopting again; want pending, to be requeued after the adoption", got)
	}
	if ranges, _ := claimsOf(a).share(); ranges != nil {
		t.Fatalf("share = %v before adopting again", ranges)
	}
	if err := startAdopt(t, a)(); err != nil {
		t.Fatal(err)
	}
	if got := claimsOf(a).begin(42); got != guardRun {
		t.Fatalf("guard = %v after adopting again", got)
	}
}

// TestServerModeWrongRingGivesWay: a replica of another ring over the same objects finds the live
// ring's claims, claims nothing itself, and takes over once that ring is gone.
func TestServerModeWrongRingGivesWay(t *testing.T) {
	h := newHarness(t)
	a := h.serverReplica("crontabs", "a")
	renew(a)
	if err := startAdopt(t, a)(); err != nil {
		t.Fatal(err)
	}
	x := h.serverReplica("crontab", "x")
	renew(x)
	if _, err := claimsOf(x).foreign.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := startAdopt(t, x)(); err != nil {
		t.Fatal(err)
	}
	renew(x)
	if got := h.claim("crontab.x"); got != "" {
		t.Fatalf("x claims %q beside a live ring", got)
	}
	if got := claimsOf(x).begin(42); got != guardSkip {
		t.Fatalf("x's guard = %v", got)
	}
	if claimsOf(a).begin(42) != guardRun {
		t.Fatal("the live ring stopped")
	}
	claimsOf(a).end(42)
	// a stops renewing; once its Lease expired on x's clock, x takes over.
	for range 7 {
		h.clock.Step(testRetry)
		renew(x)
		if _, err := claimsOf(x).foreign.refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if err := startAdopt(t, x)(); err != nil {
		t.Fatal(err)
	}
	if got := claimsOf(x).begin(42); got != guardRun {
		t.Fatalf("x's guard = %v once the other ring is gone", got)
	}
}

// TestServerModeOptions: ServerMode checks its field.
func TestServerModeOptions(t *testing.T) {
	h := newHarness(t)
	_, err := New(Config{Ring: "r", Identity: "a", Namespace: "default", Leases: h.leases, Metadata: h.meta,
		Resources: []Resource{crontabs}, Mode: ServerMode, ServerField: "object.metadata.name"})
	if err == nil {
		t.Fatal("a field the server cannot hash was accepted")
	}
	if _, err := SupportsServerMode(context.Background(), Config{Resources: []Resource{crontabs}}); err == nil {
		t.Fatal("SupportsServerMode without clients did not fail")
	}
	r := h.serverReplica("r", "a")
	if r.cfg.ServerField != UIDField {
		t.Fatalf("default field = %q", r.cfg.ServerField)
	}
}

// TestServerModeSettlesBeforeFirstAdoption: a replica that just joined a ring where nobody claims
// anything waits two retry periods, so that replicas started together do not each list every object
// first; one joining a working ring adopts at once.
func TestServerModeSettlesBeforeFirstAdoption(t *testing.T) {
	h := newHarness(t)
	a := h.serverReplica("crontabs", "a")
	renew(a)
	if _, err := a.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := claimsOf(a).adopt(context.Background(), klog.Background()); err != nil {
		t.Fatal(err)
	}
	if ranges, _ := claimsOf(a).share(); ranges != nil || h.claim("crontabs.a") != "" {
		t.Fatalf("adopted %v right after joining", ranges)
	}
	h.clock.Step(2 * testRetry)
	renew(a)
	if err := startAdopt(t, a)(); err != nil {
		t.Fatal(err)
	}
	if ranges, _ := claimsOf(a).share(); len(ranges) != 1 {
		t.Fatalf("share after settling = %v", ranges)
	}
	b := h.serverReplica("crontabs", "b")
	renew(b)
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- claimsOf(b).adopt(context.Background(), klog.Background()) }()
	for published := false; !published; {
		select {
		case err := <-done:
			t.Fatalf("b did not adopt at once beside a working member: %v", err)
		case <-b.renewNow:
			renew(b)
			published = true
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if ranges, _ := claimsOf(b).share(); len(ranges) == 0 {
		t.Fatal("b has no share")
	}
}
