package workqueue

import (
	"testing"
	"time"
)

func drain[T comparable](t *testing.T, q *Typed[T]) []T {
	t.Helper()
	var got []T
	for q.Len() > 0 {
		item := mustGet(t, q)
		got = append(got, item)
		q.Done(item)
	}
	return got
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestHigherPriorityFirstFIFOWithin(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.AddWithOpts(AddOpts{Priority: -1}, "resync1", "resync2")
	q.Add("live1")
	q.AddWithOpts(AddOpts{Priority: 10}, "urgent")
	q.Add("live2")
	q.AddWithOpts(AddOpts{Priority: -1}, "resync3")
	want := []string{"urgent", "live1", "live2", "resync1", "resync2", "resync3"}
	if got := drain(t, q); !equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestReAddRaisesButNeverLowersPriority(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.AddWithOpts(AddOpts{Priority: -1}, "a", "b", "c")
	q.Add("x")
	q.Add("b")                                // raised to 0, behind x
	q.AddWithOpts(AddOpts{Priority: -5}, "x") // not lowered
	if got := q.Len(); got != 4 {
		t.Fatalf("Len = %d, want 4", got)
	}
	want := []string{"x", "b", "a", "c"}
	if got := drain(t, q); !equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// The obsolete low-priority entry of b must not resurface.
	q.Add("z")
	if got := drain(t, q); !equal(got, []string{"z"}) {
		t.Fatalf("got %v after the raise", got)
	}
}

func TestRaisedItemReaddedLowIsServedInItsNewPlace(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.AddWithOpts(AddOpts{Priority: -1}, "a", "b")
	q.Add("a") // raise a: its -1 entry becomes obsolete
	if got := mustGet(t, q); got != "a" {
		t.Fatalf("Get = %q", got)
	}
	q.Done("a")
	q.AddWithOpts(AddOpts{Priority: -1}, "a") // behind b now
	want := []string{"b", "a"}
	if got := drain(t, q); !equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestPriorityOfAnAddWhileProcessing(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("a")
	a := mustGet(t, q)
	q.AddWithOpts(AddOpts{Priority: -1}, "a")
	q.AddWithOpts(AddOpts{Priority: 3}, "a")
	q.AddWithOpts(AddOpts{Priority: 1}, "b")
	q.Done(a)
	want := []string{"a", "b"}
	if got := drain(t, q); !equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestDelayedAddWithPriority(t *testing.T) {
	c := newFakeClock()
	q := NewTypedWithConfig(TypedQueueConfig[string]{Clock: c})
	defer q.ShutDown()
	q.Add("live")
	q.AddWithOpts(AddOpts{Priority: 5, After: time.Second}, "retry")
	q.AddWithOpts(AddOpts{Priority: 1, After: time.Hour}, "retry") // keeps the earlier time
	c.Step(time.Second)
	for q.Len() != 2 {
		time.Sleep(time.Millisecond)
	}
	want := []string{"retry", "live"}
	if got := drain(t, q); !equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestManyPrioritiesDoNotAccumulateLevels(t *testing.T) {
	q := NewTyped[int]()
	defer q.ShutDown()
	for i := range 1000 {
		q.AddWithOpts(AddOpts{Priority: i}, i)
		q.Done(mustGet(t, q))
	}
	if n := len(q.levels); n > maxIdleLevels {
		t.Fatalf("%d priority levels kept, want at most %d", n, maxIdleLevels)
	}
	for i := range 20 {
		q.AddWithOpts(AddOpts{Priority: i}, i)
	}
	got := drain(t, q)
	for i := range got {
		if got[i] != 19-i {
			t.Fatalf("order %v", got)
		}
	}
}
