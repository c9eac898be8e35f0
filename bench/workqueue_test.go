package bench

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cgwq "k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kgen-dev/kgen/runtime/workqueue"
)

// basicQueue is the part of both queues the Add→Get→Done benchmark drives.
type basicQueue interface {
	Add(string)
	Get() (string, bool)
	Done(string)
	ShutDown()
	ShutDownWithDrain()
}

// workqueueImpls are the queues compared side by side.
var workqueueImpls = []struct {
	name string
	new  func() basicQueue
}{
	{"kgen", func() basicQueue { return workqueue.NewTyped[string]() }},
	{"client-go", func() basicQueue { return cgwq.NewTyped[string]() }},
}

// intWorkqueueImpls are the queues of int keys compared side by side.
var intWorkqueueImpls = []struct {
	name string
	new  func() cgwq.TypedInterface[int]
}{
	{"kgen", func() cgwq.TypedInterface[int] { return workqueue.NewTyped[int]() }},
	{"client-go", func() cgwq.TypedInterface[int] { return cgwq.NewTyped[int]() }},
}

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("namespace-%d/object-%d", i%7, i)
	}
	return keys
}

// BenchmarkWorkqueue measures Add→Get→Done throughput; an op is one item
// taken by Get and marked Done, and in every case but hot one Add too.
//   - distinct: each worker adds a key never used before, then gets one and
//     marks it done, so every op is a full Add+Get+Done on a shallow queue
//     (client-go's BenchmarkQueue, with workers; int keys so no two ever clash).
//   - repeat: 16 shared keys are taken by Get before the timer starts and
//     stay in progress; each worker adds one of them, which only marks it to
//     be queued again on Done (an object changing again while a worker
//     handles it), then a key never used before, and gets and finishes one
//     item. Every op is the same work on a queue as shallow as distinct's.
//   - backlog: one producer adds 64Ki distinct string keys at once, as an
//     informer's initial list does, while the workers drain them; the next
//     batch starts once the last is done, so every op is a full Add+Get+Done
//     on a deep queue.
//   - hot: one producer adds 16 string keys round robin as fast as it can
//     while the workers drain, so most adds find the item already queued or
//     in progress; an op is one item processed, and adds/op reports how many
//     adds the producer made meanwhile (per add alone, a queue would look
//     faster the more it starved its workers).
func BenchmarkWorkqueue(b *testing.B) {
	for _, loop := range []struct {
		name   string
		repeat bool
	}{{"distinct", false}, {"repeat", true}} {
		for _, workers := range []int{1, 4, 16} {
			for _, impl := range intWorkqueueImpls {
				b.Run(fmt.Sprintf("%s/workers=%d/%s", loop.name, workers, impl.name), func(b *testing.B) {
					benchClosedLoop(b, impl.new(), workers, loop.repeat)
				})
			}
		}
	}
	keys := benchKeys(1 << 16)
	for _, workers := range []int{1, 4, 16} {
		for _, impl := range workqueueImpls {
			b.Run(fmt.Sprintf("backlog/workers=%d/%s", workers, impl.name), func(b *testing.B) {
				benchBacklog(b, impl.new(), keys, workers)
			})
		}
	}
	hot := benchKeys(16)
	for _, workers := range []int{1, 4, 16} {
		for _, impl := range workqueueImpls {
			b.Run(fmt.Sprintf("hot/workers=%d/%s", workers, impl.name), func(b *testing.B) {
				benchHot(b, impl.new(), hot, workers)
			})
		}
	}
}

// benchBacklog adds the keys in batches of len(keys) distinct ones; workers
// drain each batch before the next is added, so no add ever deduplicates.
func benchBacklog(b *testing.B, q basicQueue, keys []string, workers int) {
	var finished, batch sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	for range workers {
		finished.Go(func() {
			for {
				key, shutdown := q.Get()
				if shutdown {
					return
				}
				q.Done(key)
				batch.Done()
			}
		})
	}
	for added := 0; added < b.N; {
		n := min(len(keys), b.N-added)
		batch.Add(n)
		for _, key := range keys[:n] {
			q.Add(key)
		}
		batch.Wait()
		added += n
	}
	q.ShutDownWithDrain()
	finished.Wait()
}

// benchClosedLoop has each worker add a key never used before, get an item and
// mark it done. With repeat, each op first also adds one of 16 keys that are
// held in progress throughout (negative, so never fresh); the fresh key still
// guarantees an item for Get.
func benchClosedLoop(b *testing.B, q cgwq.TypedInterface[int], workers int, repeat bool) {
	const held = 16
	if repeat {
		for key := -held; key < 0; key++ {
			q.Add(key)
			q.Get()
		}
	}
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	for w := range workers {
		wg.Go(func() {
			for key := w; key < b.N; key += workers {
				if repeat {
					q.Add(-1 - key%held)
				}
				q.Add(key)
				got, _ := q.Get()
				q.Done(got)
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	q.ShutDown()
}

// benchHot has one producer add keys round robin until the workers have
// processed b.N items. Workers publish their counts every hotBatch items, so
// counting adds no contended write per item; the run may overshoot b.N by
// less than hotBatch items per worker, which only makes ns/op pessimistic.
func benchHot(b *testing.B, q basicQueue, keys []string, workers int) {
	const hotBatch = 64
	var wg sync.WaitGroup
	var processed atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	for range workers {
		wg.Go(func() {
			n := 0
			for {
				key, shutdown := q.Get()
				if shutdown {
					processed.Add(int64(n))
					return
				}
				q.Done(key)
				if n++; n == hotBatch {
					processed.Add(hotBatch)
					n = 0
				}
			}
		})
	}
	adds := 0
	for processed.Load() < int64(b.N) {
		for _, key := range keys {
			q.Add(key)
		}
		adds += len(keys)
	}
	b.StopTimer()
	q.ShutDown()
	wg.Wait()
	b.ReportMetric(float64(adds)/float64(b.N), "adds/op")
}

// delayingQueue is the part of both queues the AddAfter benchmark drives.
type delayingQueue interface {
	AddAfter(string, time.Duration)
	Get() (string, bool)
	Done(string)
	Len() int
	ShutDown()
}

// BenchmarkWorkqueueAddAfter measures AddAfter with about 10k timers pending:
// each op adds a key with a delay of 10s plus up to 1s of jitter on a fake
// clock, and every 100 ops the clock moves 100ms and the items that came due
// are taken and marked done, so an op also carries its share of the timer
// work and of one Get and Done.
func BenchmarkWorkqueueAddAfter(b *testing.B) {
	const (
		delay  = 10 * time.Second
		jitter = time.Second
		batch  = 100
		step   = 100 * time.Millisecond
	)
	keys := benchKeys(1 << 16)
	for _, impl := range []struct {
		name string
		new  func(*testingclock.FakeClock) delayingQueue
	}{
		{"kgen", func(c *testingclock.FakeClock) delayingQueue {
			return workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Clock: c})
		}},
		{"client-go", func(c *testingclock.FakeClock) delayingQueue {
			return cgwq.NewTypedDelayingQueueWithConfig(cgwq.TypedDelayingQueueConfig[string]{Clock: c})
		}},
	} {
		b.Run(impl.name, func(b *testing.B) {
			clk := testingclock.NewFakeClock(time.Now())
			q := impl.new(clk)
			defer q.ShutDown()
			rng := rand.New(rand.NewPCG(1, 2))
			next := 0
			add := func() {
				q.AddAfter(keys[next&(len(keys)-1)], delay+time.Duration(rng.Int64N(int64(jitter))))
				next++
			}
			// Fill up to the steady state of ~10k pending.
			for range int((delay + jitter/2) / step) {
				for range batch {
					add()
				}
				clk.Step(step)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				add()
				if i%batch == batch-1 {
					clk.Step(step)
					for q.Len() > 0 {
						key, _ := q.Get()
						q.Done(key)
					}
				}
			}
		})
	}
}

// BenchmarkWorkqueueRateLimited measures AddRateLimited, Get, Done and Forget:
// the retry path of a controller, with the default controller rate limiter
// whose bucket never runs dry here and a clock that makes every backoff due.
func BenchmarkWorkqueueRateLimited(b *testing.B) {
	keys := benchKeys(1 << 10)
	type rlQueue interface {
		delayingQueue
		AddRateLimited(string)
		Forget(string)
	}
	for _, impl := range []struct {
		name string
		new  func() rlQueue
	}{
		{"kgen", func() rlQueue {
			return workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](0, 0))
		}},
		{"client-go", func() rlQueue {
			return cgwq.NewTypedRateLimitingQueue(cgwq.NewTypedItemExponentialFailureRateLimiter[string](0, 0))
		}},
	} {
		b.Run(impl.name, func(b *testing.B) {
			q := impl.new()
			defer q.ShutDown()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				key := keys[i&(len(keys)-1)]
				q.AddRateLimited(key)
				got, _ := q.Get()
				q.Forget(got)
				q.Done(got)
			}
		})
	}
}
