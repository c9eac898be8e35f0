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

// workqueueCase is one way of driving a queue, run on each implementation.
type workqueueCase struct {
	name string
	// run makes a queue of implementation impl (an index of workqueueImpls), drives n ops through it
	// with the given workers and returns how many adds it made.
	run func(impl, workers, n int) (adds int)
}

// workqueueCases are the cases of BenchmarkWorkqueue; an op is one item taken by Get and marked Done, and
// in every case but hot one Add too.
//   - distinct: each worker adds a key never used before, then gets one and
//     marks it done, so every op is a full Add+Get+Done on a shallow queue
//     (client-go's BenchmarkQueue, with workers; int keys so no two ever clash).
//   - repeat: 16 shared keys are taken by Get before the ops start and
//     stay in progress; each worker adds one of them, which only marks it to
//     be queued again on Done (an object changing again while a worker
//     handles it), then a key never used before, and gets and finishes one
//     item. Every op is the same work on a queue as shallow as distinct's.
//   - backlog: one producer adds 64Ki distinct string keys at once, as an
//     informer's initial list does, while the workers drain them; the next
//     batch starts once the last is done, so every op is a full Add+Get+Done
//     on a deep queue.
//   - million: backlog with a million distinct keys, whose item table is
//     far larger than the CPU's caches.
//   - hot: one producer adds 16 string keys round robin as fast as it can
//     while the workers drain, so most adds find the item already queued or
//     in progress; an op is one item processed, and adds/op reports how many
//     adds the producer made meanwhile (per add alone, a queue would look
//     faster the more it starved its workers).
func workqueueCases() []workqueueCase {
	backlog, million, hot := benchKeys(1<<16), benchKeys(1<<20), benchKeys(16)
	return []workqueueCase{
		{"distinct", func(impl, workers, n int) int {
			return benchClosedLoop(intWorkqueueImpls[impl].new(), workers, n, false)
		}},
		{"repeat", func(impl, workers, n int) int {
			return benchClosedLoop(intWorkqueueImpls[impl].new(), workers, n, true)
		}},
		{"backlog", func(impl, workers, n int) int {
			return benchBacklog(workqueueImpls[impl].new(), backlog, workers, n)
		}},
		{"million", func(impl, workers, n int) int {
			return benchBacklog(workqueueImpls[impl].new(), million, workers, n)
		}},
		{"hot", func(impl, workers, n int) int {
			return benchHot(workqueueImpls[impl].new(), hot, workers, n)
		}},
	}
}

// BenchmarkWorkqueue measures Add→Get→Done throughput of each case (workqueueCases) at 1, 4 and 16
// workers.
func BenchmarkWorkqueue(b *testing.B) {
	for _, c := range workqueueCases() {
		for _, workers := range []int{1, 4, 16} {
			for impl := range workqueueImpls {
				b.Run(fmt.Sprintf("%s/workers=%d/%s", c.name, workers, workqueueImpls[impl].name), func(b *testing.B) {
					b.ReportAllocs()
					adds := c.run(impl, workers, b.N)
					if c.name == "hot" {
						b.ReportMetric(float64(adds)/float64(b.N), "adds/op")
					}
				})
			}
		}
	}
}

// BenchmarkWorkqueueInterleaved runs every case of BenchmarkWorkqueue on both queues alternately, 64Ki
// ops (hot: 8Ki; million: a million, one batch) at a time, swapping their order each iteration, and reports their times per op and
// the ratio client-go/kgen (above 1 means kgen is faster). On a VM, the throughput of a contended queue
// changes by up to 2x from minute to minute with where the host runs the vCPUs; alternating makes both
// queues meet the same conditions. Run with -benchtime 20x or more.
func BenchmarkWorkqueueInterleaved(b *testing.B) {
	for _, c := range workqueueCases() {
		ops := 1 << 16
		switch c.name {
		case "hot":
			ops = 1 << 13
		case "million":
			ops = 1 << 20
		}
		for _, workers := range []int{1, 4, 16} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				var elapsed [2]time.Duration
				i := 0
				for b.Loop() {
					for k := range 2 {
						impl := (i + k) % 2
						start := time.Now()
						c.run(impl, workers, ops)
						elapsed[impl] += time.Since(start)
					}
					i++
				}
				total := float64(i * ops)
				b.ReportMetric(float64(elapsed[0].Nanoseconds())/total, "kgen-ns/op")
				b.ReportMetric(float64(elapsed[1].Nanoseconds())/total, "client-go-ns/op")
				b.ReportMetric(float64(elapsed[1])/float64(elapsed[0]), "client-go/kgen")
			})
		}
	}
}

// benchBacklog adds the keys in batches of len(keys) distinct ones until n are done; workers drain each
// batch before the next is added, so no add ever deduplicates.
func benchBacklog(q basicQueue, keys []string, workers, n int) int {
	var finished, batch sync.WaitGroup
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
	for added := 0; added < n; {
		m := min(len(keys), n-added)
		batch.Add(m)
		for _, key := range keys[:m] {
			q.Add(key)
		}
		batch.Wait()
		added += m
	}
	q.ShutDownWithDrain()
	finished.Wait()
	return n
}

// benchClosedLoop has each worker add a key never used before, get an item and mark it done, n times in
// all. With repeat, each op first also adds one of 16 keys that are held in progress throughout
// (negative, so never fresh); the fresh key still guarantees an item for Get.
func benchClosedLoop(q cgwq.TypedInterface[int], workers, n int, repeat bool) int {
	const held = 16
	if repeat {
		for key := -held; key < 0; key++ {
			q.Add(key)
			q.Get()
		}
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for key := w; key < n; key += workers {
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
	q.ShutDown()
	if repeat {
		return 2 * n
	}
	return n
}

// benchHot has one producer add keys round robin until the workers have processed n items, and returns
// the adds it made. Workers publish their counts every hotBatch items, so counting adds no contended
// write per item; the run may overshoot n by less than hotBatch items per worker, which only makes the
// time per item pessimistic.
func benchHot(q basicQueue, keys []string, workers, n int) int {
	const hotBatch = 64
	var wg sync.WaitGroup
	var processed atomic.Int64
	for range workers {
		wg.Go(func() {
			count := 0
			for {
				key, shutdown := q.Get()
				if shutdown {
					processed.Add(int64(count))
					return
				}
				q.Done(key)
				if count++; count == hotBatch {
					processed.Add(hotBatch)
					count = 0
				}
			}
		})
	}
	adds := 0
	for processed.Load() < int64(n) {
		for _, key := range keys {
			q.Add(key)
		}
		adds += len(keys)
	}
	q.ShutDown()
	wg.Wait()
	return adds
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
