package workqueue

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// recorder is one recorded metric.
type recorder struct {
	mu           sync.Mutex
	value        float64
	observations []float64
	sets         int
}

func (r *recorder) Inc()          { r.add(1) }
func (r *recorder) Dec()          { r.add(-1) }
func (r *recorder) add(d float64) { r.mu.Lock(); r.value += d; r.mu.Unlock() }
func (r *recorder) Set(v float64) {
	r.mu.Lock()
	r.value = v
	r.sets++
	r.mu.Unlock()
}
func (r *recorder) Observe(v float64) {
	r.mu.Lock()
	r.observations = append(r.observations, v)
	r.mu.Unlock()
}
func (r *recorder) get() float64 { r.mu.Lock(); defer r.mu.Unlock(); return r.value }
func (r *recorder) observed() []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]float64(nil), r.observations...)
}

// recordingProvider hands out recorders and remembers them by metric and queue name.
type recordingProvider struct {
	mu      sync.Mutex
	metrics map[string]*recorder
}

func (p *recordingProvider) get(metric, name string) *recorder {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.metrics == nil {
		p.metrics = map[string]*recorder{}
	}
	key := metric + "/" + name
	if p.metrics[key] == nil {
		p.metrics[key] = &recorder{}
	}
	return p.metrics[key]
}

func (p *recordingProvider) NewDepthMetric(name string) GaugeMetric  { return p.get("depth", name) }
func (p *recordingProvider) NewAddsMetric(name string) CounterMetric { return p.get("adds", name) }
func (p *recordingProvider) NewLatencyMetric(name string) HistogramMetric {
	return p.get("latency", name)
}
func (p *recordingProvider) NewWorkDurationMetric(name string) HistogramMetric {
	return p.get("work", name)
}
func (p *recordingProvider) NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric {
	return p.get("unfinished", name)
}
func (p *recordingProvider) NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric {
	return p.get("longest", name)
}
func (p *recordingProvider) NewRetriesMetric(name string) CounterMetric {
	return p.get("retries", name)
}

func TestMetrics(t *testing.T) {
	c := newFakeClock()
	p := &recordingProvider{}
	q := NewTypedRateLimitingQueueWithConfig(NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Hour),
		TypedRateLimitingQueueConfig[string]{Name: "test", MetricsProvider: p, Clock: c})
	defer q.ShutDown()
	m := func(metric string) *recorder { return p.get(metric, "test") }

	q.Add("a")
	q.Add("b")
	q.Add("a")                               // dedup: not an add
	q.AddWithOpts(AddOpts{Priority: 5}, "b") // a raise moves b, so not an add either
	if got := m("adds").get(); got != 2 {
		t.Fatalf("adds = %v", got)
	}
	if got := m("depth").get(); got != 2 {
		t.Fatalf("depth = %v", got)
	}
	c.Step(3 * time.Second)
	a := mustGet(t, q)
	if got := m("depth").get(); got != 1 {
		t.Fatalf("depth after Get = %v", got)
	}
	if got := m("latency").observed(); len(got) != 1 || got[0] != 3 {
		t.Fatalf("latency observations %v, want [3]", got)
	}
	c.Step(2 * time.Second)
	q.Done(a)
	if got := m("work").observed(); len(got) != 1 || got[0] != 2 {
		t.Fatalf("work duration observations %v, want [2]", got)
	}

	b := mustGet(t, q)
	c.Step(4 * time.Second)
	q.mu.Lock()
	q.metrics.updateUnfinishedWork(c.Now())
	q.mu.Unlock()
	if got := m("unfinished").get(); got != 4 {
		t.Fatalf("unfinished work = %v, want 4", got)
	}
	if got := m("longest").get(); got != 4 {
		t.Fatalf("longest running = %v, want 4", got)
	}
	q.Done(b)

	q.AddRateLimited("c")
	q.AddAfter("d", 0)
	q.AddWithOpts(AddOpts{After: time.Second}, "e", "f")
	q.AddWithOpts(AddOpts{}, "g") // not a retry
	if got := m("retries").get(); got != 4 {
		t.Fatalf("retries = %v, want 4", got)
	}
	q.Forget("h")
	q.AddWithOpts(AddOpts{RateLimited: true}, "h") // first failure: 1s
	if got := m("retries").get(); got != 5 {
		t.Fatalf("retries = %v, want 5", got)
	}
}

func TestUnfinishedWorkIsRefreshedPeriodically(t *testing.T) {
	c := newFakeClock()
	p := &recordingProvider{}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "periodic", MetricsProvider: p, Clock: c})
	defer q.ShutDown()
	q.Add("a")
	mustGet(t, q)
	unfinished := p.get("unfinished", "periodic")
	for step := 1; unfinished.get() < 1; step++ {
		if step > 10_000 {
			t.Fatalf("unfinished work never reached 1s: %v", unfinished.get())
		}
		c.Step(unfinishedWorkUpdatePeriod)
		time.Sleep(time.Millisecond)
	}
}

func TestNoMetricsMeansNoClockReads(t *testing.T) {
	c := &testingClock{FakeClock: newFakeClock()}
	for name, q := range map[string]*Typed[int]{
		"unnamed":       NewTypedWithConfig(TypedQueueConfig[int]{Clock: c, MetricsProvider: &recordingProvider{}}),
		"noop provider": NewTypedWithConfig(TypedQueueConfig[int]{Name: "n", Clock: c, MetricsProvider: NoopMetricsProvider{}}),
	} {
		for i := range 100 {
			q.Add(i)
			q.AddWithOpts(AddOpts{Priority: 1}, i)
			q.Done(mustGet(t, q))
		}
		q.ShutDown()
		if n := c.nows.Load(); n != 0 {
			t.Fatalf("%s: %d clock reads with metrics off", name, n)
		}
	}
}

// globalTestProvider is what this package's tests install with SetProvider,
// which takes effect once per process.
var globalTestProvider = &recordingProvider{}

func TestSetProviderAppliesToQueuesWithoutOne(t *testing.T) {
	SetProvider(globalTestProvider)
	SetProvider(NoopMetricsProvider{}) // ignored: only the first call counts
	name := fmt.Sprintf("global-%d", time.Now().UnixNano())
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: name})
	q.Add("a")
	q.ShutDown()
	if got := globalTestProvider.get("adds", name).get(); got != 1 {
		t.Fatalf("adds = %v", got)
	}
	unnamed := NewTyped[string]()
	if unnamed.metrics != nil {
		t.Fatal("an unnamed queue records metrics")
	}
	unnamed.ShutDown()
	np := NoopMetricsProvider{}
	for _, m := range []interface{ Inc() }{np.NewAddsMetric(""), np.NewRetriesMetric(""), np.NewDepthMetric("")} {
		m.Inc()
	}
	np.NewDepthMetric("").Dec()
	np.NewLatencyMetric("").Observe(1)
	np.NewWorkDurationMetric("").Observe(1)
	np.NewUnfinishedWorkSecondsMetric("").Set(1)
	np.NewLongestRunningProcessorSecondsMetric("").Set(1)
}

func TestUndelayedRateLimitedAddCountsAsRetry(t *testing.T) {
	p := &recordingProvider{}
	q := NewTypedRateLimitingQueueWithConfig(NewTypedItemExponentialFailureRateLimiter[string](0, 0),
		TypedRateLimitingQueueConfig[string]{Name: "zero", MetricsProvider: p, Clock: newFakeClock()})
	defer q.ShutDown()
	q.AddWithOpts(AddOpts{RateLimited: true}, "a")
	q.AddRateLimited("b")
	if got := p.get("retries", "zero").get(); got != 2 {
		t.Fatalf("retries = %v, want 2", got)
	}
	if got := q.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2: a zero backoff adds at once", got)
	}
}
