package workqueue

import (
	"testing"
	"time"
)

func TestRateLimitingQueue(t *testing.T) {
	c := newFakeClock()
	limiter := NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
	q := NewTypedRateLimitingQueueWithConfig(limiter, TypedRateLimitingQueueConfig[string]{Clock: c})
	defer q.ShutDown()
	var _ TypedRateLimitingInterface[string] = q
	var _ TypedPriorityInterface[string] = q

	q.AddRateLimited("a")
	q.AddRateLimited("a") // now 2ms; the 1ms wait wins
	if got := q.NumRequeues("a"); got != 2 {
		t.Fatalf("NumRequeues = %d", got)
	}
	if q.Len() != 0 {
		t.Fatal("rate-limited add was not delayed")
	}
	c.Step(time.Millisecond)
	if got := mustGet(t, q); got != "a" {
		t.Fatalf("Get = %q", got)
	}
	q.Forget("a")
	q.Done("a")
	if got := q.NumRequeues("a"); got != 0 {
		t.Fatalf("NumRequeues after Forget = %d", got)
	}
}

func TestRateLimitedAddWithOpts(t *testing.T) {
	c := newFakeClock()
	q := NewTypedRateLimitingQueueWithConfig(
		NewTypedItemFastSlowRateLimiter[string](time.Second, time.Minute, 1),
		TypedRateLimitingQueueConfig[string]{Clock: c})
	defer q.ShutDown()
	q.AddWithOpts(AddOpts{RateLimited: true, Priority: 2}, "a")         // 1s
	q.AddWithOpts(AddOpts{RateLimited: true, After: time.Hour}, "b")    // the longer wait wins: 1h
	q.AddWithOpts(AddOpts{Priority: 1}, "c")                            // now
	q.AddWithOpts(AddOpts{RateLimited: false, After: time.Second}, "d") // 1s
	if q.NumRequeues("c") != 0 || q.NumRequeues("a") != 1 {
		t.Fatal("only rate-limited adds consult the limiter")
	}
	c.Step(time.Second)
	for q.Len() != 3 {
		time.Sleep(time.Millisecond)
	}
	want := []string{"a", "c", "d"}
	if got := drain(t, q.Typed); !equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	c.Step(time.Hour)
	if got := mustGet(t, q); got != "b" {
		t.Fatalf("Get = %q", got)
	}
	q.Done("b")
}

func TestRateLimitingConstructors(t *testing.T) {
	for _, q := range []TypedRateLimitingInterface[int]{
		NewTypedRateLimitingQueue(DefaultTypedControllerRateLimiter[int]()),
		NewTypedRateLimitingQueueWithConfig(DefaultTypedItemBasedRateLimiter[int](), TypedRateLimitingQueueConfig[int]{Name: "rl"}),
	} {
		q.Add(1)
		if got := mustGet(t, q); got != 1 {
			t.Fatalf("Get = %d", got)
		}
		q.Done(1)
		q.ShutDown()
	}
	q := NewRateLimitingQueueWithConfig(DefaultControllerRateLimiter(), RateLimitingQueueConfig{})
	q.AddRateLimited("x")
	q.ShutDown()
}
