package cache

import (
	"strconv"
	"sync"
)

// GaugeMetric is a metric that can be set to a value.
type GaugeMetric interface {
	Set(float64)
}

// CounterMetric is a metric that only goes up.
type CounterMetric interface {
	Inc()
}

// SummaryMetric records observations, such as durations or sizes.
type SummaryMetric interface {
	Observe(float64)
}

// HistogramMetric records observations into buckets.
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider creates the reflector metrics; name identifies the reflector. Unlike client-go's,
// every metric here is emitted.
type MetricsProvider interface {
	// NewListsMetric counts initial lists (LIST or streaming).
	NewListsMetric(name string) CounterMetric
	// NewListDurationMetric observes, in seconds, how long a list took.
	NewListDurationMetric(name string) SummaryMetric
	// NewItemsInListMetric observes how many objects a list returned.
	NewItemsInListMetric(name string) SummaryMetric
	// NewWatchesMetric counts watches.
	NewWatchesMetric(name string) CounterMetric
	// NewShortWatchesMetric counts watches that ended at once without an event.
	NewShortWatchesMetric(name string) CounterMetric
	// NewWatchDurationMetric observes, in seconds, how long a watch lasted.
	NewWatchDurationMetric(name string) SummaryMetric
	// NewItemsInWatchMetric observes how many events a watch delivered.
	NewItemsInWatchMetric(name string) SummaryMetric
	// NewLastResourceVersionMetric reports the last resourceVersion seen.
	NewLastResourceVersionMetric(name string) GaugeMetric
}

// InformerMetricsProvider creates the informer metrics; name identifies the informer
// (SharedIndexInformerOptions.Identifier).
type InformerMetricsProvider interface {
	// NewQueuedItemMetric reports how many events wait in the informer's queue.
	NewQueuedItemMetric(name string) GaugeMetric
	// NewProcessingLatencyMetric observes, in seconds, how long a batch of events took to apply.
	NewProcessingLatencyMetric(name string) HistogramMetric
	// NewStoreResourceVersionMetric reports the resourceVersion the store reflects.
	NewStoreResourceVersionMetric(name string) GaugeMetric
	// NewHandlerBacklogMetric reports how many notifications wait in the buffer of one event handler;
	// handler identifies its registration ("<handler type>#<n>", n counting the informer's
	// registrations from 1). A backlog that keeps growing means the handler cannot keep up.
	NewHandlerBacklogMetric(name, handler string) GaugeMetric
}

type noopMetric struct{}

func (noopMetric) Inc()            {}
func (noopMetric) Set(float64)     {}
func (noopMetric) Observe(float64) {}

type noopMetricsProvider struct{}

func (noopMetricsProvider) NewListsMetric(string) CounterMetric                { return noopMetric{} }
func (noopMetricsProvider) NewListDurationMetric(string) SummaryMetric         { return noopMetric{} }
func (noopMetricsProvider) NewItemsInListMetric(string) SummaryMetric          { return noopMetric{} }
func (noopMetricsProvider) NewWatchesMetric(string) CounterMetric              { return noopMetric{} }
func (noopMetricsProvider) NewShortWatchesMetric(string) CounterMetric         { return noopMetric{} }
func (noopMetricsProvider) NewWatchDurationMetric(string) SummaryMetric        { return noopMetric{} }
func (noopMetricsProvider) NewItemsInWatchMetric(string) SummaryMetric         { return noopMetric{} }
func (noopMetricsProvider) NewLastResourceVersionMetric(string) GaugeMetric    { return noopMetric{} }
func (noopMetricsProvider) NewQueuedItemMetric(string) GaugeMetric             { return noopMetric{} }
func (noopMetricsProvider) NewProcessingLatencyMetric(string) HistogramMetric  { return noopMetric{} }
func (noopMetricsProvider) NewStoreResourceVersionMetric(string) GaugeMetric   { return noopMetric{} }
func (noopMetricsProvider) NewHandlerBacklogMetric(string, string) GaugeMetric { return noopMetric{} }

var globalMetrics = struct {
	sync.Mutex
	reflector MetricsProvider
	informer  InformerMetricsProvider
}{reflector: noopMetricsProvider{}, informer: noopMetricsProvider{}}

// SetReflectorMetricsProvider installs the provider used by reflectors created afterwards.
func SetReflectorMetricsProvider(p MetricsProvider) {
	globalMetrics.Lock()
	defer globalMetrics.Unlock()
	globalMetrics.reflector = p
}

// SetInformerMetricsProvider installs the provider used by informers created afterwards without an
// explicit SharedIndexInformerOptions.InformerMetricsProvider.
func SetInformerMetricsProvider(p InformerMetricsProvider) {
	globalMetrics.Lock()
	defer globalMetrics.Unlock()
	globalMetrics.informer = p
}

func reflectorMetricsProvider() MetricsProvider {
	globalMetrics.Lock()
	defer globalMetrics.Unlock()
	return globalMetrics.reflector
}

func informerMetricsProvider() InformerMetricsProvider {
	globalMetrics.Lock()
	defer globalMetrics.Unlock()
	return globalMetrics.informer
}

// reflectorMetrics are the metrics of one reflector.
type reflectorMetrics struct {
	lists, watches, shortWatches CounterMetric
	listDuration, watchDuration  SummaryMetric
	itemsInList, itemsInWatch    SummaryMetric
	lastResourceVersion          GaugeMetric
}

func newReflectorMetrics(p MetricsProvider, name string) *reflectorMetrics {
	return &reflectorMetrics{
		lists:               p.NewListsMetric(name),
		watches:             p.NewWatchesMetric(name),
		shortWatches:        p.NewShortWatchesMetric(name),
		listDuration:        p.NewListDurationMetric(name),
		watchDuration:       p.NewWatchDurationMetric(name),
		itemsInList:         p.NewItemsInListMetric(name),
		itemsInWatch:        p.NewItemsInWatchMetric(name),
		lastResourceVersion: p.NewLastResourceVersionMetric(name),
	}
}

// resourceVersionNumber parses a resourceVersion for metrics; resourceVersions are opaque, so values
// that are not numbers are simply not reported.
func resourceVersionNumber(rv string) (float64, bool) {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return 0, false
	}
	return float64(n), true
}
