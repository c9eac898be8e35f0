package workqueue

import (
	"testing"
	"time"
)

func newFakeDelayingQueue(t *testing.T) (*Typed[string], *testingClock) {
	t.Helper()
	c := &testingClock{FakeClock: newFakeClock()}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Clock: c})
	t.Cleanup(q.ShutDown)
	return q, c
}

// waitForTimer blocks until the queue's timer goroutine has armed a timer.
func waitForTimer(t *testing.T, c *testingClock) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !c.HasWaiters() {
		if time.Now().After(deadline) {
			t.Fatal("the queue never armed a timer")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAddAfterWaitsForTheDelay(t *testing.T) {
	q, c := newFakeDelayingQueue(t)
	q.AddAfter("a", time.Minute)
	waitForTimer(t, c)
	c.Step(59 * time.Second)
	if got := q.Len(); got != 0 {
		t.Fatalf("Len = %d before the delay passed", got)
	}
	c.Step(time.Second)
	if got := mustGet(t, q); got != "a" {
		t.Fatalf("Get = %q", got)
	}
}

func TestAddAfterSteppedBeforeTheTimerIsArmed(t *testing.T) {
	// The clock may move before the timer goroutine has armed its timer; the
	// item must still come out.
	q, c := newFakeDelayingQueue(t)
	q.AddAfter("a", time.Second)
	c.Step(time.Second)
	if got := mustGet(t, q); got != "a" {
		t.Fatalf("Get = %q", got)
	}
}

func TestAddAfterNonPositiveAddsNow(t *testing.T) {
	q, _ := newFakeDelayingQueue(t)
	q.AddAfter("a", 0)
	q.AddAfter("b", -time.Second)
	if got := q.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2", got)
	}
}

func TestAddAfterEarliestTimeWins(t *testing.T) {
	q, c := newFakeDelayingQueue(t)
	q.AddAfter("a", time.Hour)
	q.AddAfter("a", time.Minute) // earlier: moves the item up
	q.AddAfter("a", 2*time.Hour) // later: ignored
	c.Step(time.Minute)
	if got := mustGet(t, q); got != "a" {
		t.Fatalf("Get = %q", got)
	}
	q.Done("a")
	c.Step(3 * time.Hour)
	q.AddAfter("sentinel", 0)
	if got := mustGet(t, q); got != "sentinel" {
		t.Fatalf("a was added twice: Get = %q", got)
	}
}

func TestAddAfterServesInReadyOrder(t *testing.T) {
	q, c := newFakeDelayingQueue(t)
	q.AddAfter("c", 3*time.Second)
	q.AddAfter("a", 1*time.Second)
	q.AddAfter("d", 4*time.Second)
	q.AddAfter("b", 2*time.Second)
	c.Step(10 * time.Second)
	for _, want := range []string{"a", "b", "c", "d"} {
		if got := mustGet(t, q); got != want {
			t.Fatalf("Get = %q, want %q", got, want)
		}
	}
}

func TestAddAfterOfAQueuedItemDedups(t *testing.T) {
	q, c := newFakeDelayingQueue(t)
	q.Add("a")
	q.AddAfter("a", time.Second)
	c.Step(time.Second)
	waitPromoted(t, q)
	q.AddAfter("b", 0)
	// a, once due, merged with the queued a.
	if got := q.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2", got)
	}
	if got := mustGet(t, q); got != "a" {
		t.Fatalf("Get = %q", got)
	}
	if got := mustGet(t, q); got != "b" {
		t.Fatalf("Get = %q", got)
	}
}

func TestShutDownDropsDelayedItemsAndStopsTheTimerGoroutine(t *testing.T) {
	c := &testingClock{FakeClock: newFakeClock()}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Clock: c})
	q.AddAfter("a", time.Second)
	waitForTimer(t, c)
	q.ShutDown()
	if c.HasWaiters() {
		t.Fatal("timer still armed after ShutDown")
	}
	c.Step(time.Hour)
	if _, shutdown := q.Get(); !shutdown {
		t.Fatal("a delayed item survived ShutDown")
	}
	// goleak in TestMain checks that the timer goroutine is gone.
}

func TestDelayedAddWakesBlockedGet(t *testing.T) {
	q, c := newFakeDelayingQueue(t)
	got := getAsync[string](q)
	q.AddAfter("a", time.Second)
	waitForTimer(t, c)
	c.Step(time.Second)
	if item := <-got; item != "a" {
		t.Fatalf("Get = %q", item)
	}
}

func TestDelayingConstructors(t *testing.T) {
	c := newFakeClock()
	for _, q := range []TypedDelayingInterface[string]{
		NewTypedDelayingQueue[string](),
		NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Name: "d", Clock: c}),
	} {
		q.AddAfter("x", -1)
		if got := mustGet(t, q); got != "x" {
			t.Fatalf("Get = %q", got)
		}
		q.ShutDown()
	}
}

func TestReschedulingEarlierDoesNotPileUpEntries(t *testing.T) {
	q, c := newFakeDelayingQueue(t)
	for i := range 10_000 {
		q.AddAfter("a", time.Duration(10_000-i)*time.Hour)
		q.AddAfter("b", time.Duration(20_000-i)*time.Hour)
	}
	q.mu.Lock()
	entries, live := len(q.waiting.entries), q.waiting.len()
	q.mu.Unlock()
	if live != 2 || entries > 2*live+65 {
		t.Fatalf("%d heap entries for %d waiting items", entries, live)
	}
	c.Step(10_001 * time.Hour)
	for _, want := range []string{"a", "b"} {
		if got := mustGet(t, q); got != want {
			t.Fatalf("Get = %q, want %q", got, want)
		}
		q.Done(want)
	}
	if got := q.Len(); got != 0 {
		t.Fatalf("Len = %d", got)
	}
}
