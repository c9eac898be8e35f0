package workqueue

import "sync"

// backoffMutex is a sync.Mutex whose Lock, when the mutex is held, polls it
// with exponentially growing pauses before blocking on it.
//
// The queue holds its mutex for a few dozen nanoseconds at a time, and its
// workers take it back to back (Add, Get, Done). If a waiting core polls
// without pausing, or parks and is woken at once, the mutex and the data it
// guards change cores on almost every acquisition, and each change moves
// their cache lines with it: on a 2-core VM, an Add→Get→Done cycle cost more
// than twice as much with 4 workers, and about 7x as much with 16, as with
// backoff. Growing pauses let the core that holds the mutex run many
// operations in a row with its caches warm while the other core stays off its
// lines (the classic remedy for test-and-set locks; Anderson, 1990).
//
// After lockPolls polls (about 30µs) the waiter blocks in sync.Mutex.Lock.
// So a long hold, such as the timer goroutine promoting a large batch, parks
// waiters as usual, and sync.Mutex's starvation mode still bounds how long
// any waiter can be overtaken. Unlike sync.Mutex, a waiter polls even with
// GOMAXPROCS=1, where it can only find the mutex held if the holder was
// preempted inside its few dozen nanoseconds; asking the runtime for
// GOMAXPROCS takes the scheduler's global lock, a worse cost on every
// contended Lock than those rare polls (measured with GOMAXPROCS=1: still
// 1.7x to 2.2x client-go's throughput).
type backoffMutex struct{ sync.Mutex }

const (
	// firstPause and maxPause bound the spin iterations between polls; an
	// iteration is about a third of a nanosecond on a 3 GHz core, so pauses
	// grow from about 0.7µs to about 5µs. Even the first pause spans several
	// operations of the holder: when both cores run workers, a core that just
	// lost the mutex then leaves it to the other for a while instead of taking
	// it straight back (4 iterations instead cost 15% of throughput with 4
	// workers). A waiter that would have found the mutex free sooner loses
	// under a microsecond.
	firstPause = 1 << 11
	maxPause   = 1 << 14
	// lockPolls is how many polls Lock makes before blocking.
	lockPolls = 8
)

// Lock locks m, backing off while another goroutine holds it.
func (m *backoffMutex) Lock() {
	if !m.TryLock() {
		m.lockContended()
	}
}

func (m *backoffMutex) lockContended() {
	pause := firstPause
	for range lockPolls {
		spin(pause)
		if m.TryLock() {
			return
		}
		pause = min(2*pause, maxPause)
	}
	m.Mutex.Lock()
}

// spin busy-waits for n iterations without touching shared memory. It is
// not inlined, so the compiler cannot drop the loop.
//
//go:noinline
func spin(n int) {
	for range n {
	}
}
