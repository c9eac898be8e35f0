package prometheus

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kgen-dev/kgen/runtime/workqueue"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestMetricsUseClientGoNames(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	p, err := NewMetricsProvider(reg)
	if err != nil {
		t.Fatal(err)
	}
	c := testingclock.NewFakeClock(time.Now())
	q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "widgets", MetricsProvider: p, Clock: c})
	q.Add("a")
	q.Add("b")
	item, _ := q.Get()
	c.Step(2 * time.Second)
	q.Done(item)
	q.AddRateLimited("c")
	q.ShutDown()

	want := `
# HELP workqueue_adds_total Total number of items added to the work queue.
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="widgets"} 2
# HELP workqueue_depth Current number of items waiting in the work queue.
# TYPE workqueue_depth gauge
workqueue_depth{name="widgets"} 1
# HELP workqueue_retries_total Total number of delayed and rate-limited adds to the work queue.
# TYPE workqueue_retries_total counter
workqueue_retries_total{name="widgets"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"workqueue_adds_total", "workqueue_depth", "workqueue_retries_total"); err != nil {
		t.Fatal(err)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range families {
		names[f.GetName()] = true
		for _, m := range f.GetMetric() {
			if len(m.GetLabel()) != 1 || m.GetLabel()[0].GetName() != "name" || m.GetLabel()[0].GetValue() != "widgets" {
				t.Errorf("%s: labels %v", f.GetName(), m.GetLabel())
			}
		}
	}
	for _, n := range []string{
		"workqueue_depth", "workqueue_adds_total", "workqueue_queue_duration_seconds",
		"workqueue_work_duration_seconds", "workqueue_unfinished_work_seconds",
		"workqueue_longest_running_processor_seconds", "workqueue_retries_total",
	} {
		if !names[n] {
			t.Errorf("metric %s not exported; have %v", n, names)
		}
	}
	if got := testutil.CollectAndCount(p.workDuration); got != 1 {
		t.Errorf("work duration series = %d", got)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func TestRegistrationConflictIsAnError(t *testing.T) {
	reg := prometheus.NewRegistry()
	MustNewMetricsProvider(reg)
	if _, err := NewMetricsProvider(reg); err == nil {
		t.Fatal("registering twice: want an error")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("MustNewMetricsProvider did not panic on a conflict")
		}
	}()
	MustNewMetricsProvider(reg)
}
