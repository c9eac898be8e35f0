package metrics_test

import (
	"context"
	"testing"

	"github.com/kgen-dev/kgen/runtime/rest/metrics"
)

type results struct{ n int }

func (r *results) Increment(context.Context, string, string, string) { r.n++ }

func TestRegisterTakesTheFirstMetricsAndNoopsTheRest(t *testing.T) {
	before := metrics.Registered()
	for name, m := range map[string]any{
		"RequestLatency": before.RequestLatency, "RateLimiterLatency": before.RateLimiterLatency,
		"RequestSize": before.RequestSize, "ResponseSize": before.ResponseSize, "RequestResult": before.RequestResult,
		"RequestRetry": before.RequestRetry, "ExecPluginCalls": before.ExecPluginCalls, "ClientCertExpiry": before.ClientCertExpiry,
	} {
		if m == nil || metrics.Records(m) {
			t.Errorf("%s before Register: %T, want a no-op", name, m)
		}
	}

	first, second := &results{}, &results{}
	if !metrics.Register(metrics.RegisterOpts{RequestResult: first}) {
		t.Fatal("the first Register did not take effect")
	}
	if metrics.Register(metrics.RegisterOpts{RequestResult: second}) {
		t.Fatal("a second Register took effect")
	}
	got := metrics.Registered()
	got.RequestResult.Increment(context.Background(), "200", "GET", "h")
	got.RequestRetry.IncrementRetry(context.Background(), "429", "GET", "h") // not registered: a no-op
	if first.n != 1 || second.n != 0 || !metrics.Records(got.RequestResult) || metrics.Records(got.RequestLatency) {
		t.Fatalf("first %d, second %d calls; records result %v, latency %v",
			first.n, second.n, metrics.Records(got.RequestResult), metrics.Records(got.RequestLatency))
	}
}
