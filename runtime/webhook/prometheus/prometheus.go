// Package prometheus exports webhook server metrics to Prometheus under the
// names controller-runtime's webhook server uses
// (controller_runtime_webhook_requests_total, …_latency_seconds,
// …_requests_in_flight, labelled by webhook path, and certwatcher's read
// counters), so existing dashboards and alerts keep working:
//
//	metrics, err := prometheus.NewMetrics(prometheus.DefaultRegisterer)
//	srv, err := webhook.NewServer(webhook.Options{Metrics: metrics, …})
package prometheus

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kgen-dev/kgen/runtime/webhook"
)

// Metric names and labels, as exported by controller-runtime.
const (
	RequestsTotalName       = "controller_runtime_webhook_requests_total"
	LatencyName             = "controller_runtime_webhook_latency_seconds"
	InFlightName            = "controller_runtime_webhook_requests_in_flight"
	CertReadsName           = "certwatcher_read_certificate_total"
	CertReadErrorsName      = "certwatcher_read_certificate_errors_total"
	WebhookLabel, CodeLabel = "webhook", "code"
)

// Metrics is a webhook.Metrics backed by Prometheus collectors.
type Metrics struct {
	requests       *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	inFlight       *prometheus.GaugeVec
	certReads      prometheus.Counter
	certReadErrors prometheus.Counter
}

var _ webhook.Metrics = (*Metrics)(nil)

// NewMetrics creates the collectors and registers them with reg.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: RequestsTotalName, Help: "Total number of admission and conversion requests by HTTP status code.",
		}, []string{WebhookLabel, CodeLabel}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: LatencyName, Help: "Seconds taken to answer a webhook request.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{WebhookLabel}),
		inFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: InFlightName, Help: "Webhook requests being answered.",
		}, []string{WebhookLabel}),
		certReads: prometheus.NewCounter(prometheus.CounterOpts{
			Name: CertReadsName, Help: "Total number of serving certificate reads.",
		}),
		certReadErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: CertReadErrorsName, Help: "Total number of serving certificate reads that failed.",
		}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.latency, m.inFlight, m.certReads, m.certReadErrors} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// RequestStarted counts a request in flight.
func (m *Metrics) RequestStarted(path string) { m.inFlight.WithLabelValues(path).Inc() }

// RequestFinished records a request's code and latency.
func (m *Metrics) RequestFinished(path string, code int, latency time.Duration) {
	m.inFlight.WithLabelValues(path).Dec()
	m.requests.WithLabelValues(path, strconv.Itoa(code)).Inc()
	m.latency.WithLabelValues(path).Observe(latency.Seconds())
}

// CertificateRead counts a certificate read and, when err is not nil, its failure.
func (m *Metrics) CertificateRead(err error) {
	m.certReads.Inc()
	if err != nil {
		m.certReadErrors.Inc()
	}
}
