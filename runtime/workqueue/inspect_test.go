package workqueue

import (
	"sync"
	"testing"
	"time"
)

// Views of unexported state that only tests read, and ways to wait for it.

// tracked returns how many items have a failure record.
func (f *failures[T]) tracked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.counts)
}

// len returns the number of waiting items.
func (h *delayHeap[T]) len() int { return len(h.live) }

// waitingGetters returns how many Gets wait for an item.
func (q *Typed[T]) waitingGetters() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.getters
}

// waitReporter is a queue's lock as one of its condition variables sees it: only sync.Cond.Wait
// unlocks it through this view, so each Unlock reports a waiter.
type waitReporter struct {
	sync.Locker
	waiting chan<- struct{}
}

func (l waitReporter) Unlock() {
	l.Locker.Unlock()
	select {
	case l.waiting <- struct{}{}:
	default:
	}
}

// waitFor polls cond until it holds, failing the test after ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
