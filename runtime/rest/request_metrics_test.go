package rest

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/rest/metrics"
)

// metricLog is what the REST client reported to the metrics this test binary registers, one line
// per report.
type metricLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *metricLog) add(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

// about returns the lines that mention host, with host removed.
func (l *metricLog) about(host string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, host) {
			out = append(out, strings.ReplaceAll(line, host, "HOST"))
		}
	}
	return out
}

func (l *metricLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

func (l *metricLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines[n:])
}

type (
	latencyLog struct {
		*metricLog
		name string
	}
	sizeLog struct {
		*metricLog
		name string
	}
	resultLog struct{ *metricLog }
	callsLog  struct{ *metricLog }
	expiryLog struct{ *metricLog }
)

func (l latencyLog) Observe(_ context.Context, verb string, u url.URL, latency time.Duration) {
	l.add("%s %s %s%s?%s", l.name, verb, u.Host, u.Path, u.RawQuery)
}
func (l sizeLog) Observe(_ context.Context, verb, host string, size float64) {
	l.add("%s %s %s %v", l.name, verb, host, size)
}
func (l resultLog) Increment(_ context.Context, code, method, host string) {
	l.add("result %s %s %s", code, method, host)
}
func (l resultLog) IncrementRetry(_ context.Context, code, method, host string) {
	l.add("retry %s %s %s", code, method, host)
}
func (l callsLog) Increment(exitCode int, status string) { l.add("exec %d %s", exitCode, status) }
func (l expiryLog) Set(expiry *time.Time)                { l.add("expiry %s", expiry.UTC().Format(time.RFC3339)) }

var (
	reported     = &metricLog{}
	registerOnce sync.Once
)

// recordMetrics registers metrics that log to reported, once for the test binary.
func recordMetrics(t *testing.T) *metricLog {
	registerOnce.Do(func() {
		if !metrics.Register(metrics.RegisterOpts{
			RequestLatency: latencyLog{reported, "latency"}, RateLimiterLatency: latencyLog{reported, "throttled"},
			RequestSize: sizeLog{reported, "request-size"}, ResponseSize: sizeLog{reported, "response-size"},
			RequestResult: resultLog{reported}, RequestRetry: resultLog{reported},
			ExecPluginCalls: callsLog{reported}, ClientCertExpiry: expiryLog{reported},
		}) {
			t.Fatal("metrics were registered before")
		}
	})
	if metrics.Register(metrics.RegisterOpts{}) {
		t.Fatal("a second Register took effect")
	}
	return reported
}

func TestRequestsReportLatencySizeResultAndRetries(t *testing.T) {
	log := recordMetrics(t)
	body := encodeJSON(t, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns"}})
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	client := coreClient(t, srv, func(c *Config) { c.QPS, c.Burst = 1000, 1000 })
	err := client.Get().Namespace("ns").Resource("configmaps").Name("c").Param("resourceVersion", "7").
		Do(context.Background()).Error()
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Post().Namespace("ns").Resource("configmaps").Body(body).Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	template := "HOST/api/v1/namespaces/{namespace}/configmaps/{name}?resourceVersion=%7Bvalue%7D"
	want := []string{
		"throttled GET " + template,
		"request-size GET HOST 0", "latency GET " + template, "result 429 GET HOST", "retry 429 GET HOST",
		"throttled GET " + template,
		"request-size GET HOST 0", "latency GET " + template, "result 200 GET HOST",
		fmt.Sprintf("response-size GET HOST %d", len(body)),
		"throttled POST HOST/api/v1/namespaces/{namespace}/configmaps?",
		fmt.Sprintf("request-size POST HOST %d", len(body)),
		"latency POST HOST/api/v1/namespaces/{namespace}/configmaps?", "result 200 POST HOST",
		fmt.Sprintf("response-size POST HOST %d", len(body)),
	}
	if got := log.about(host); !slices.Equal(got, want) {
		t.Fatalf("reported\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	srv.Close() // no server: the attempt has no status code
	if err := client.Delete().Namespace("ns").Resource("configmaps").Name("c").Do(context.Background()).Error(); err == nil {
		t.Fatal("a request to a closed server succeeded")
	}
	if got := log.about(host); !slices.Contains(got, "result <error> DELETE HOST") {
		t.Fatalf("a failed round trip was not reported as <error>: %q", got)
	}
}

func TestExecPluginCallsAndCertificateExpiryAreReported(t *testing.T) {
	log := recordMetrics(t)
	plugin := buildPlugin(t)
	ca := newTestCA(t)
	srv := tlsServer(t, ca, true)
	certPEM, keyPEM := ca.issue(t, "exec-user", nil, nil, x509.ExtKeyUsageClientAuth)
	block, _ := pem.Decode(certPEM)
	leaf, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	counter := filepath.Join(t.TempDir(), "count")
	config := func(command string, env ...ExecEnvVar) *Config {
		return &Config{Host: srv.URL, TLSClientConfig: TLSClientConfig{CAData: ca.certPEM}, ExecProvider: &ExecConfig{
			Command: command, APIVersion: ExecCredentialV1, InteractiveMode: NeverExecInteractiveMode,
			Env: append(env, ExecEnvVar{Name: "COUNTER_FILE", Value: counter}),
		}}
	}
	before := log.count()
	if _, _, err := fetch(config(plugin, ExecEnvVar{Name: "PLUGIN_CERT", Value: string(certPEM)}, ExecEnvVar{Name: "PLUGIN_KEY", Value: string(keyPEM)})); err != nil {
		t.Fatal(err)
	}
	_, _, _ = fetch(config(plugin, ExecEnvVar{Name: "PLUGIN_FAIL", Value: "1"}))
	_, _, _ = fetch(config(filepath.Join(t.TempDir(), "no-such-plugin")))
	want := []string{
		"exec 0 no_error", "expiry " + leaf.NotAfter.UTC().Format(time.RFC3339),
		"exec 7 plugin_execution_error",
		"exec 1 plugin_not_found_error",
	}
	var got []string
	for _, line := range log.since(before) {
		if strings.HasPrefix(line, "exec ") || strings.HasPrefix(line, "expiry ") {
			got = append(got, line)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("reported %q, want %q", got, want)
	}
}
