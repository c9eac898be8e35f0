package prometheus_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	webhookprometheus "github.com/kgen-dev/kgen/runtime/webhook/prometheus"
)

func TestMetrics(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	m, err := webhookprometheus.NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	m.RequestStarted("/convert")
	m.RequestStarted("/convert")
	m.RequestFinished("/convert", 200, 3*time.Millisecond)
	m.RequestStarted("/validate")
	m.RequestFinished("/validate", 400, time.Millisecond)
	m.CertificateRead(nil)
	m.CertificateRead(errors.New("bad pair"))
	want := `
# HELP certwatcher_read_certificate_errors_total Total number of serving certificate reads that failed.
# TYPE certwatcher_read_certificate_errors_total counter
certwatcher_read_certificate_errors_total 1
# HELP certwatcher_read_certificate_total Total number of serving certificate reads.
# TYPE certwatcher_read_certificate_total counter
certwatcher_read_certificate_total 2
# HELP controller_runtime_webhook_requests_in_flight Webhook requests being answered.
# TYPE controller_runtime_webhook_requests_in_flight gauge
controller_runtime_webhook_requests_in_flight{webhook="/convert"} 1
controller_runtime_webhook_requests_in_flight{webhook="/validate"} 0
# HELP controller_runtime_webhook_requests_total Total number of admission and conversion requests by HTTP status code.
# TYPE controller_runtime_webhook_requests_total counter
controller_runtime_webhook_requests_total{code="200",webhook="/convert"} 1
controller_runtime_webhook_requests_total{code="400",webhook="/validate"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), webhookprometheus.CertReadErrorsName, webhookprometheus.CertReadsName,
		webhookprometheus.InFlightName, webhookprometheus.RequestsTotalName); err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(reg, webhookprometheus.LatencyName); n != 2 {
		t.Fatalf("%d latency series, want 2", n)
	}
	if _, err := webhookprometheus.NewMetrics(reg); err == nil {
		t.Fatal("registered twice")
	}
}
