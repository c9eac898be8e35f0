package sharding

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/workqueue"
)

const (
	testLease = 3 * time.Second
	testRenew = 2 * time.Second
	testRetry = 500 * time.Millisecond
)

type harness struct {
	t      *testing.T
	clock  *clocktesting.FakeClock
	leases *fakeLeases
	meta   *fakeMetadata
}

func newHarness(t *testing.T) *harness {
	return &harness{t: t, clock: clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), leases: &fakeLeases{}, meta: newFakeMetadata()}
}

func (h *harness) replica(identity string) *Replica {
	h.t.Helper()
	r, err := New(Config{Ring: "crontabs", Identity: identity, Namespace: "default", Leases: h.leases, Metadata: h.meta,
		Resources: []Resource{crontabs}, LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry, Clock: h.clock})
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

// fence writes the fence holder into the Lease named name, as a member that saw it expire does.
func (h *harness) fence(name string) {
	h.t.Helper()
	l, err := h.leases.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	fenced := FencedHolder
	l.Spec.HolderIdentity = &fenced
	if _, err := h.leases.Update(context.Background(), l, metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

func renew(r *Replica) { r.member.tryAcquireOrRenew(context.Background(), klog.Background()) }

func TestMembershipStopsBeforeLeaseCanExpire(t *testing.T) {
	h := newHarness(t)
	r := h.replica("pod-0")
	if r.IsMember() {
		t.Fatal("member before its Lease was written")
	}
	renew(r)
	if !r.IsMember() {
		t.Fatal("not a member after acquiring its Lease")
	}
	l, _ := h.leases.Get(context.Background(), "crontabs.pod-0", metav1.GetOptions{})
	if l.Labels[RingLabel] != "crontabs" || l.Labels[MemberLabel] != "pod-0" || *l.Spec.LeaseDurationSeconds != 3 {
		t.Fatalf("lease = %+v", l)
	}
	epoch, _ := r.member.current()
	ctx, done, ok := r.member.ownedContext(context.Background(), epoch)
	if !ok {
		t.Fatal("no owned context for a member")
	}
	defer done()

	h.leases.fail(errors.New("api server unreachable"))
	h.clock.Step(testRetry)
	renew(r) // fails
	h.clock.Step(testRenew - testRetry - time.Millisecond)
	if !r.IsMember() || ctx.Err() != nil {
		t.Fatal("membership ended before the renew deadline")
	}
	h.clock.Step(time.Millisecond)
	// Paused past the deadline: the context says so before any watchdog ran.
	if r.IsMember() || !errors.Is(ctx.Err(), ErrNotMember) {
		t.Fatalf("member = %v, ctx.Err = %v after the renew deadline", r.IsMember(), ctx.Err())
	}
	select {
	case <-ctx.Done():
		t.Fatal("Done closed before the watchdog ran")
	default:
	}
	r.member.checkExpiry(klog.Background())
	<-ctx.Done()
	if !errors.Is(context.Cause(ctx), ErrNotMember) {
		t.Fatalf("cause = %v", context.Cause(ctx))
	}

	h.leases.fail(nil)
	renew(r)
	if e, ok := r.member.current(); !ok || e != epoch+1 {
		t.Fatalf("after rejoining: epoch %d member %v, want epoch %d", e, ok, epoch+1)
	}
	if _, _, ok := r.member.ownedContext(context.Background(), epoch); ok {
		t.Fatal("owned context handed out for an old epoch")
	}
}

// TestRenewalIsOneRequestUntilTheLeaseChanges: a member renews by updating the Lease as its last
// write left it, without reading it first; once someone else changed it (a fence), the update
// conflicts and the replica reads the Lease and sees it was fenced.
func TestRenewalIsOneRequestUntilTheLeaseChanges(t *testing.T) {
	h := newHarness(t)
	r := h.replica("pod-0")
	renew(r) // reads (not found), creates
	for range 3 {
		h.clock.Step(testRetry)
		renew(r)
	}
	if h.leases.gets != 1 {
		t.Fatalf("three renewals read the Lease %d times after the first", h.leases.gets-1)
	}
	l, _ := h.leases.Get(context.Background(), "crontabs.pod-0", metav1.GetOptions{})
	if !l.Spec.RenewTime.Time.Equal(h.clock.Now()) {
		t.Fatalf("renewTime %v, want %v", l.Spec.RenewTime.Time, h.clock.Now())
	}
	h.fence("crontabs.pod-0")
	h.clock.Step(testRenew)
	renew(r)
	if r.IsMember() || h.leases.holder("crontabs.pod-0") != FencedHolder {
		t.Fatalf("after a fence: member %v, holder %q", r.IsMember(), h.leases.holder("crontabs.pod-0"))
	}
}

func TestConflictingIdentityWaitsForTheLease(t *testing.T) {
	h := newHarness(t)
	first, second := h.replica("pod-0"), h.replica("pod-0")
	renew(first)
	renew(second)
	if !first.IsMember() || second.IsMember() {
		t.Fatalf("first member %v, second member %v", first.IsMember(), second.IsMember())
	}
	// The first keeps renewing: the second never gets in.
	for range 10 {
		h.clock.Step(testRetry)
		renew(first)
		renew(second)
		if second.IsMember() {
			t.Fatal("a second replica with the same identity joined while the first renewed")
		}
	}
	// The first stops (killed): the second takes over once the Lease stayed unchanged for its duration.
	h.clock.Step(testLease - time.Millisecond)
	renew(second)
	if second.IsMember() {
		t.Fatal("took over before the Lease expired on the taker's clock")
	}
	h.clock.Step(time.Millisecond)
	renew(second)
	if !second.IsMember() || first.IsMember() {
		t.Fatalf("after expiry: first %v second %v", first.IsMember(), second.IsMember())
	}
	if h.leases.holder("crontabs.pod-0") != second.member.holder {
		t.Fatal("lease not held by the second replica")
	}
}

func TestObserverJudgesExpiryOnItsOwnClockAndFences(t *testing.T) {
	h := newHarness(t)
	a, b := h.replica("a"), h.replica("b")
	renew(a)
	renew(b)
	// Skew: a's Lease claims a renewal an hour in the past; it is still live because it just changed.
	l, _ := h.leases.Get(context.Background(), "crontabs.a", metav1.GetOptions{})
	old := metav1.NewMicroTime(h.clock.Now().Add(-time.Hour))
	l.Spec.RenewTime = &old
	if _, err := h.leases.Update(context.Background(), l, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := b.Ring().Members(); len(got) != 2 {
		t.Fatalf("live members = %v, want both", got)
	}
	// a stops renewing; b keeps renewing and observing.
	for range 6 {
		h.clock.Step(testRetry)
		renew(b)
		if _, err := b.observer.refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Ring().Members(); len(got) != 1 || got[0] != "b" {
		t.Fatalf("live members after a's Lease expired = %v", got)
	}
	if claim, _ := b.observer.claim("a"); claim != claimExpired {
		t.Fatalf("claim of a = %v, want expired", claim)
	}
	expired := b.observer.expired()
	if len(expired) != 1 {
		t.Fatalf("expired = %v", expired)
	}
	// a renews just before the fence: the fence's compare-and-swap fails and a stays.
	stale := expired[0].DeepCopy()
	renew(a)
	if b.observer.fence(context.Background(), klog.Background(), stale) {
		t.Fatal("fenced a Lease renewed after it was observed")
	}
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if claim, _ := b.observer.claim("a"); claim != claimLive {
		t.Fatalf("claim of a after its renewal = %v", claim)
	}
	// Now a is paused for good; the fence takes its Lease and a cannot renew its way back.
	for range 6 {
		h.clock.Step(testRetry)
		renew(b)
		if _, err := b.observer.refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if exp := b.observer.expired(); len(exp) != 1 || !b.observer.fence(context.Background(), klog.Background(), exp[0]) {
		t.Fatal("fence failed")
	}
	if claim, _ := b.observer.claim("a"); claim != claimNone {
		t.Fatalf("claim of a fenced member = %v", claim)
	}
	renew(a)
	if a.IsMember() {
		t.Fatal("a fenced replica renewed its way back in")
	}
	h.clock.Step(testLease)
	renew(a)
	if !a.IsMember() {
		t.Fatal("a fenced replica did not rejoin after the fence expired")
	}
}

func TestReconcilerGuards(t *testing.T) {
	h := newHarness(t)
	r := h.replica("a")
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	var ran []string
	queue := &recordingQueue{}
	reconcile := r.Reconciler(crontabs, store.GetByKey, queue, func(ctx context.Context, key string) error {
		if ctx.Err() != nil {
			t.Errorf("reconcile of %s started with a done context", key)
		}
		ran = append(ran, key)
		return nil
	})
	shard, drain := ShardLabel("crontabs"), DrainLabel("crontabs")
	mine := h.meta.add("ns", "mine", map[string]string{shard: "a"})
	theirs := h.meta.add("ns", "theirs", map[string]string{shard: "b"})
	draining := h.meta.add("ns", "draining", map[string]string{shard: "a", drain: "b"})
	movedAway := h.meta.add("ns", "moved", map[string]string{shard: "c"})
	staleCopy := movedAway.DeepCopy()
	staleCopy.Labels = map[string]string{shard: "a"} // the cache still shows an object moved while we lapsed
	for _, o := range []any{mine, theirs, draining, staleCopy} {
		if err := store.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	// Before joining the key is refused without an error (the rate limiter is not charged) and
	// parked; joining requeues it at once.
	if err := reconcile(ctx, "ns/mine"); err != nil || len(ran) != 0 || len(queue.added) != 0 {
		t.Fatalf("reconcile before joining: err %v, ran %v, requeued %v", err, ran, queue.added)
	}
	renew(r)
	if len(queue.added) != 1 || queue.added[0] != "ns/mine" {
		t.Fatalf("joining requeued %v, want [ns/mine]", queue.added)
	}
	for _, key := range []string{"ns/mine", "ns/theirs", "ns/draining", "ns/moved", "ns/gone"} {
		if err := reconcile(ctx, key); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
	}
	if len(ran) != 1 || ran[0] != "ns/mine" {
		t.Fatalf("reconciled %v, want only ns/mine", ran)
	}
	if got := h.meta.get("ns", "draining").Labels; got[shard] != "b" || got[drain] != "" {
		t.Fatalf("drained object's labels = %v, want handed to b", got)
	}
	// A second acknowledgement from the stale cache is a conflict and changes nothing.
	patches := h.meta.patches
	if err := reconcile(ctx, "ns/draining"); err != nil || h.meta.patches != patches {
		t.Fatalf("stale acknowledgement: err %v, patches %d→%d", err, patches, h.meta.patches)
	}
	if got := h.meta.get("ns", "draining").Labels[shard]; got != "b" {
		t.Fatalf("stale acknowledgement moved the object to %q", got)
	}
	// An object assigned after the epoch began is checked against the server once.
	added := h.meta.add("ns", "added", map[string]string{shard: "a"})
	if err := store.Add(added); err != nil {
		t.Fatal(err)
	}
	if err := reconcile(ctx, "ns/added"); err != nil || len(ran) != 2 {
		t.Fatalf("new object: err %v ran %v", err, ran)
	}
}

// TestObserverGivesMembersTwoRetryPeriodsAfterAGap: after an outage longer than the Lease, an
// unchanged Lease does not expire at once (its member could not renew either), but two retry
// periods after observation resumes.
func TestObserverGivesMembersTwoRetryPeriodsAfterAGap(t *testing.T) {
	h := newHarness(t)
	a, b := h.replica("a"), h.replica("b")
	renew(a)
	renew(b)
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The API server is down for longer than the Lease: nobody renews, nobody observes.
	h.clock.Step(2 * testLease)
	renew(b)
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if claim, _ := b.observer.claim("a"); claim != claimLive || len(b.observer.expired()) != 0 {
		t.Fatalf("after an outage a is %v; an unchanged Lease during an outage proves nothing", claim)
	}
	// A live member renews within two retry periods of the outage's end and stays; a dead one
	// (a, which stays silent) expires then, not a whole Lease duration later.
	h.clock.Step(2*testRetry - time.Millisecond)
	renew(b)
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(b.observer.expired()) != 0 {
		t.Fatal("a member expired within two retry periods of the outage's end")
	}
	h.clock.Step(time.Millisecond)
	if expired := b.observer.expired(); len(expired) != 1 || expired[0].Name != "crontabs.a" {
		t.Fatalf("two retry periods after the outage, expired = %v, want a's Lease", expired)
	}
	if claim, _ := b.observer.claim("b"); claim != claimLive {
		t.Fatalf("b, which renewed after the outage, is %v", claim)
	}
}

// recordingMetrics keeps every metric's last value or count by name.
type recordingMetrics struct {
	mu     sync.Mutex
	values map[string]float64
}

type recordingMetric struct {
	m    *recordingMetrics
	name string
}

func (r recordingMetric) Set(v float64) { r.m.mu.Lock(); r.m.values[r.name] = v; r.m.mu.Unlock() }
func (r recordingMetric) Inc()          { r.m.mu.Lock(); r.m.values[r.name]++; r.m.mu.Unlock() }
func (r recordingMetric) Observe(v float64) {
	r.m.mu.Lock()
	r.m.values[r.name+"_count"]++
	r.m.mu.Unlock()
}

func (r *recordingMetrics) get(name string) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.values[name]
}

// has reports whether a metric of that name exists (was made and not deleted).
func (r *recordingMetrics) has(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.values[name]
	return ok
}

func (r *recordingMetrics) NewRingMembersMetric(ring string) GaugeMetric {
	return recordingMetric{r, "sharding_ring_members"}
}
func (r *recordingMetrics) NewShardObjectsMetric(ring, shard string) GaugeMetric {
	r.mu.Lock()
	r.values["sharding_shard_objects{"+shard+"}"] += 0
	r.mu.Unlock()
	return recordingMetric{r, "sharding_shard_objects{" + shard + "}"}
}
func (r *recordingMetrics) DeleteShardObjectsMetric(ring, shard string) {
	r.mu.Lock()
	delete(r.values, "sharding_shard_objects{"+shard+"}")
	r.mu.Unlock()
}
func (r *recordingMetrics) NewMovesMetric(string) CounterMetric {
	return recordingMetric{r, "sharding_moves_total"}
}
func (r *recordingMetrics) NewDrainsMetric(string) CounterMetric {
	return recordingMetric{r, "sharding_drains_total"}
}
func (r *recordingMetrics) NewDrainDurationMetric(string) HistogramMetric {
	return recordingMetric{r, "sharding_drain_duration_seconds"}
}

func TestCoordinatorSync(t *testing.T) {
	h := newHarness(t)
	metrics := &recordingMetrics{values: map[string]float64{}}
	a, b := h.replica("a"), h.replica("b")
	a.metrics = replicaMetrics{members: metrics.NewRingMembersMetric(""), moves: metrics.NewMovesMetric(""),
		drains: metrics.NewDrainsMetric(""), drainDuration: metrics.NewDrainDurationMetric(""), provider: metrics}
	renew(a)
	renew(b)
	if _, err := a.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := newCoordinator(a)
	c.queue = workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[objectRef](),
		workqueue.TypedRateLimitingQueueConfig[objectRef]{Clock: h.clock})
	defer c.queue.ShutDown()
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	c.stores = []cache.Store{store}
	shard, drain := ShardLabel("crontabs"), DrainLabel("crontabs")
	ring := a.Ring()
	owner := func(name string) string { return ring.Owner("stable.example.com/CronTab/ns/" + name) }
	// Find one object the ring gives to a and one it gives to b.
	var forA, forB string
	for i := 0; forA == "" || forB == ""; i++ {
		name := "tab-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if owner(name) == "a" && forA == "" {
			forA = name
		} else if owner(name) == "b" && forB == "" {
			forB = name
		}
	}
	sync := func(name string) {
		t.Helper()
		if err := store.Update(h.meta.get("ns", name)); err != nil {
			t.Fatal(err)
		}
		if err := c.sync(context.Background(), objectRef{key: "ns/" + name}); err != nil {
			t.Fatal(err)
		}
	}
	labels := func(name string) map[string]string { return h.meta.get("ns", name).Labels }

	h.meta.add("ns", forB, nil)
	sync(forB)
	if labels(forB)[shard] != "b" {
		t.Fatalf("new object assigned to %q, want b", labels(forB)[shard])
	}
	// Owned by a live member the ring no longer places it on: a drain is requested, not a move.
	h.meta.add("ns", forA, map[string]string{shard: "b"})
	sync(forA)
	if got := labels(forA); got[shard] != "b" || got[drain] != "a" {
		t.Fatalf("labels after rebalance = %v, want a drain from b to a", got)
	}
	if got := metrics.get("sharding_ring_members"); got != 2 {
		t.Errorf("ring members metric = %v, want 2", got)
	}
	for _, name := range []string{forA, forB} {
		if err := store.Update(h.meta.get("ns", name)); err != nil {
			t.Fatal(err)
		}
	}
	c.reportShardSizes()
	if got := metrics.get("sharding_shard_objects{b}"); got != 2 {
		t.Errorf("objects of shard b = %v, want 2", got)
	}
	if metrics.get("sharding_moves_total") != 1 || metrics.get("sharding_drains_total") != 1 {
		t.Errorf("moves %v drains %v, want 1 and 1", metrics.get("sharding_moves_total"), metrics.get("sharding_drains_total"))
	}
	// b acknowledges: the drain's duration is observed once the coordinator sees the hand-over.
	obj := h.meta.get("ns", forA)
	if _, err := h.meta.Resource(crontabs.Resource).Namespace("ns").Patch(context.Background(), forA, "application/merge-patch+json",
		labelPatch(obj.ResourceVersion, map[string]any{shard: "a", drain: nil}), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	sync(forA)
	if got := metrics.get("sharding_drain_duration_seconds_count"); got != 1 {
		t.Errorf("drain durations observed = %v, want 1", got)
	}
	// Another live ring's object is left alone.
	holder := "x_1"
	if _, err := h.leases.Create(context.Background(), &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: "other.x", Labels: map[string]string{RingLabel: "other", MemberLabel: "x"}},
		Spec:       coordinationv1.LeaseSpec{HolderIdentity: &holder}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.meta.add("ns", "foreign", map[string]string{ShardLabelPrefix + "other": "x"})
	sync("foreign")
	if got := labels("foreign"); len(got) != 1 || got[ShardLabelPrefix+"other"] != "x" {
		t.Fatalf("object of a live foreign ring relabelled: %v", got)
	}
	// b stops renewing: its objects wait for the fence, then move without a drain.
	for range 7 {
		h.clock.Step(testRetry)
		renew(a)
		if _, err := a.observer.refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	sync(forB)
	if labels(forB)[shard] != "b" {
		t.Fatal("moved an object off an expired member before fencing it")
	}
	c.fenceExpired(context.Background(), klog.Background())
	// For a retry period the replicas' own claims move a departed member's objects; the coordinator
	// comes back to them after that.
	sync(forB)
	if labels(forB)[shard] != "b" || c.queue.Len() != 0 {
		t.Fatalf("coordinator moved a just-departed member's object at once (labels %v)", labels(forB))
	}
	h.clock.Step(testRetry)
	for deadline := time.Now().Add(10 * time.Second); c.queue.Len() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the object of the departed member was not requeued after the grace (queue %d)", c.queue.Len())
		}
	}
	sync(forB)
	sync(forA)
	if labels(forB)[shard] != "a" || labels(forA)[shard] != "a" || labels(forA)[drain] != "" {
		t.Fatalf("after fencing b: %v %v", labels(forB), labels(forA))
	}
	// The foreign ring's Lease stayed unchanged for its duration: its object is taken, not orphaned.
	sync("foreign")
	if got := labels("foreign"); len(got) != 1 || got[shard] != "a" {
		t.Fatalf("object of a dead foreign ring: labels %v, want taken by a", got)
	}
	// b left the ring and owns nothing any more: its objects metric is deleted, not left at its
	// last value; a's counts everything.
	for _, name := range []string{forA, forB, "foreign"} {
		if err := store.Update(h.meta.get("ns", name)); err != nil {
			t.Fatal(err)
		}
	}
	c.reportShardSizes()
	if metrics.has("sharding_shard_objects{b}") {
		t.Errorf("objects metric of departed shard b = %v, want deleted", metrics.get("sharding_shard_objects{b}"))
	}
	if got := metrics.get("sharding_shard_objects{a}"); got != 3 {
		t.Errorf("objects of shard a = %v, want 3", got)
	}
	// A replica that stops coordinating drops what it reported.
	c.dropShardSizes()
	if metrics.has("sharding_shard_objects{a}") {
		t.Error("objects metric still exported after the coordinator stopped")
	}
}

type recordingTransport struct{ sent int }

func (t *recordingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	t.sent++
	return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
}

func TestWrapTransportRefusesRequestsOfLapsedReconciles(t *testing.T) {
	h := newHarness(t)
	r := h.replica("a")
	renew(r)
	next := &recordingTransport{}
	rt := WrapTransport(next)
	epoch, _ := r.member.current()
	ctx, done, _ := r.member.ownedContext(context.Background(), epoch)
	defer done()
	send := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPut, "https://api/apis/x", nil)
		_, err := rt.RoundTrip(req)
		return err
	}
	if err := send(ctx); err != nil || next.sent != 1 {
		t.Fatalf("request of a live reconcile: %v (sent %d)", err, next.sent)
	}
	h.clock.Step(testRenew)                                // paused past the renew deadline mid-reconcile
	timeout, cancel := context.WithTimeout(ctx, time.Hour) // derived contexts still carry the membership
	defer cancel()
	if err := send(timeout); !errors.Is(err, ErrNotMember) || next.sent != 1 {
		t.Fatalf("request after the membership lapsed: %v (sent %d)", err, next.sent)
	}
	if err := send(context.Background()); err != nil || next.sent != 2 {
		t.Fatalf("request outside a reconcile: %v", err)
	}
}

func TestReconcilerRechecksObjectsThatCameBack(t *testing.T) {
	h := newHarness(t)
	r := h.replica("a")
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	ran := 0
	reconcile := r.Reconciler(crontabs, store.GetByKey, &recordingQueue{}, func(context.Context, string) error { ran++; return nil })
	shard := ShardLabel("crontabs")
	o := h.meta.add("ns", "x", map[string]string{shard: "b"})
	renew(r)
	// The cache shows x as ours before the server does (a lagging cache after a rejoin): not run.
	stale := o.DeepCopy()
	stale.Labels = map[string]string{shard: "a"}
	stale.ResourceVersion = "0"
	if err := store.Add(stale); err != nil {
		t.Fatal(err)
	}
	if err := reconcile(context.Background(), "ns/x"); err != nil || ran != 0 {
		t.Fatalf("err %v ran %d", err, ran)
	}
	// Later in the same epoch x really moves here: it runs.
	live := h.meta.get("ns", "x")
	client := h.meta.Resource(crontabs.Resource).Namespace("ns")
	moved, err := client.Patch(context.Background(), "x", "application/merge-patch+json",
		labelPatch(live.ResourceVersion, map[string]any{shard: "a"}), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Update(moved); err != nil {
		t.Fatal(err)
	}
	if err := reconcile(context.Background(), "ns/x"); err != nil || ran != 1 {
		t.Fatalf("after the move: err %v ran %d", err, ran)
	}
}

// recordingQueue records the keys a guard requeues.
type recordingQueue struct {
	mu    sync.Mutex
	added []string
}

func (q *recordingQueue) Add(key string) {
	q.mu.Lock()
	q.added = append(q.added, key)
	q.mu.Unlock()
}

// TestReconcilerRequeuesAfterALapse: a key refused while membership lapsed (the API server was
// unreachable past the renew deadline) is requeued by the renewal that brings the replica back, not
// left to the controller's rate limiter.
func TestReconcilerRequeuesAfterALapse(t *testing.T) {
	h := newHarness(t)
	r := h.replica("a")
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	queue := &recordingQueue{}
	ran := 0
	reconcile := r.Reconciler(crontabs, store.GetByKey, queue, func(context.Context, string) error { ran++; return nil })
	if err := store.Add(h.meta.add("ns", "x", map[string]string{ShardLabel("crontabs"): "a"})); err != nil {
		t.Fatal(err)
	}
	renew(r)
	h.clock.Step(testRenew) // no renewal within the renew deadline
	for range 3 {           // the informer's events keep coming
		if err := reconcile(context.Background(), "ns/x"); err != nil {
			t.Fatalf("refusal returned %v", err)
		}
	}
	if ran != 0 || len(queue.added) != 0 {
		t.Fatalf("lapsed replica ran %d, requeued %v", ran, queue.added)
	}
	renew(r)
	if len(queue.added) != 1 || queue.added[0] != "ns/x" {
		t.Fatalf("rejoining requeued %v, want ns/x once", queue.added)
	}
	if err := reconcile(context.Background(), "ns/x"); err != nil || ran != 1 {
		t.Fatalf("requeued key: err %v, ran %d", err, ran)
	}
	r.requeueParked()
	if len(queue.added) != 1 {
		t.Fatalf("a key that ran was requeued again: %v", queue.added)
	}
}

// TestReplacementSaysWhatItWaitsFor: a replica started with the identity of one that was killed
// without releasing its Lease logs what it waits for and for how long, and says how long it waited
// when it joins.
func TestReplacementSaysWhatItWaitsFor(t *testing.T) {
	h := newHarness(t)
	old := h.replica("pod-0")
	renew(old)
	var mu sync.Mutex
	var lines []string
	logger := funcr.New(func(prefix, args string) {
		mu.Lock()
		lines = append(lines, args)
		mu.Unlock()
	}, funcr.Options{})
	replacement := h.replica("pod-0")
	replacement.member.tryAcquireOrRenew(context.Background(), logger)
	h.clock.Step(testRetry)
	replacement.member.tryAcquireOrRenew(context.Background(), logger) // waiting still: logged once
	mu.Lock()
	if len(lines) != 1 || !strings.Contains(lines[0], "held by another instance") || !strings.Contains(lines[0], `"expiresIn"="3s"`) ||
		!strings.Contains(lines[0], old.member.holder) {
		t.Fatalf("waiting logged %q", lines)
	}
	mu.Unlock()
	h.clock.Step(testLease)
	replacement.member.tryAcquireOrRenew(context.Background(), logger)
	if !replacement.IsMember() {
		t.Fatal("the replacement did not join once the old Lease expired")
	}
	mu.Lock()
	defer mu.Unlock()
	last := lines[len(lines)-1]
	if !strings.Contains(last, "joined ring") || !strings.Contains(last, "previous holder "+old.member.holder) || !strings.Contains(last, `"waited"="3.5s"`) {
		t.Fatalf("joining logged %q", last)
	}
}

// TestReconcilerVerifiesOncePerTenure: the guard checks against the server what the cache shows as
// this replica's once per tenure of its Lease. A lapse of membership within a tenure moves nothing,
// so the rejoined replica trusts what it verified; a fence ends the tenure, and after taking its
// Lease back the replica checks again.
func TestReconcilerVerifiesOncePerTenure(t *testing.T) {
	h := newHarness(t)
	r := h.replica("a")
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	ran := 0
	reconcile := r.Reconciler(crontabs, store.GetByKey, &recordingQueue{}, func(context.Context, string) error { ran++; return nil })
	shard := ShardLabel("crontabs")
	x := h.meta.add("ns", "x", map[string]string{shard: "a"})
	if err := store.Add(x); err != nil {
		t.Fatal(err)
	}
	renew(r)
	if err := reconcile(context.Background(), "ns/x"); err != nil || ran != 1 {
		t.Fatalf("first reconcile: err %v, ran %d", err, ran)
	}
	// The server now names another owner, which only a fence could allow: a list would show it.
	h.meta.add("ns", "x", map[string]string{shard: "b"})
	h.clock.Step(testRenew) // lapsed
	renew(r)                // renewed its own Lease: same tenure
	if err := reconcile(context.Background(), "ns/x"); err != nil || ran != 2 {
		t.Fatalf("after a lapse within the tenure: err %v, ran %d (want no new check)", err, ran)
	}
	h.fence("crontabs.a")
	h.clock.Step(testRenew)
	renew(r) // sees the fence
	h.clock.Step(testLease)
	renew(r) // takes its Lease back: a new tenure
	if !r.IsMember() {
		t.Fatal("not a member after the fence expired")
	}
	if err := reconcile(context.Background(), "ns/x"); err != nil || ran != 2 {
		t.Fatalf("after a fence: err %v, ran %d (want the server's word: not ours)", err, ran)
	}
}

// TestLateRenewalKeepsTheTenure: a renewal that lands after the renew deadline does not make the
// replica a member, but it is written, so the others do not fence it, and the next renewal in time
// resumes membership in the same tenure.
func TestLateRenewalKeepsTheTenure(t *testing.T) {
	h := newHarness(t)
	r := h.replica("pod-0")
	renew(r)
	epoch, _ := r.member.current()
	tenure := r.member.currentTenure()
	h.clock.Step(testRetry)
	h.leases.slowly = func() { h.clock.Step(testRenew) } // the write takes longer than the deadline
	renew(r)
	h.leases.slowly = nil
	if r.IsMember() {
		t.Fatal("a renewal that landed after the renew deadline made the replica a member")
	}
	l, err := h.leases.Get(context.Background(), "crontabs.pod-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := h.clock.Now().Add(-testRenew); !l.Spec.RenewTime.Time.Equal(want) {
		t.Fatalf("the late renewal wrote renewTime %v, want %v", l.Spec.RenewTime.Time, want)
	}
	if e, _ := r.member.current(); e != epoch {
		t.Fatalf("a late renewal started epoch %d", e)
	}
	renew(r)
	if e, ok := r.member.current(); !ok || e != epoch+1 || r.member.currentTenure() != tenure {
		t.Fatalf("after a renewal in time: epoch %d member %v tenure %d; want epoch %d, tenure %d", e, ok, r.member.currentTenure(), epoch+1, tenure)
	}
}

// TestObserverGraceIsOncePerVersion: on a server so slow that every list comes more than two retry
// periods after the last, a dead member's unchanged Lease gets the grace after a gap once, then
// expires, rather than being granted a new grace at every list.
func TestObserverGraceIsOncePerVersion(t *testing.T) {
	h := newHarness(t)
	a, b := h.replica("a"), h.replica("b")
	renew(a)
	renew(b)
	if _, err := b.observer.refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range 6 { // a dies; b renews and lists every 3 retry periods
		h.clock.Step(3 * testRetry)
		renew(b)
		if _, err := b.observer.refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		if claim, _ := b.observer.claim("a"); claim == claimExpired {
			if elapsed := time.Duration(i+1) * 3 * testRetry; elapsed > testLease+2*testRetry+3*testRetry {
				t.Fatalf("a expired %v after its last renewal", elapsed)
			}
			return
		}
	}
	t.Fatal("a dead member's Lease never expired while every list came late")
}
