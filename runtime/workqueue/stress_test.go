package workqueue

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStress runs many producers and workers over a small key space with
// random re-adds, priorities and short real delays, and checks that no item is
// ever processed by two workers at once, that every add is eventually
// processed, and that the queue ends empty.
func TestStress(t *testing.T) {
	const (
		keys      = 1024
		producers = 8
		workers   = 16
		perProd   = 50_000 // 400k adds from producers, plus workers' re-adds
	)
	q := NewTypedRateLimitingQueue(NewTypedItemExponentialFailureRateLimiter[int](time.Microsecond, 50*time.Microsecond))

	var inFlight [keys]atomic.Int32
	// pendingAdd[k] is set before an add of k and cleared by the worker that
	// starts processing k, so a set flag after the queue drains is a lost add.
	var pendingAdd [keys]atomic.Bool
	var processed atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 99))
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				pendingAdd[k].Store(false)
				if inFlight[k].Add(1) != 1 {
					t.Errorf("item %d processed by two workers at once", k)
				}
				processed.Add(1)
				if rng.IntN(8) == 0 {
					pendingAdd[k].Store(true)
					q.AddRateLimited(k) // retry with backoff
				} else if rng.IntN(16) == 0 {
					q.Forget(k)
				}
				inFlight[k].Add(-1)
				q.Done(k)
			}
		})
	}
	var producing sync.WaitGroup
	for p := range producers {
		producing.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(p), 7))
			for range perProd {
				k := rng.IntN(keys)
				pendingAdd[k].Store(true)
				switch rng.IntN(10) {
				case 0:
					q.AddAfter(k, time.Duration(rng.IntN(100))*time.Microsecond)
				case 1:
					q.AddWithOpts(AddOpts{Priority: rng.IntN(3) - 1}, k)
				default:
					q.Add(k)
				}
			}
		})
	}
	producing.Wait()
	// Let delayed adds and retries settle: workers stop retrying once asked.
	deadline := time.Now().Add(30 * time.Second)
	for {
		q.mu.Lock()
		idle := q.items.n == 0 && q.waiting.len() == 0
		q.mu.Unlock()
		if idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("queue never went idle")
		}
		time.Sleep(time.Millisecond)
	}
	q.ShutDownWithDrain()
	wg.Wait()
	for k := range keys {
		if pendingAdd[k].Load() {
			t.Errorf("an add of item %d was lost", k)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("queue not empty: Len = %d", q.Len())
	}
	if processed.Load() < keys {
		t.Fatalf("only %d items processed", processed.Load())
	}
	t.Logf("%d items processed", processed.Load())
}
