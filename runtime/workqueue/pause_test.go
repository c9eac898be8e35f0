package workqueue

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	testingclock "k8s.io/utils/clock/testing"
)

// waitGetters waits until n Gets are parked in q.
func waitGetters[T comparable](t *testing.T, q *Typed[T], n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		q.mu.Lock()
		got := q.getters
		q.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d Gets parked, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestPauseHoldsGetUntilResume(t *testing.T) {
	var q Pausable = NewTypedRateLimitingQueue(DefaultTypedControllerRateLimiter[int]())
	rq := q.(*TypedRateLimiting[int])
	rq.Add(1)
	q.Pause()
	got := make(chan int)
	go func() {
		item, shutdown := rq.Get()
		if shutdown {
			item = -1
		}
		got <- item
	}()
	waitGetters(t, rq.Typed, 1) // parked although an item is queued
	rq.Add(2)
	rq.AddRateLimited(3)
	if n := rq.Len(); n != 2 {
		t.Fatalf("Len while paused = %d, want 2", n)
	}
	q.Resume()
	if item := <-got; item != 1 {
		t.Fatalf("Get after Resume = %d, want 1", item)
	}
	q.Resume() // resuming a running queue changes nothing
	if item := mustGet(t, rq.Typed); item != 2 {
		t.Fatalf("second Get = %d, want 2", item)
	}
	rq.ShutDown()
}

func TestShutDownOfAPausedQueueHandsOutNothing(t *testing.T) {
	q := NewTyped[int]()
	q.Add(1)
	q.Add(2)
	if got := mustGet(t, q); got != 1 {
		t.Fatalf("Get = %d", got)
	}
	q.Pause()
	drained := make(chan struct{})
	go func() { q.ShutDownWithDrain(); close(drained) }()
	if _, shutdown := q.Get(); !shutdown {
		t.Fatal("Get of a paused queue shutting down handed out an item")
	}
	q.Done(1) // the drain waits only for the item handed out before the pause
	<-drained
}

// panickyClock is a fake clock whose Now panics once armed.
type panickyClock struct {
	*testingclock.FakeClock
	armed atomic.Bool
}

func (c *panickyClock) Now() time.Time {
	if c.armed.Load() {
		panic("clock broke")
	}
	return c.FakeClock.Now()
}

func TestLoggerReportsAPanicOfTheTimerGoroutine(t *testing.T) {
	crash := utilruntime.ReallyCrash
	utilruntime.ReallyCrash = false // log without crashing the test binary
	t.Cleanup(func() { utilruntime.ReallyCrash = crash })
	logged := make(chan string, 1)
	logger := funcr.New(func(prefix, args string) {
		select {
		case logged <- args:
		default:
		}
	}, funcr.Options{})
	clk := &panickyClock{FakeClock: testingclock.NewFakeClock(time.Now())}
	q := NewTypedWithConfig(TypedQueueConfig[int]{Clock: clk, Logger: &logger})
	q.AddAfter(1, time.Second)
	for !clk.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	clk.armed.Store(true)
	clk.Step(time.Second)
	if line := <-logged; !strings.Contains(line, "clock broke") {
		t.Fatalf("logged %q", line)
	}
	clk.armed.Store(false)
	q.ShutDown()
}
