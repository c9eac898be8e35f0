package workqueue

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestFIFOOrder(t *testing.T) {
	q := NewTyped[int]()
	defer q.ShutDown()
	for i := range 100 {
		q.Add(i)
	}
	if got := q.Len(); got != 100 {
		t.Fatalf("Len = %d, want 100", got)
	}
	for i := range 100 {
		if got := mustGet(t, q); got != i {
			t.Fatalf("Get #%d = %d", i, got)
		}
	}
	if got := q.Len(); got != 0 {
		t.Fatalf("Len = %d, want 0", got)
	}
}

func TestAddWhileQueuedIsDeduplicated(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("a")
	q.Add("b")
	q.Add("a")
	if got := q.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2", got)
	}
	if a, b := mustGet(t, q), mustGet(t, q); a != "a" || b != "b" {
		t.Fatalf("got %q, %q; want a, b (dedup keeps the first position)", a, b)
	}
}

func TestAddWhileProcessingRequeuesOnceAfterDone(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("a")
	item := mustGet(t, q)
	q.Add("a")
	q.Add("a")
	if got := q.Len(); got != 0 {
		t.Fatalf("item in progress must not be queued; Len = %d", got)
	}
	q.Done(item)
	if got := q.Len(); got != 1 {
		t.Fatalf("after Done, Len = %d, want 1", got)
	}
	q.Done(mustGet(t, q))
	if got := q.Len(); got != 0 {
		t.Fatalf("item requeued more than once; Len = %d", got)
	}
}

func TestNoItemHandedToTwoWorkers(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	first := mustGet(t, q)
	q.Add("a")
	second := getAsync[string](q)
	waitFor(t, "the second Get to wait while a is in progress", func() bool { return q.waitingGetters() == 1 })
	select {
	case <-second:
		t.Fatal("item handed out while still in progress")
	default:
	}
	q.Done(first)
	if got := <-second; got != "a" {
		t.Fatalf("second Get = %q", got)
	}
	q.Done("a")
	q.ShutDown()
}

func TestDoneOfUnknownItemIsIgnored(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("a")
	q.Done("a") // queued, not in progress
	q.Done("zzz")
	if got := q.Len(); got != 1 {
		t.Fatalf("Len = %d, want 1", got)
	}
}

func TestShutDownWakesEveryGet(t *testing.T) {
	q := NewTyped[int]()
	var wg sync.WaitGroup
	results := make(chan bool, 5)
	for range 5 {
		wg.Go(func() {
			_, shutdown := q.Get()
			results <- shutdown
		})
	}
	q.ShutDown()
	wg.Wait()
	close(results)
	for shutdown := range results {
		if !shutdown {
			t.Fatal("Get returned an item from an empty queue")
		}
	}
	if !q.ShuttingDown() {
		t.Fatal("ShuttingDown = false after ShutDown")
	}
}

func TestItemsQueuedBeforeShutDownAreStillHandedOut(t *testing.T) {
	q := NewTyped[int]()
	q.Add(1)
	q.Add(2)
	q.ShutDown()
	if got := mustGet(t, q); got != 1 {
		t.Fatalf("Get = %d", got)
	}
	if got := mustGet(t, q); got != 2 {
		t.Fatalf("Get = %d", got)
	}
	if _, shutdown := q.Get(); !shutdown {
		t.Fatal("Get after draining: want shutdown")
	}
}

func TestAddAfterShutDownIsIgnored(t *testing.T) {
	q := NewTyped[int]()
	q.ShutDown()
	q.Add(1)
	q.AddAfter(2, time.Hour)
	q.AddWithOpts(AddOpts{Priority: 5}, 3)
	if got := q.Len(); got != 0 {
		t.Fatalf("Len = %d, want 0", got)
	}
	q.ShutDown() // a second call is harmless
}

func TestShutDownWithDrainWaitsForDone(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	a, b := mustGet(t, q), mustGet(t, q)
	waiting := make(chan struct{}, 1)
	q.idle.L = waitReporter{&q.mu, waiting}
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	<-waiting // the drain waits for a and b
	q.Done(a)
	// Wake the drain as a spurious wakeup would: with b in progress it must wait again.
	q.mu.Lock()
	q.idle.Broadcast()
	q.mu.Unlock()
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned with an item in progress")
	case <-waiting:
	}
	if !q.ShuttingDown() {
		t.Fatal("ShuttingDown = false during drain")
	}
	q.Add("c") // ignored while shutting down
	q.Done(b)
	<-drained
	if got := q.Len(); got != 0 {
		t.Fatalf("Len = %d after drain", got)
	}
}

func TestShutDownEndsADrain(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	mustGet(t, q)
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	for !q.ShuttingDown() {
		time.Sleep(time.Millisecond)
	}
	q.ShutDown()
	<-drained
}

func TestShutDownWithDrainOnIdleQueueReturns(t *testing.T) {
	q := NewTyped[int]()
	q.ShutDownWithDrain()
}

func TestUntypedConstructors(t *testing.T) {
	for name, q := range map[string]Interface{
		"New":                        New(),
		"NewNamed":                   NewNamed("x"),
		"NewWithConfig":              NewWithConfig(QueueConfig{Name: "y"}),
		"NewDelayingQueue":           NewDelayingQueue(),
		"NewNamedDelayingQueue":      NewNamedDelayingQueue("z"),
		"NewDelayingQueueWithConfig": NewDelayingQueueWithConfig(DelayingQueueConfig{}),
		"NewRateLimitingQueue":       NewRateLimitingQueue(DefaultControllerRateLimiter()),
		"NewNamedRateLimitingQueue":  NewNamedRateLimitingQueue(DefaultItemBasedRateLimiter(), "w"),
	} {
		q.Add("k")
		q.Add(1)
		var got []any
		for q.Len() > 0 {
			item, _ := q.Get()
			got = append(got, item)
			q.Done(item)
		}
		if !slices.Equal(got, []any{"k", 1}) {
			t.Errorf("%s: got %v", name, got)
		}
		q.ShutDown()
	}
}

func TestFIFOOrderAcrossRingGrowthAndShrink(t *testing.T) {
	q := NewTyped[int]()
	defer q.ShutDown()
	next, want := 0, 0
	// Grow deep, drain most, grow again, then trickle with a hundred items
	// queued: the ring wraps, doubles and, after the trickle, halves while
	// holding items.
	rounds := []struct{ add, get int }{{5000, 4990}, {3000, 10}, {100, 3100}, {100, 0}}
	for range 20000 {
		rounds = append(rounds, struct{ add, get int }{1, 1})
	}
	for _, round := range rounds {
		for range round.add {
			q.Add(next)
			next++
		}
		for range round.get {
			if got := mustGet(t, q); got != want {
				t.Fatalf("Get = %d, want %d", got, want)
			}
			q.Done(want)
			want++
		}
	}
	if got := q.Len(); got != next-want {
		t.Fatalf("Len = %d, want %d", got, next-want)
	}
	if size := len(q.levels[0].fifo.buf); size > 1024 {
		t.Fatalf("after the trickle the ring still has %d slots", size)
	}
}

// Every item added while Gets are blocked reaches a Get, however the adds interleave with the woken
// Gets: no wakeup is lost.
func TestEveryAddWakesAWaitingGet(t *testing.T) {
	for round := range 200 {
		q := NewTyped[int]()
		const getters, items = 8, 5
		got := make(chan int, getters)
		var wg sync.WaitGroup
		for range getters {
			wg.Go(func() {
				item, shutdown := q.Get()
				if !shutdown {
					got <- item // held, never Done: each item needs its own Get
				}
			})
		}
		for i := range items {
			if round%2 == 0 {
				time.Sleep(time.Duration(i) * 10 * time.Microsecond) // let some Gets wake between adds
			}
			q.Add(i)
		}
		var received []int
		timeout := time.After(5 * time.Second)
		for len(received) < items {
			select {
			case item := <-got:
				received = append(received, item)
			case <-timeout:
				t.Fatalf("round %d: %d of %d items reached a Get (%v); a wakeup was lost", round, len(received), items, received)
			}
		}
		q.ShutDown()
		wg.Wait()
		slices.Sort(received)
		if !slices.Equal(received, []int{0, 1, 2, 3, 4}) {
			t.Fatalf("round %d: Gets received %v", round, received)
		}
	}
}
