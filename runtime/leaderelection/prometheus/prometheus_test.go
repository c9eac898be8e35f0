package prometheus_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	leprometheus "github.com/kgen-dev/kgen/runtime/leaderelection/prometheus"
)

func TestLeadershipIsExportedUnderClientGoNames(t *testing.T) {
	reg := prometheus.NewRegistry()
	p, err := leprometheus.NewMetricsProvider(reg)
	if err != nil {
		t.Fatal(err)
	}
	m := p.NewLeaderMetric()
	m.Off("ctl")
	m.On("ctl")
	m.SlowpathExercised("ctl")
	m.SlowpathExercised("ctl")
	m.Off("other")
	if n, err := testutil.GatherAndCount(reg, "leader_election_master_status", "leader_election_slowpath_total"); err != nil || n != 3 {
		t.Fatalf("%d series, %v; want 2 status series and 1 slow-path series", n, err)
	}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(`
# HELP leader_election_master_status 1 while this candidate leads the named election, 0 while it does not.
# TYPE leader_election_master_status gauge
leader_election_master_status{name="ctl"} 1
leader_election_master_status{name="other"} 0
# HELP leader_election_slowpath_total Renewals of the named election's lease that had to read it first.
# TYPE leader_election_slowpath_total counter
leader_election_slowpath_total{name="ctl"} 2
`)); err != nil {
		t.Fatal(err)
	}
	if _, err := leprometheus.NewMetricsProvider(reg); err == nil {
		t.Fatal("registering the metrics twice with one registry succeeded")
	}
}
