package rest

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/kgen-dev/kgen/runtime/rest/metrics"
)

// urlTemplate returns the request's URL with the namespace, name and parameter values replaced by
// "{namespace}", "{name}" and "{value}", for latency metrics whose labels must stay few.
func (r *Request) urlTemplate() url.URL {
	t := *r
	if t.namespaceSet && t.namespace != "" {
		t.namespace = "{namespace}"
	}
	if t.resourceName != "" {
		t.resourceName = "{name}"
	}
	t.params = make(url.Values, len(r.params))
	for k := range r.params {
		t.params[k] = []string{"{value}"}
	}
	return *t.URL()
}

// observeLatency reports how long the request, or its wait for the rate limiter, took.
func (r *Request) observeLatency(ctx context.Context, m metrics.LatencyMetric, latency time.Duration) {
	if metrics.Records(m) {
		m.Observe(ctx, r.verb, r.urlTemplate(), latency)
	}
}

// observeAttempt reports one round trip: its size, latency and result.
func (r *Request) observeAttempt(ctx context.Context, req *http.Request, resp *http.Response, err error, latency time.Duration) {
	m := metrics.Registered()
	m.RequestSize.Observe(ctx, r.verb, req.URL.Host, float64(max(req.ContentLength, 0)))
	r.observeLatency(ctx, m.RequestLatency, latency)
	m.RequestResult.Increment(ctx, resultCode(resp, err), r.verb, req.URL.Host)
}

// resultCode is the status code metrics label a round trip with: "<error>" when it got no response.
func resultCode(resp *http.Response, err error) string {
	if err != nil || resp == nil {
		return "<error>"
	}
	return strconv.Itoa(resp.StatusCode)
}
