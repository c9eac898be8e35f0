package workqueue

import (
	"sync"
	"time"
)

// GaugeMetric is a metric that goes up and down.
type GaugeMetric interface {
	Inc()
	Dec()
}

// SettableGaugeMetric is a metric that is set to a value.
type SettableGaugeMetric interface {
	Set(float64)
}

// CounterMetric is a metric that only goes up.
type CounterMetric interface {
	Inc()
}

// SummaryMetric observes values into a summary.
type SummaryMetric interface {
	Observe(float64)
}

// HistogramMetric observes values into a histogram.
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider produces the metrics of a named queue; the set is client-go's,
// so existing dashboards keep working.
type MetricsProvider interface {
	// NewDepthMetric counts the items waiting in the queue.
	NewDepthMetric(name string) GaugeMetric
	// NewAddsMetric counts adds.
	NewAddsMetric(name string) CounterMetric
	// NewLatencyMetric observes seconds an item waits before Get hands it out.
	NewLatencyMetric(name string) HistogramMetric
	// NewWorkDurationMetric observes seconds between Get and Done.
	NewWorkDurationMetric(name string) HistogramMetric
	// NewUnfinishedWorkSecondsMetric reports the seconds of work in progress.
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	// NewLongestRunningProcessorSecondsMetric reports the age of the oldest item in progress.
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	// NewRetriesMetric counts delayed and rate-limited adds.
	NewRetriesMetric(name string) CounterMetric
}

// NoopMetricsProvider records nothing. It is the default provider; queues
// using it skip all metric work, including reading the clock.
type NoopMetricsProvider struct{}

type noopMetric struct{}

func (noopMetric) Inc()            {}
func (noopMetric) Dec()            {}
func (noopMetric) Set(float64)     {}
func (noopMetric) Observe(float64) {}

// NewDepthMetric returns a metric that records nothing.
func (NoopMetricsProvider) NewDepthMetric(string) GaugeMetric { return noopMetric{} }

// NewAddsMetric returns a metric that records nothing.
func (NoopMetricsProvider) NewAddsMetric(string) CounterMetric { return noopMetric{} }

// NewLatencyMetric returns a metric that records nothing.
func (NoopMetricsProvider) NewLatencyMetric(string) HistogramMetric { return noopMetric{} }

// NewWorkDurationMetric returns a metric that records nothing.
func (NoopMetricsProvider) NewWorkDurationMetric(string) HistogramMetric { return noopMetric{} }

// NewUnfinishedWorkSecondsMetric returns a metric that records nothing.
func (NoopMetricsProvider) NewUnfinishedWorkSecondsMetric(string) SettableGaugeMetric {
	return noopMetric{}
}

// NewLongestRunningProcessorSecondsMetric returns a metric that records nothing.
func (NoopMetricsProvider) NewLongestRunningProcessorSecondsMetric(string) SettableGaugeMetric {
	return noopMetric{}
}

// NewRetriesMetric returns a metric that records nothing.
func (NoopMetricsProvider) NewRetriesMetric(string) CounterMetric { return noopMetric{} }

var (
	globalProviderMu  sync.Mutex
	globalProvider    MetricsProvider = NoopMetricsProvider{}
	globalProviderSet bool
)

// SetProvider sets the metrics provider of queues created afterwards without
// one of their own. Only the first call has an effect, as in client-go.
func SetProvider(provider MetricsProvider) {
	globalProviderMu.Lock()
	defer globalProviderMu.Unlock()
	if !globalProviderSet {
		globalProvider, globalProviderSet = provider, true
	}
}

// unfinishedWorkUpdatePeriod is how often unfinished-work gauges are refreshed.
const unfinishedWorkUpdatePeriod = 500 * time.Millisecond

// queueMetrics are the metrics of one named queue and the timestamps they need.
type queueMetrics[T comparable] struct {
	depth        GaugeMetric
	adds         CounterMetric
	latency      HistogramMetric
	workDuration HistogramMetric
	unfinished   SettableGaugeMetric
	longest      SettableGaugeMetric

	addedAt   map[T]time.Time // when each pending add happened
	startedAt map[T]time.Time // when Get handed each item out
}

// newQueueMetrics returns nil metrics (all metric work off) for an unnamed queue
// or the no-op provider.
func newQueueMetrics[T comparable](provider MetricsProvider, name string) (*queueMetrics[T], CounterMetric) {
	if provider == nil {
		globalProviderMu.Lock()
		provider = globalProvider
		globalProviderMu.Unlock()
	}
	if name == "" || provider == (NoopMetricsProvider{}) {
		return nil, nil
	}
	return &queueMetrics[T]{
		depth:        provider.NewDepthMetric(name),
		adds:         provider.NewAddsMetric(name),
		latency:      provider.NewLatencyMetric(name),
		workDuration: provider.NewWorkDurationMetric(name),
		unfinished:   provider.NewUnfinishedWorkSecondsMetric(name),
		longest:      provider.NewLongestRunningProcessorSecondsMetric(name),
		addedAt:      make(map[T]time.Time),
		startedAt:    make(map[T]time.Time),
	}, provider.NewRetriesMetric(name)
}

func (m *queueMetrics[T]) add(item T, now time.Time) {
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addedAt[item]; !ok {
		m.addedAt[item] = now
	}
}

func (m *queueMetrics[T]) get(item T, now time.Time) {
	m.depth.Dec()
	m.startedAt[item] = now
	if t, ok := m.addedAt[item]; ok {
		m.latency.Observe(now.Sub(t).Seconds())
		delete(m.addedAt, item)
	}
}

func (m *queueMetrics[T]) done(item T, now time.Time) {
	if t, ok := m.startedAt[item]; ok {
		m.workDuration.Observe(now.Sub(t).Seconds())
		delete(m.startedAt, item)
	}
}

// updateUnfinishedWork sets the unfinished-work gauges from the items in progress.
func (m *queueMetrics[T]) updateUnfinishedWork(now time.Time) {
	var total, oldest float64
	for _, t := range m.startedAt {
		age := now.Sub(t).Seconds()
		total += age
		oldest = max(oldest, age)
	}
	m.unfinished.Set(total)
	m.longest.Set(oldest)
}
