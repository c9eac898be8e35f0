// Package prometheus exports leader election metrics to Prometheus under the names client-go's
// electors export (leader_election_master_status, leader_election_slowpath_total, labelled by
// election name), so existing dashboards and alerts keep working. Register once at start-up,
// before creating electors:
//
//	provider, err := prometheus.NewMetricsProvider(prometheus.DefaultRegisterer)
//	…
//	leaderelection.SetProvider(provider)
package prometheus

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kgen-dev/kgen/runtime/leaderelection"
)

// MetricsProvider is a leaderelection.MetricsProvider backed by Prometheus metric vectors, one
// series per election name.
type MetricsProvider struct {
	status   *prometheus.GaugeVec
	slowpath *prometheus.CounterVec
}

var _ leaderelection.MetricsProvider = (*MetricsProvider)(nil)

// NewMetricsProvider creates the leader election metrics and registers them with reg.
func NewMetricsProvider(reg prometheus.Registerer) (*MetricsProvider, error) {
	p := &MetricsProvider{
		status: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "leader_election_master_status",
			Help: "1 while this candidate leads the named election, 0 while it does not.",
		}, []string{"name"}),
		slowpath: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "leader_election_slowpath_total",
			Help: "Renewals of the named election's lease that had to read it first.",
		}, []string{"name"}),
	}
	if err := errors.Join(reg.Register(p.status), reg.Register(p.slowpath)); err != nil {
		return nil, err
	}
	return p, nil
}

// NewLeaderMetric returns the metric electors report to.
func (p *MetricsProvider) NewLeaderMetric() leaderelection.LeaderMetric { return leaderMetric{p} }

type leaderMetric struct{ p *MetricsProvider }

func (m leaderMetric) On(name string)                { m.p.status.WithLabelValues(name).Set(1) }
func (m leaderMetric) Off(name string)               { m.p.status.WithLabelValues(name).Set(0) }
func (m leaderMetric) SlowpathExercised(name string) { m.p.slowpath.WithLabelValues(name).Inc() }
