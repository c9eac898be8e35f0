package e2e_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgen-dev/kgen/runtime/sharding"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{APIServerArgs: []string{"--feature-gates=ShardedListAndWatch=true"}}, &env))
}

// objectCount is how many items the share test creates: 2,000 in make test, KGEN_SHARDING_OBJECTS
// (10,000 for the figure) when set.
func objectCount(def int) int {
	if n, err := strconv.Atoi(os.Getenv("KGEN_SHARDING_OBJECTS")); err == nil && n > 0 {
		return n
	}
	return def
}

// failoverBound is how long a dead replica's objects may wait for a new owner, counted from the kill:
// the bound, the Lease duration plus two retry periods.
const failoverBound = leaseDuration + 2*retryPeriod

func TestEachReplicaCachesItsShare(t *testing.T) {
	f := newFleet(t, "share")
	n := objectCount(2000)
	f.create(n)
	for range 3 {
		f.start("")
	}
	took := f.waitConverged(3 * time.Minute)
	t.Logf("%d items assigned and reconciled by 3 replicas in %v", n, took)
	limit := n/3 + n/30 // a third plus 10% of a third
	for _, r := range f.live() {
		// The informer may still hold an object whose move it has not seen; wait for the watch.
		deadline := time.Now().Add(10 * time.Second)
		for r.cacheSize() > limit && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("%s caches %d of %d items (%.1f%%)", r.id, r.cacheSize(), n, 100*float64(r.cacheSize())/float64(n))
		if r.cacheSize() > limit {
			t.Errorf("%s caches %d items, more than %d", r.id, r.cacheSize(), limit)
		}
	}
	f.rec.check(t)
}

func TestFailoverAndScaleOut(t *testing.T) {
	f := newFleet(t, "failover")
	f.create(160) // about 40 per replica: the time after a Lease expires grows with the dead replica's share
	for range 3 {
		f.start("")
	}
	f.waitConverged(time.Minute)

	for _, victim := range []string{"member", "coordinator"} {
		coord := f.coordinator()
		var dead *replica
		for _, r := range f.live() {
			if (victim == "coordinator") == (r == coord) {
				dead = r
				break
			}
		}
		// A new replica keeps three alive.
		f.start("")
		f.waitConverged(time.Minute)
		owned := f.ownedBy(dead.id)
		killedAt := time.Now()
		dead.kill()
		f.bump(owned)
		bumped := time.Since(killedAt)
		f.waitConverged(time.Minute)
		took := time.Since(killedAt)
		t.Logf("killed the %s %s at %s: its %d items (changed within %v) were reconciled elsewhere within %v", victim, dead.id,
			killedAt.Format("15:04:05.000"), len(owned), bumped.Round(time.Millisecond), took.Round(time.Millisecond))
		if took > failoverBound {
			t.Errorf("failover of the %s took %v, more than %v", victim, took, failoverBound)
		}
	}

	// An added replica takes about a quarter, within a few seconds.
	before := len(f.list())
	added := f.start("")
	addedAt := time.Now()
	f.waitConverged(time.Minute)
	checkAddedShare(t, f, added, before, time.Since(addedAt))
	f.rec.check(t)
}

func TestPausedPastItsLease(t *testing.T) {
	f := newFleet(t, "pause")
	f.create(200)
	for range 3 {
		f.start("")
	}
	f.waitConverged(time.Minute)
	var paused *replica
	for _, r := range f.live() {
		if r != f.coordinator() {
			paused = r
			break
		}
	}
	owned := f.ownedBy(paused.id)
	paused.pause()
	f.bump(owned)
	// The others take its items over while it is paused.
	var others []string
	for _, r := range f.live() {
		if r != paused {
			others = append(others, r.id)
		}
	}
	want := sharding.NewRing(others, 0)
	start := time.Now()
	for f.converged(want) != "" {
		if time.Since(start) > time.Minute {
			t.Fatalf("items of the paused replica not taken over: %s", f.converged(want))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("a paused replica's %d items were reconciled elsewhere within %v", len(owned), time.Since(start).Round(time.Millisecond))
	if paused.shard.IsMember() {
		t.Error("the paused replica still counts itself a member")
	}
	// Resumed, it finds its Lease fenced, rejoins once the fence expires and gets a share back.
	paused.resume()
	f.bump(nil)
	f.waitConverged(time.Minute)
	for len(f.ownedBy(paused.id)) == 0 {
		if time.Since(start) > time.Minute {
			t.Fatal("the resumed replica never got items back")
		}
		time.Sleep(100 * time.Millisecond)
	}
	f.waitConverged(time.Minute)
	f.rec.check(t)
}

func TestConflictingIdentityAndWrongRing(t *testing.T) {
	f := newFleet(t, "misconfig")
	f.create(100)
	a := f.start("a")
	f.start("b")
	f.waitConverged(time.Minute)

	// A second "a" waits while the first renews.
	dup := f.start("a")
	renewals := waitLeaseRenewals(t, f, "a", 4)
	if dup.shard.IsMember() {
		t.Fatalf("a replica with a live replica's identity joined (after %d renewals of the original)", renewals)
	}
	// Once the first dies, the twin takes its identity over and serves its items.
	owned := f.ownedBy("a")
	a.kill()
	f.bump(owned)
	took := f.waitConverged(time.Minute)
	t.Logf("the twin took over identity a and its %d items in %v", len(owned), took)

	// A replica with a wrong ring name takes none of this ring's items. It coordinates a ring of its
	// own, so it may take a share of new items; each still has exactly one owner.
	wrongRing := "wrong-" + f.ring
	wrong := f.startRing("c", wrongRing)
	f.bump(nil)
	f.waitConverged(time.Minute)
	if wrong.cacheSize() != 0 {
		t.Errorf("the wrong ring's replica caches %d of the ring's items", wrong.cacheSize())
	}
	f.create(50)
	deadline := time.Now().Add(time.Minute)
	for {
		unowned := 0
		for _, u := range f.list() {
			owners := 0
			for k := range u.GetLabels() {
				if strings.HasPrefix(k, sharding.ShardLabelPrefix) {
					owners++
				}
			}
			if owners > 1 {
				t.Fatalf("%s has %d owners: %v", u.GetName(), owners, u.GetLabels())
			}
			unowned += 1 - owners
		}
		if unowned == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d new items have no owner", unowned)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Once the misconfigured replica is gone, its ring has no live member and the right one takes its items.
	wrong.stop()
	f.bump(nil)
	f.waitConverged(time.Minute)
	if !dup.shard.IsMember() {
		t.Error("the twin is not a member after the original died")
	}
	f.rec.check(t)
}

// TestChaos runs at least twenty random kills, pauses past the Lease, API server restarts and added
// replicas while the items keep changing, and checks that no item was ever reconciled by two
// replicas at once and that every item converges.
func TestChaos(t *testing.T) {
	f := newFleet(t, "chaos")
	f.create(120)
	chaos(t, f)
}

// chaos starts three replicas of f, then runs twenty random events, two of them API server
// restarts, while a writer keeps changing items. It checks that no item was ever reconciled by two
// replicas at once and that every item converges, and reports how long after its write each
// change was reconciled.
func chaos(t *testing.T, f *fleet) {
	t.Logf("load average at the start: %s", loadAverage())
	for range 3 {
		f.start("")
	}
	f.waitConverged(time.Minute)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
	seedNote := "random events"
	events := map[string]int{}
	churnCtx, stopChurn := context.WithCancel(context.Background())
	churned := make(chan struct{})
	go func() { defer close(churned); f.churn(churnCtx, 50*time.Millisecond) }()
	defer func() { stopChurn(); <-churned }()
	var afterRestarts []time.Duration
	for i := 0; i < 20; i++ {
		live := f.live()
		kind := []string{"kill", "pause", "add", "stop"}[rng.IntN(4)]
		if len(live) <= 2 && (kind == "kill" || kind == "stop") {
			kind = "add"
		}
		if len(live) >= 5 && kind == "add" {
			kind = "kill"
		}
		if i == 6 || i == 14 {
			kind = "restart"
		}
		events[kind]++
		victim := live[rng.IntN(len(live))]
		f.lat.event(kind + " " + victim.id)
		switch kind {
		case "kill":
			victim.kill()
		case "stop":
			victim.stop()
		case "add":
			f.start("")
		case "pause":
			pausedAt := time.Now()
			victim.pause()
			f.bump(nil)
			time.Sleep(leaseDuration + retryPeriod - time.Since(pausedAt)) // the pause itself: past the Lease
			victim.resume()
		case "restart":
			// The restart meets the writer's steady changes, not the burst of 120 the previous
			// event's bump wrote a moment ago, which would all wait out the outage.
			f.waitConverged(time.Minute)
			f.lat.event("restarting")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			start := time.Now()
			if err := env.Restart(ctx); err != nil {
				cancel()
				t.Fatal(err)
			}
			cancel()
			f.lat.event("server back")
			// The writer's changes of the outage land now; everything converges once the replicas
			// renewed their Leases and their informers resumed.
			took := f.waitConvergedOnServer(time.Minute)
			t.Logf("API server restart took %v; converged %v after its return", time.Since(start)-took, took)
			afterRestarts = append(afterRestarts, took)
		}
		f.bump(nil)
		time.Sleep(time.Duration(rng.IntN(1000)) * time.Millisecond) // let reconciles and moves interleave with the next event
	}
	stopChurn()
	<-churned
	t.Logf("%s: %v", seedNote, events)
	f.rec.check(t)
	took := f.waitConverged(2 * time.Minute)
	t.Logf("converged %v after the last event with %d live replicas; after the restarts: %v", took, len(f.live()), afterRestarts)
	f.rec.check(t)
	// The targets (p99 6s, max 12s) are reported, not enforced: on the shared 2-vCPU test
	// machine, at load averages of 20 and more, renewals themselves miss the 2s renew deadline, and an
	// API server restart alone takes 9–15s, which a change written just before it waits out. The
	// report traces the slowest changes: informer events, guard calls (with membership), requeues of
	// parked keys, reconciles and failed writes, to tell which phase they waited in.
	n, p50, p99, worst := f.lat.summary()
	t.Logf("change-to-reconcile over %d changes: p50 %v, p99 %v, max %v (targets: p99 6s, max 12s); load average at the end: %s; slowest:\n%s",
		n, p50.Round(time.Millisecond), p99.Round(time.Millisecond), worst.Round(time.Millisecond), loadAverage(), f.lat.report())
}

// loadAverage returns the 1, 5 and 15 minute load averages, for the figures' context.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
