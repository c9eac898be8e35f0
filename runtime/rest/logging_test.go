package rest

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

func TestRequestLoggingRedactsCredentials(t *testing.T) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("v", "9")
	_ = fs.Set("logtostderr", "false")
	var buf bytes.Buffer
	klog.SetOutput(&buf)
	defer func() {
		_ = fs.Set("v", "0")
		_ = fs.Set("logtostderr", "true")
		klog.SetOutput(nil)
	}()

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(encodeJSON(t, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "logged-pod"}}))
	}))
	defer srv.Close()
	c := coreClient(t, srv, func(c *Config) { c.BearerToken = "token-that-must-not-be-logged" })
	if err := c.Get().Resource("pods").Name("logged-pod").SetHeader("Authorization", "Bearer explicit-secret").Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	if err := c.Post().Resource("pods").Body([]byte(`{"request":"body"}`)).Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	klog.Flush()
	out := buf.String()
	for _, want := range []string{"HTTP request", "/api/v1/pods/logged-pod", "200 OK", "Response Body", "logged-pod", "Request Body", `{\"request\":\"body\"}`, "Bearer \\u003cmasked\\u003e"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"token-that-must-not-be-logged", "explicit-secret"} {
		if strings.Contains(out, secret) {
			t.Errorf("log leaks %q", secret)
		}
	}
}

func TestRedactHeaders(t *testing.T) {
	h := http.Header{"Authorization": {"Basic dTpw"}, "Cookie": {"session=abc"}, "Accept": {"application/json"}}
	got := redactHeaders(h)
	if got.Get("Authorization") != "Basic <masked>" || got.Get("Cookie") != "<masked>" || got.Get("Accept") != "application/json" {
		t.Fatalf("%v", got)
	}
	if h.Get("Authorization") != "Basic dTpw" {
		t.Fatal("input modified")
	}
}

func TestTokenBucketRateLimiter(t *testing.T) {
	l := NewTokenBucketRateLimiter(1, 2)
	if l.QPS() != 1 || !l.TryAccept() || !l.TryAccept() || l.TryAccept() {
		t.Fatal("burst of 2 then empty expected")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Wait(ctx); err == nil {
		t.Fatal("Wait must honour a cancelled context")
	}
	l.Stop()
}
