package sharding

// GaugeMetric is a metric that goes up and down.
type GaugeMetric interface {
	Set(float64)
}

// CounterMetric only goes up.
type CounterMetric interface {
	Inc()
}

// HistogramMetric observes durations in seconds.
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider makes the metrics of a ring. Suggested names, in client-go's style:
// sharding_ring_members, sharding_shard_objects{shard}, sharding_moves_total,
// sharding_drains_total and sharding_drain_duration_seconds, each with a ring label. In LabelMode
// only the coordinator reports objects per shard and drains; moves are counted by the replica that
// made them (the coordinator, or a replica taking over a departed member's objects). In ServerMode
// each replica reports its own shard's objects (those its ListerWatcher-wrapped informers hold),
// counts as moves the slots of the hash space (1/PartitionSlots each) it takes over, and as a drain
// each change of members that took slots away from it, timed from when it stopped starting their
// reconciles to when it published its new claim. Every replica reports the ring size it sees.
type MetricsProvider interface {
	// NewRingMembersMetric reports the number of live members of ring.
	NewRingMembersMetric(ring string) GaugeMetric
	// NewShardObjectsMetric reports how many objects are assigned to shard.
	NewShardObjectsMetric(ring, shard string) GaugeMetric
	// DeleteShardObjectsMetric drops the objects metric of shard: the shard left the ring and owns
	// no object, or this replica stopped coordinating. Identities are often pod names, so keeping
	// the series of every replica that ever ran would grow without bound.
	DeleteShardObjectsMetric(ring, shard string)
	// NewMovesMetric counts objects given a new owner without a drain (new, or off a dead member).
	NewMovesMetric(ring string) CounterMetric
	// NewDrainsMetric counts drains requested from live owners.
	NewDrainsMetric(ring string) CounterMetric
	// NewDrainDurationMetric observes the seconds from a drain request to the owner's acknowledgement.
	NewDrainDurationMetric(ring string) HistogramMetric
}

type noopMetric struct{}

func (noopMetric) Set(float64)     {}
func (noopMetric) Inc()            {}
func (noopMetric) Observe(float64) {}

// NoopMetricsProvider discards every metric.
type NoopMetricsProvider struct{}

// NewRingMembersMetric implements MetricsProvider.
func (NoopMetricsProvider) NewRingMembersMetric(string) GaugeMetric { return noopMetric{} }

// NewShardObjectsMetric implements MetricsProvider.
func (NoopMetricsProvider) NewShardObjectsMetric(string, string) GaugeMetric { return noopMetric{} }

// DeleteShardObjectsMetric implements MetricsProvider.
func (NoopMetricsProvider) DeleteShardObjectsMetric(string, string) {}

// NewMovesMetric implements MetricsProvider.
func (NoopMetricsProvider) NewMovesMetric(string) CounterMetric { return noopMetric{} }

// NewDrainsMetric implements MetricsProvider.
func (NoopMetricsProvider) NewDrainsMetric(string) CounterMetric { return noopMetric{} }

// NewDrainDurationMetric implements MetricsProvider.
func (NoopMetricsProvider) NewDrainDurationMetric(string) HistogramMetric { return noopMetric{} }
