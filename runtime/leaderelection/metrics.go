package leaderelection

import "sync"

// LeaderMetric records whether the named election's candidate leads, and how often it renewed
// through the slow path (a read before the write, after the fast update failed).
type LeaderMetric interface {
	On(name string)
	Off(name string)
	SlowpathExercised(name string)
}

// MetricsProvider produces the leader metric; set one with SetProvider.
type MetricsProvider interface {
	NewLeaderMetric() LeaderMetric
}

type noopMetric struct{}

func (noopMetric) On(string)                {}
func (noopMetric) Off(string)               {}
func (noopMetric) SlowpathExercised(string) {}

var (
	providerMu sync.Mutex
	provider   MetricsProvider
)

// SetProvider sets the provider of the leader metric for electors created afterwards. Only the
// first call has an effect, as in client-go, so a library cannot replace the program's metrics.
func SetProvider(metricsProvider MetricsProvider) {
	providerMu.Lock()
	defer providerMu.Unlock()
	if provider == nil {
		provider = metricsProvider
	}
}

// newLeaderMetric returns the provider's metric, or one that records nothing.
func newLeaderMetric() LeaderMetric {
	providerMu.Lock()
	defer providerMu.Unlock()
	if provider == nil {
		return noopMetric{}
	}
	return provider.NewLeaderMetric()
}
