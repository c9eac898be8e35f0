// Package metrics is where the REST client reports what it does: request latency, sizes and
// results, client-side throttling, retries, and exec credential plugin calls. A program registers
// its implementations once at start-up (the Prometheus adapter in metrics/prometheus does it with
// client-go's metric names); until then nothing is recorded. The names mirror client-go's
// tools/metrics.
package metrics

import (
	"context"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// LatencyMetric observes how long a request, or its wait for the rate limiter, took. The URL is a
// template: namespace and name read "{namespace}" and "{name}", so labels stay few.
type LatencyMetric interface {
	Observe(ctx context.Context, verb string, u url.URL, latency time.Duration)
}

// SizeMetric observes the size in bytes of a request or response body.
type SizeMetric interface {
	Observe(ctx context.Context, verb string, host string, size float64)
}

// ResultMetric counts requests by HTTP status code ("<error>" when no response came back).
type ResultMetric interface {
	Increment(ctx context.Context, code string, method string, host string)
}

// RetryMetric counts retried requests by the status code that caused the retry.
type RetryMetric interface {
	IncrementRetry(ctx context.Context, code string, method string, host string)
}

// CallsMetric counts exec credential plugin runs by exit code and outcome: "no_error",
// "plugin_execution_error", "plugin_not_found_error" or "client_internal_error".
type CallsMetric interface {
	Increment(exitCode int, callStatus string)
}

// ExpiryMetric records when the client certificate an exec plugin returned expires.
type ExpiryMetric interface {
	Set(expiry *time.Time)
}

// RegisterOpts holds the metrics to register; nil fields record nothing.
type RegisterOpts struct {
	RequestLatency     LatencyMetric
	RateLimiterLatency LatencyMetric
	RequestSize        SizeMetric
	ResponseSize       SizeMetric
	RequestResult      ResultMetric
	RequestRetry       RetryMetric
	ExecPluginCalls    CallsMetric
	ClientCertExpiry   ExpiryMetric
}

var (
	registerOnce sync.Once
	registered   atomic.Pointer[RegisterOpts]
)

// Register sets the metrics the REST client reports to. Only the first call has an effect, as in
// client-go, so a library cannot replace the program's metrics; it reports whether this call did.
func Register(opts RegisterOpts) bool {
	took := false
	registerOnce.Do(func() {
		filled := withNoops(opts)
		registered.Store(&filled)
		took = true
	})
	return took
}

// Registered returns the registered metrics, no-ops where none was registered.
func Registered() *RegisterOpts {
	if opts := registered.Load(); opts != nil {
		return opts
	}
	return &noops
}

// Records reports whether m records anything, so callers can skip preparing what only it needs.
func Records(m any) bool {
	_, isNoop := m.(interface{ noop() })
	return !isNoop
}

var noops = withNoops(RegisterOpts{})

// withNoops returns o with a no-op in place of every nil metric.
func withNoops(o RegisterOpts) RegisterOpts {
	if o.RequestLatency == nil {
		o.RequestLatency = noopLatency{}
	}
	if o.RateLimiterLatency == nil {
		o.RateLimiterLatency = noopLatency{}
	}
	if o.RequestSize == nil {
		o.RequestSize = noopSize{}
	}
	if o.ResponseSize == nil {
		o.ResponseSize = noopSize{}
	}
	if o.RequestResult == nil {
		o.RequestResult = noopResult{}
	}
	if o.RequestRetry == nil {
		o.RequestRetry = noopResult{}
	}
	if o.ExecPluginCalls == nil {
		o.ExecPluginCalls = noopCalls{}
	}
	if o.ClientCertExpiry == nil {
		o.ClientCertExpiry = noopExpiry{}
	}
	return o
}

type (
	noopLatency struct{}
	noopSize    struct{}
	noopResult  struct{}
	noopCalls   struct{}
	noopExpiry  struct{}
)

func (noopLatency) Observe(context.Context, string, url.URL, time.Duration) {}
func (noopSize) Observe(context.Context, string, string, float64)           {}
func (noopResult) Increment(context.Context, string, string, string)        {}
func (noopResult) IncrementRetry(context.Context, string, string, string)   {}
func (noopCalls) Increment(int, string)                                     {}
func (noopExpiry) Set(*time.Time)                                           {}

func (noopLatency) noop() {}
func (noopSize) noop()    {}
func (noopResult) noop()  {}
func (noopCalls) noop()   {}
func (noopExpiry) noop()  {}
