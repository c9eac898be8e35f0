package prometheus_test

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/runtime/rest"
	restprometheus "github.com/kgen-dev/kgen/runtime/rest/metrics/prometheus"
)

func TestRequestsAreExportedUnderClientGoNames(t *testing.T) {
	reg := prometheus.NewRegistry()
	if err := restprometheus.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := restprometheus.Register(prometheus.NewRegistry()); err == nil || !strings.Contains(err.Error(), "registered before") {
		t.Fatalf("a second Register: %v", err)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`))
	}))
	defer srv.Close()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	client, err := rest.RESTClientForGroupVersion(&rest.Config{Host: srv.URL}, "/api", corev1.SchemeGroupVersion, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Get().Namespace("ns").Resource("configmaps").Name("c").Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}

	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	got := map[string]*dto.MetricFamily{}
	for _, f := range families {
		got[f.GetName()] = f
	}
	for name, labels := range map[string]string{
		"rest_client_requests_total":                "code=200 host=" + host + " method=GET",
		"rest_client_request_duration_seconds":      "host=" + host + " verb=GET",
		"rest_client_rate_limiter_duration_seconds": "host=" + host + " verb=GET",
		"rest_client_request_size_bytes":            "host=" + host + " verb=GET",
		"rest_client_response_size_bytes":           "host=" + host + " verb=GET",
	} {
		f := got[name]
		if f == nil || len(f.Metric) != 1 {
			t.Errorf("%s: %v", name, f)
			continue
		}
		var pairs []string
		for _, l := range f.Metric[0].Label {
			pairs = append(pairs, l.GetName()+"="+l.GetValue())
		}
		if strings.Join(pairs, " ") != labels {
			t.Errorf("%s labels %v, want %s", name, pairs, labels)
		}
	}
	if n := got["rest_client_requests_total"].GetMetric()[0].GetCounter().GetValue(); n != 1 {
		t.Errorf("rest_client_requests_total = %v, want 1", n)
	}
	if ttl := got["rest_client_exec_plugin_ttl_seconds"].GetMetric()[0].GetGauge().GetValue(); !math.IsInf(ttl, 1) {
		t.Errorf("TTL without an exec certificate = %v, want +Inf", ttl)
	}
}
