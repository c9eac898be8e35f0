// Package prometheus exports the REST client's metrics to Prometheus under the names client-go's
// clients export (rest_client_requests_total, rest_client_request_duration_seconds, …), so
// existing dashboards and alerts keep working. Register once at start-up, before any request:
//
//	import restprometheus "github.com/kgen-dev/kgen/runtime/rest/metrics/prometheus"
//
//	if err := restprometheus.Register(prometheus.DefaultRegisterer); err != nil { … }
package prometheus

import (
	"context"
	"errors"
	"math"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kgen-dev/kgen/runtime/rest/metrics"
)

var (
	latencyBuckets = []float64{0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60}
	sizeBuckets    = []float64{64, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216}
)

// Register creates the rest_client_* metrics, registers them with reg and makes every REST client of
// the program report to them. It fails if the REST client's metrics were registered before (see
// metrics.Register): then nothing is registered with reg.
func Register(reg prometheus.Registerer) error {
	requestLatency := histogram("rest_client_request_duration_seconds",
		"Request latency in seconds, by verb and host.", latencyBuckets, "verb", "host")
	rateLimiterLatency := histogram("rest_client_rate_limiter_duration_seconds",
		"Seconds requests waited for the client-side rate limiter, by verb and host.", latencyBuckets, "verb", "host")
	requestSize := histogram("rest_client_request_size_bytes",
		"Request body size in bytes, by verb and host.", sizeBuckets, "verb", "host")
	responseSize := histogram("rest_client_response_size_bytes",
		"Response body size in bytes, by verb and host.", sizeBuckets, "verb", "host")
	requests := counter("rest_client_requests_total",
		"Number of HTTP requests, by status code, method and host.", "code", "method", "host")
	retries := counter("rest_client_request_retries_total",
		"Number of request retries, by the status code that caused them, verb and host.", "code", "verb", "host")
	execCalls := counter("rest_client_exec_plugin_call_total",
		"Number of exec credential plugin runs, by exit code and outcome.", "code", "call_status")
	expiry := &certExpiry{}
	execTTL := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "rest_client_exec_plugin_ttl_seconds",
		Help: "Seconds until the client certificate from the exec credential plugin expires; +Inf without one.",
	}, expiry.ttl)

	if !metrics.Register(metrics.RegisterOpts{
		RequestLatency:     latency{requestLatency},
		RateLimiterLatency: latency{rateLimiterLatency},
		RequestSize:        size{requestSize},
		ResponseSize:       size{responseSize},
		RequestResult:      results{requests},
		RequestRetry:       results{retries},
		ExecPluginCalls:    calls{execCalls},
		ClientCertExpiry:   expiry,
	}) {
		return errors.New("rest metrics: the REST client's metrics were registered before")
	}
	var errs []error
	for _, c := range []prometheus.Collector{
		requestLatency, rateLimiterLatency, requestSize, responseSize, requests, retries, execCalls, execTTL,
	} {
		errs = append(errs, reg.Register(c))
	}
	return errors.Join(errs...)
}

func histogram(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
}

func counter(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

type latency struct{ vec *prometheus.HistogramVec }

func (m latency) Observe(_ context.Context, verb string, u url.URL, d time.Duration) {
	m.vec.WithLabelValues(verb, u.Host).Observe(d.Seconds())
}

type size struct{ vec *prometheus.HistogramVec }

func (m size) Observe(_ context.Context, verb, host string, bytes float64) {
	m.vec.WithLabelValues(verb, host).Observe(bytes)
}

type results struct{ vec *prometheus.CounterVec }

func (m results) Increment(_ context.Context, code, method, host string) {
	m.vec.WithLabelValues(code, method, host).Inc()
}

func (m results) IncrementRetry(_ context.Context, code, verb, host string) {
	m.vec.WithLabelValues(code, verb, host).Inc()
}

type calls struct{ vec *prometheus.CounterVec }

func (m calls) Increment(exitCode int, status string) {
	m.vec.WithLabelValues(strconv.Itoa(exitCode), status).Inc()
}

// certExpiry keeps the expiry of the latest exec plugin certificate for the TTL gauge.
type certExpiry struct{ at atomic.Pointer[time.Time] }

func (c *certExpiry) Set(expiry *time.Time) { c.at.Store(expiry) }

func (c *certExpiry) ttl() float64 {
	at := c.at.Load()
	if at == nil {
		return math.Inf(1)
	}
	return time.Until(*at).Seconds()
}
