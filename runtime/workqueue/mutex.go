package workqueue

import (
	"sync"
	"sync/atomic"
	"time"
)

// backoffMutex is a sync.Mutex whose Lock, when the mutex is held, polls it
// with exponentially growing pauses before blocking on it; one waiter at a
// time polls, and the others block at once.
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
// Only one waiter polls because a poller keeps its processor busy: with more
// waiters than cores, the pollers would occupy every core while the goroutine
// that holds the mutex, or the one that would take it next, waits to be
// scheduled. With 4 workers and a producer on a 2-core VM, letting every
// waiter poll made the queue 1.3-1.4x client-go's throughput in a backlog;
// one poller made it 1.35-2.3x over five runs, 1.7x in the median. A
// waiter that blocks at once still gets sync.Mutex's own brief spinning when
// the runtime sees an idle processor.
//
// The pauses are lengths of time, not iteration counts: the first time a
// Lock finds the mutex held, the package measures how fast this CPU runs the
// spin loop (pauseLengths), so the pauses are the same on any core,
// whatever its clock or microarchitecture.
//
// After lockPolls polls (about 120µs) the waiter blocks in sync.Mutex.Lock.
// So a long hold, such as the timer goroutine promoting a large batch, parks
// waiters as usual, and sync.Mutex's starvation mode still bounds how long
// any waiter can be overtaken. Unlike sync.Mutex, a waiter polls even with
// GOMAXPROCS=1, where it can only find the mutex held if the holder was
// preempted inside its few dozen nanoseconds; asking the runtime for
// GOMAXPROCS takes the scheduler's global lock, a worse cost on every
// contended Lock than those rare polls.
type backoffMutex struct {
	sync.Mutex
	pollers atomic.Int32 // waiters in lockContended, at most one of them polling
}

const (
	// firstPause and maxPause bound the pauses between polls. Each time the
	// mutex changes cores, the new core fetches the lines of the mutex and of
	// the queue's hot data from the old one: a microsecond or two of cache
	// misses on a VM. Even the first pause is long against that, so a core
	// that lost the mutex leaves it to the other for dozens of operations
	// instead of taking it back after a few. On a 2-vCPU EPYC VM, 2.8µs
	// doubling to 20µs made contended Add→Get→Done cycles 10-30% faster than
	// 0.7µs doubling to 5µs, and twice as long pauses gained nothing more. A
	// waiter that would have found the mutex free sooner loses at most one
	// pause, microseconds against the milliseconds a work item takes.
	firstPause = 2800 * time.Nanosecond
	maxPause   = 20 * time.Microsecond
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
	if m.pollers.Add(1) > 1 { // another waiter is polling
		m.pollers.Add(-1)
		m.Mutex.Lock()
		return
	}
	defer m.pollers.Add(-1)
	lengths := pauses()
	pause := lengths.first
	for range lockPolls {
		spin(pause)
		if m.TryLock() {
			return
		}
		pause = min(2*pause, lengths.max)
	}
	m.Mutex.Lock()
}

// spinLengths are firstPause and maxPause in iterations of spin on this CPU.
type spinLengths struct{ first, max int }

// pauses measures the spin lengths once, when a Lock first finds the mutex held.
var pauses = sync.OnceValue(func() spinLengths { return pauseLengths(measureSpin) })

// calibrationIterations is how many iterations one timing of spin runs: tens
// of microseconds, long against the clock's resolution and short enough to
// run a few times unnoticed.
const calibrationIterations = 1 << 16

// measureSpin times calibrationIterations iterations of spin.
func measureSpin() time.Duration {
	start := time.Now()
	spin(calibrationIterations)
	return time.Since(start)
}

// pauseLengths converts the pause bounds to spin iterations from timings of
// calibrationIterations iterations. It keeps the fastest of a few timings, as
// a timing the scheduler interrupted is too slow, never too fast; pauses are
// at least 16 and 128 iterations should every timing fail.
func pauseLengths(measure func() time.Duration) spinLengths {
	best := time.Duration(0)
	for range 5 {
		if d := measure(); d > 0 && (best == 0 || d < best) {
			best = d
		}
	}
	lengths := spinLengths{first: 16, max: 128}
	if best > 0 {
		perIteration := float64(best) / calibrationIterations
		lengths.first = max(lengths.first, int(float64(firstPause)/perIteration))
		lengths.max = max(lengths.max, int(float64(maxPause)/perIteration))
	}
	return lengths
}

// spin busy-waits for n iterations without touching shared memory. It is
// not inlined, so the compiler cannot drop the loop.
//
//go:noinline
func spin(n int) {
	for range n {
	}
}
