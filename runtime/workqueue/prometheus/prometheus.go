// Package prometheus exports work queue metrics to Prometheus under the names
// client-go's queues use (workqueue_depth, workqueue_adds_total, …, labelled by
// queue name), so existing dashboards and alerts keep working.
//
// Register once at start-up, before creating queues:
//
//	workqueue.SetProvider(prometheus.MustNewMetricsProvider(prometheus.DefaultRegisterer))
//
// or pass the provider in a queue's config.
package prometheus

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kgen-dev/kgen/runtime/workqueue"
)

// Metric names, as exported by client-go's queues.
const (
	Subsystem                  = "workqueue"
	DepthKey                   = "depth"
	AddsKey                    = "adds_total"
	QueueLatencyKey            = "queue_duration_seconds"
	WorkDurationKey            = "work_duration_seconds"
	UnfinishedWorkKey          = "unfinished_work_seconds"
	LongestRunningProcessorKey = "longest_running_processor_seconds"
	RetriesKey                 = "retries_total"
	// NameLabel is the label carrying the queue's name.
	NameLabel = "name"
)

// MetricsProvider is a workqueue.MetricsProvider backed by Prometheus metric
// vectors, one series per queue name.
type MetricsProvider struct {
	depth                   *prometheus.GaugeVec
	adds                    *prometheus.CounterVec
	latency                 *prometheus.HistogramVec
	workDuration            *prometheus.HistogramVec
	unfinished              *prometheus.GaugeVec
	longestRunningProcessor *prometheus.GaugeVec
	retries                 *prometheus.CounterVec
}

var _ workqueue.MetricsProvider = (*MetricsProvider)(nil)

// NewMetricsProvider creates the work queue metrics and registers them with reg.
func NewMetricsProvider(reg prometheus.Registerer) (*MetricsProvider, error) {
	// Ten buckets from 10ns to 10s, as client-go's exporters use.
	buckets := prometheus.ExponentialBuckets(10e-9, 10, 10)
	labels := []string{NameLabel}
	p := &MetricsProvider{
		depth: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Subsystem: Subsystem, Name: DepthKey,
			Help: "Current number of items waiting in the work queue.",
		}, labels),
		adds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Subsystem: Subsystem, Name: AddsKey,
			Help: "Total number of items added to the work queue.",
		}, labels),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Subsystem: Subsystem, Name: QueueLatencyKey,
			Help:    "Seconds an item waits in the work queue before a worker takes it.",
			Buckets: buckets,
		}, labels),
		workDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Subsystem: Subsystem, Name: WorkDurationKey,
			Help:    "Seconds a worker spends on an item.",
			Buckets: buckets,
		}, labels),
		unfinished: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Subsystem: Subsystem, Name: UnfinishedWorkKey,
			Help: "Seconds of work in progress not yet observed by work_duration; " +
				"steady growth means stuck workers.",
		}, labels),
		longestRunningProcessor: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Subsystem: Subsystem, Name: LongestRunningProcessorKey,
			Help: "Seconds the longest-running item in progress has been worked on.",
		}, labels),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Subsystem: Subsystem, Name: RetriesKey,
			Help: "Total number of delayed and rate-limited adds to the work queue.",
		}, labels),
	}
	for _, c := range []prometheus.Collector{
		p.depth, p.adds, p.latency, p.workDuration, p.unfinished, p.longestRunningProcessor, p.retries,
	} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// MustNewMetricsProvider is NewMetricsProvider that panics on a registration error.
func MustNewMetricsProvider(reg prometheus.Registerer) *MetricsProvider {
	p, err := NewMetricsProvider(reg)
	if err != nil {
		panic(err)
	}
	return p
}

// NewDepthMetric returns the depth gauge of queue name.
func (p *MetricsProvider) NewDepthMetric(name string) workqueue.GaugeMetric {
	return p.depth.WithLabelValues(name)
}

// NewAddsMetric returns the adds counter of queue name.
func (p *MetricsProvider) NewAddsMetric(name string) workqueue.CounterMetric {
	return p.adds.WithLabelValues(name)
}

// NewLatencyMetric returns the queue-duration histogram of queue name.
func (p *MetricsProvider) NewLatencyMetric(name string) workqueue.HistogramMetric {
	return p.latency.WithLabelValues(name)
}

// NewWorkDurationMetric returns the work-duration histogram of queue name.
func (p *MetricsProvider) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	return p.workDuration.WithLabelValues(name)
}

// NewUnfinishedWorkSecondsMetric returns the unfinished-work gauge of queue name.
func (p *MetricsProvider) NewUnfinishedWorkSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.unfinished.WithLabelValues(name)
}

// NewLongestRunningProcessorSecondsMetric returns the longest-running gauge of queue name.
func (p *MetricsProvider) NewLongestRunningProcessorSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.longestRunningProcessor.WithLabelValues(name)
}

// NewRetriesMetric returns the retries counter of queue name.
func (p *MetricsProvider) NewRetriesMetric(name string) workqueue.CounterMetric {
	return p.retries.WithLabelValues(name)
}
