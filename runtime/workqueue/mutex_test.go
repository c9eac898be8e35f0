package workqueue

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestBackoffMutexExcludes has more goroutines than cores increment a plain
// counter under the mutex: every increment must survive, and the race
// detector must see every access ordered by the mutex.
func TestBackoffMutexExcludes(t *testing.T) {
	const goroutines, increments = 16, 20_000
	var m backoffMutex
	counter := 0
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range increments {
				m.Lock()
				counter++
				m.Unlock()
			}
		})
	}
	wg.Wait()
	if counter != goroutines*increments {
		t.Fatalf("counter = %d, want %d: an increment ran outside the mutex", counter, goroutines*increments)
	}
	if n := m.pollers.Load(); n != 0 {
		t.Fatalf("%d waiters still counted as polling after every Lock returned; later waiters would never poll", n)
	}
}

// TestBackoffMutexBlocksPastPolling holds the mutex far longer than the
// polling budget: the waiter must stop polling and park in sync.Mutex.Lock,
// then get the mutex only once it is released.
func TestBackoffMutexBlocksPastPolling(t *testing.T) {
	var m backoffMutex
	var released atomic.Bool
	m.Lock()
	acquired := make(chan bool)
	go func() {
		m.Lock()
		acquired <- released.Load()
		m.Unlock()
	}()
	// A waiter that returned early would block on acquired instead of parking.
	waitFor(t, "the waiter to park in sync.Mutex.Lock", parkedInLock)
	released.Store(true)
	m.Unlock()
	if !<-acquired {
		t.Fatal("Lock returned before the mutex was released")
	}
}

// parkedInLock reports whether a goroutine waiting in backoffMutex.Lock is
// parked in sync.Mutex.Lock rather than running.
func parkedInLock() bool {
	buf := make([]byte, 1<<20)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "[sync.Mutex.Lock") && strings.Contains(g, "backoffMutex") {
			return true
		}
	}
	return false
}
