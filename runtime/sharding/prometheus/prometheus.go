// Package prometheus exports a sharding ring's metrics to Prometheus in client-go's naming style
// (sharding_ring_members, sharding_shard_objects, sharding_moves_total, sharding_drains_total,
// sharding_drain_duration_seconds, labelled by ring and, for objects, shard). Register once at
// start-up and pass the provider to every replica:
//
//	provider, err := prometheus.NewMetricsProvider(prometheus.DefaultRegisterer)
//	…
//	replica, err := sharding.New(sharding.Config{…, Metrics: provider})
package prometheus

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kgen-dev/kgen/runtime/sharding"
)

// MetricsProvider is a sharding.MetricsProvider backed by Prometheus metric vectors.
type MetricsProvider struct {
	members, objects *prometheus.GaugeVec
	moves, drains    *prometheus.CounterVec
	drainDuration    *prometheus.HistogramVec
}

var _ sharding.MetricsProvider = (*MetricsProvider)(nil)

// NewMetricsProvider creates the sharding metrics and registers them with reg.
func NewMetricsProvider(reg prometheus.Registerer) (*MetricsProvider, error) {
	p := &MetricsProvider{
		members: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sharding_ring_members",
			Help: "Live members of the ring, as this replica sees them.",
		}, []string{"ring"}),
		objects: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sharding_shard_objects",
			Help: "Objects assigned to each shard of the ring (reported by the ring's coordinator).",
		}, []string{"ring", "shard"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sharding_moves_total",
			Help: "Objects given an owner without a drain: new objects, or objects of a member that stopped renewing its Lease.",
		}, []string{"ring"}),
		drains: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sharding_drains_total",
			Help: "Drains asked of live owners, to move their objects to another member.",
		}, []string{"ring"}),
		drainDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sharding_drain_duration_seconds",
			Help:    "Seconds from a drain request to the old owner's acknowledgement.",
			Buckets: prometheus.ExponentialBuckets(0.01, 2, 12),
		}, []string{"ring"}),
	}
	err := errors.Join(reg.Register(p.members), reg.Register(p.objects), reg.Register(p.moves),
		reg.Register(p.drains), reg.Register(p.drainDuration))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// NewRingMembersMetric implements sharding.MetricsProvider.
func (p *MetricsProvider) NewRingMembersMetric(ring string) sharding.GaugeMetric {
	return p.members.WithLabelValues(ring)
}

// NewShardObjectsMetric implements sharding.MetricsProvider.
func (p *MetricsProvider) NewShardObjectsMetric(ring, shard string) sharding.GaugeMetric {
	return p.objects.WithLabelValues(ring, shard)
}

// DeleteShardObjectsMetric implements sharding.MetricsProvider.
func (p *MetricsProvider) DeleteShardObjectsMetric(ring, shard string) {
	p.objects.DeleteLabelValues(ring, shard)
}

// NewMovesMetric implements sharding.MetricsProvider.
func (p *MetricsProvider) NewMovesMetric(ring string) sharding.CounterMetric {
	return p.moves.WithLabelValues(ring)
}

// NewDrainsMetric implements sharding.MetricsProvider.
func (p *MetricsProvider) NewDrainsMetric(ring string) sharding.CounterMetric {
	return p.drains.WithLabelValues(ring)
}

// NewDrainDurationMetric implements sharding.MetricsProvider.
func (p *MetricsProvider) NewDrainDurationMetric(ring string) sharding.HistogramMetric {
	return p.drainDuration.WithLabelValues(ring)
}
