package prometheus_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	shprometheus "github.com/kgen-dev/kgen/runtime/sharding/prometheus"
)

func TestRingMetricsAreExportedByRingAndShard(t *testing.T) {
	reg := prometheus.NewRegistry()
	p, err := shprometheus.NewMetricsProvider(reg)
	if err != nil {
		t.Fatal(err)
	}
	p.NewRingMembersMetric("crontabs").Set(3)
	p.NewShardObjectsMetric("crontabs", "replica-a").Set(40)
	p.NewShardObjectsMetric("crontabs", "replica-b").Set(38)
	p.NewMovesMetric("crontabs").Inc()
	p.NewMovesMetric("crontabs").Inc()
	p.NewDrainsMetric("crontabs").Inc()
	p.NewDrainDurationMetric("crontabs").Observe(0.25)

	want := `
# HELP sharding_ring_members Live members of the ring, as this replica sees them.
# TYPE sharding_ring_members gauge
sharding_ring_members{ring="crontabs"} 3
# HELP sharding_shard_objects Objects assigned to each shard of the ring (reported by the ring's coordinator).
# TYPE sharding_shard_objects gauge
sharding_shard_objects{ring="crontabs",shard="replica-a"} 40
sharding_shard_objects{ring="crontabs",shard="replica-b"} 38
# HELP sharding_moves_total Objects given an owner without a drain: new objects, or objects of a member that stopped renewing its Lease.
# TYPE sharding_moves_total counter
sharding_moves_total{ring="crontabs"} 2
# HELP sharding_drains_total Drains asked of live owners, to move their objects to another member.
# TYPE sharding_drains_total counter
sharding_drains_total{ring="crontabs"} 1
`
	names := []string{"sharding_ring_members", "sharding_shard_objects", "sharding_moves_total", "sharding_drains_total"}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Fatal(err)
	}
	if n, err := testutil.GatherAndCount(reg, "sharding_drain_duration_seconds"); err != nil || n != 1 {
		t.Fatalf("drain duration: %d series, %v; want one histogram for the ring", n, err)
	}
}

func TestDeletedShardLeavesTheExport(t *testing.T) {
	reg := prometheus.NewRegistry()
	p, err := shprometheus.NewMetricsProvider(reg)
	if err != nil {
		t.Fatal(err)
	}
	p.NewShardObjectsMetric("crontabs", "replica-a").Set(40)
	p.NewShardObjectsMetric("crontabs", "replica-b").Set(0)
	p.DeleteShardObjectsMetric("crontabs", "replica-b")
	want := `
# HELP sharding_shard_objects Objects assigned to each shard of the ring (reported by the ring's coordinator).
# TYPE sharding_shard_objects gauge
sharding_shard_objects{ring="crontabs",shard="replica-a"} 40
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "sharding_shard_objects"); err != nil {
		t.Fatal(err)
	}
}

func TestRegisteringTwiceFails(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := shprometheus.NewMetricsProvider(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := shprometheus.NewMetricsProvider(reg); err == nil {
		t.Fatal("a second provider registered the same metrics without an error")
	}
}
