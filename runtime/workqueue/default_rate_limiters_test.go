package workqueue

import (
	"math"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestItemExponentialFailureRateLimiter(t *testing.T) {
	l := NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
	for i, want := range []time.Duration{1, 2, 4, 8, 16} {
		if got := l.When("a"); got != want*time.Millisecond {
			t.Fatalf("When #%d = %v, want %v", i, got, want*time.Millisecond)
		}
	}
	if got := l.NumRequeues("a"); got != 5 {
		t.Fatalf("NumRequeues = %d, want 5", got)
	}
	if got := l.When("b"); got != time.Millisecond {
		t.Fatalf("items are independent: When(b) = %v", got)
	}
	for range 20 {
		l.When("a")
	}
	if got := l.When("a"); got != time.Second {
		t.Fatalf("capped: When = %v, want 1s", got)
	}
	l.Forget("a")
	if got := l.NumRequeues("a"); got != 0 {
		t.Fatalf("NumRequeues after Forget = %d", got)
	}
	if got := l.When("a"); got != time.Millisecond {
		t.Fatalf("When after Forget = %v", got)
	}
}

func TestItemExponentialFailureRateLimiterDoesNotOverflow(t *testing.T) {
	l := NewTypedItemExponentialFailureRateLimiter[int](time.Second, math.MaxInt64)
	prev := time.Duration(0)
	for i := range 200 {
		d := l.When(1)
		if d < prev || d <= 0 {
			t.Fatalf("When #%d = %v after %v: overflowed", i, d, prev)
		}
		prev = d
	}
	if prev != math.MaxInt64 {
		t.Fatalf("final delay %v, want the cap", prev)
	}
	for _, tc := range []struct {
		base, max time.Duration
		exp       int
		want      time.Duration
	}{
		{1, 1 << 40, 62, 1 << 40},
		{3, math.MaxInt64, 62, math.MaxInt64},
		{0, time.Second, 1000, 0},
		{time.Millisecond, time.Hour, 1 << 30, time.Hour},
	} {
		if got := backoff(tc.base, tc.max, tc.exp); got != tc.want {
			t.Errorf("backoff(%v, %v, %d) = %v, want %v", tc.base, tc.max, tc.exp, got, tc.want)
		}
	}
}

func TestFailureRecordsExpireWithoutForget(t *testing.T) {
	c := newFakeClock()
	l := NewTypedItemExponentialFailureRateLimiter[int](time.Millisecond, time.Second,
		WithLimiterClock(c), WithForgetAfter(time.Hour)).(*TypedItemExponentialFailureRateLimiter[int])
	for i := range 10_000 {
		l.When(i)
	}
	if got := l.failures.tracked(); got != 10_000 {
		t.Fatalf("tracked = %d", got)
	}
	c.Step(59 * time.Minute)
	if got := l.NumRequeues(1); got != 1 {
		t.Fatalf("record expired early: NumRequeues = %d", got)
	}
	c.Step(time.Minute)
	if got := l.NumRequeues(1); got != 0 {
		t.Fatalf("expired record still counts: NumRequeues = %d", got)
	}
	if got := l.When(1); got != time.Millisecond {
		t.Fatalf("expired record still backs off: When = %v", got)
	}
	// Any later failure sweeps the expired records.
	c.Step(time.Hour)
	l.When(-1)
	if got := l.failures.tracked(); got > 2 {
		t.Fatalf("%d records kept after expiry, want at most 2", got)
	}
}

func TestDefaultFailureRecordLifetime(t *testing.T) {
	c := newFakeClock()
	l := NewTypedItemExponentialFailureRateLimiter[int](time.Millisecond, time.Hour, WithLimiterClock(c))
	l.When(1)
	c.Step(2*time.Hour - time.Second)
	if l.NumRequeues(1) != 1 {
		t.Fatal("record expired before twice the longest delay")
	}
	c.Step(time.Second)
	if l.NumRequeues(1) != 0 {
		t.Fatal("record outlived twice the longest delay")
	}
	short := NewTypedItemFastSlowRateLimiter[int](time.Millisecond, time.Second, 1, WithLimiterClock(c))
	short.When(1)
	c.Step(minForgetAfter - time.Second)
	if short.NumRequeues(1) != 1 {
		t.Fatal("record expired before the ten minute minimum")
	}
}

func TestItemFastSlowRateLimiter(t *testing.T) {
	l := NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 10*time.Second, 3)
	for i, want := range []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond, 10 * time.Second, 10 * time.Second} {
		if got := l.When("a"); got != want {
			t.Fatalf("When #%d = %v, want %v", i, got, want)
		}
	}
	if got := l.NumRequeues("a"); got != 5 {
		t.Fatalf("NumRequeues = %d", got)
	}
	l.Forget("a")
	if got := l.When("a"); got != 5*time.Millisecond {
		t.Fatalf("When after Forget = %v", got)
	}
}

func TestBucketRateLimiter(t *testing.T) {
	c := newFakeClock()
	l := &TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(10, 2), Clock: c}
	for i, want := range []time.Duration{0, 0, 100 * time.Millisecond, 200 * time.Millisecond} {
		if got := l.When("a"); got != want {
			t.Fatalf("When #%d = %v, want %v", i, got, want)
		}
	}
	if l.NumRequeues("a") != 0 {
		t.Fatal("bucket counts requeues")
	}
	l.Forget("a")
	real := &BucketRateLimiter{Limiter: rate.NewLimiter(rate.Inf, 1)}
	if got := real.When(1); got != 0 {
		t.Fatalf("real clock: When = %v", got)
	}
}

func TestMaxOfRateLimiter(t *testing.T) {
	l := NewTypedMaxOfRateLimiter(
		NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 3*time.Second, 3),
		NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
	)
	for i, want := range []time.Duration{5, 5, 5, 3000, 3000} {
		if got := l.When("a"); got != want*time.Millisecond {
			t.Fatalf("When #%d = %v, want %vms", i, got, want)
		}
	}
	if got := l.NumRequeues("a"); got != 5 {
		t.Fatalf("NumRequeues = %d", got)
	}
	l.Forget("a")
	if got := l.NumRequeues("a"); got != 0 {
		t.Fatalf("NumRequeues after Forget = %d", got)
	}
}

func TestWithMaxWaitRateLimiter(t *testing.T) {
	l := NewTypedWithMaxWaitRateLimiter(NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Hour), 3*time.Second)
	for i, want := range []time.Duration{1, 2, 3, 3} {
		if got := l.When("a"); got != want*time.Second {
			t.Fatalf("When #%d = %v, want %vs", i, got, want)
		}
	}
	if got := l.NumRequeues("a"); got != 4 {
		t.Fatalf("NumRequeues = %d", got)
	}
	l.Forget("a")
	if got := l.NumRequeues("a"); got != 0 {
		t.Fatalf("NumRequeues after Forget = %d", got)
	}
	untyped := NewWithMaxWaitRateLimiter(NewItemExponentialFailureRateLimiter(time.Second, time.Hour), time.Second)
	untyped.When(1)
	if got := untyped.When(1); got != time.Second {
		t.Fatalf("untyped When = %v", got)
	}
}

func TestDefaultControllerRateLimiter(t *testing.T) {
	l := DefaultTypedControllerRateLimiter[string]()
	// The first 100 failures fit the bucket's burst; backoff starts at 5ms.
	for i, want := range []time.Duration{5, 10, 20, 40} {
		if got := l.When("a"); got != want*time.Millisecond {
			t.Fatalf("When #%d = %v, want %vms", i, got, want)
		}
	}
	many := DefaultControllerRateLimiter()
	var last time.Duration
	for i := range 200 {
		last = many.When(i)
	}
	// Beyond the burst, the 10 qps bucket dominates: ~10s for 100 more.
	if last < 9*time.Second || last > 11*time.Second {
		t.Fatalf("bucket delay after 200 distinct failures = %v", last)
	}
	if got := DefaultItemBasedRateLimiter().When(1); got != time.Millisecond {
		t.Fatalf("item based: When = %v", got)
	}
	if got := NewItemFastSlowRateLimiter(time.Millisecond, time.Second, 1).When(1); got != time.Millisecond {
		t.Fatalf("untyped fast-slow: When = %v", got)
	}
	if got := NewMaxOfRateLimiter(DefaultItemBasedRateLimiter()).When(1); got != time.Millisecond {
		t.Fatalf("untyped max-of: When = %v", got)
	}
}
