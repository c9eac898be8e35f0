package rest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kgen-dev/kgen/internal/pause"
)

func TestRequestURL(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c := coreClient(t, srv)
	tests := []struct {
		name string
		req  *Request
		want string
	}{
		{"namespaced name", c.Get().Namespace("ns").Resource("pods").Name("p"), "/api/v1/namespaces/ns/pods/p"},
		{"subresource", c.Put().Namespace("ns").Resource("pods").Name("p").SubResource("status"), "/api/v1/namespaces/ns/pods/p/status"},
		{"cluster scoped", c.Get().Resource("nodes").Name("n"), "/api/v1/nodes/n"},
		{"not scoped", c.Get().NamespaceIfScoped("ns", false).Resource("nodes"), "/api/v1/nodes"},
		{"scoped", c.Get().NamespaceIfScoped("ns", true).Resource("pods"), "/api/v1/namespaces/ns/pods"},
		{"suffix", c.Get().Namespace("ns").Resource("pods").Name("p").Suffix("proxy", "x"), "/api/v1/namespaces/ns/pods/p/proxy/x"},
		{"abs path", c.Get().AbsPath("/version"), "/version"},
		{"prefix", c.Get().Prefix("watch").Resource("pods"), "/api/v1/watch/pods"},
		{"params", c.Get().Resource("pods").VersionedParams(&metav1.ListOptions{LabelSelector: "a=b", Limit: 5}, testParameterCodec), "/api/v1/pods?labelSelector=a%3Db&limit=5"},
		{"param", c.Get().Resource("pods").Param("x", "1").Param("x", "2"), "/api/v1/pods?x=1&x=2"},
		{"timeout", c.Get().Resource("pods").Timeout(3 * time.Second), "/api/v1/pods?timeout=3s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.req.Error(); err != nil {
				t.Fatal(err)
			}
			u := tt.req.URL()
			if got := u.RequestURI(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestRequestBuilderErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c := coreClient(t, srv)
	for name, req := range map[string]*Request{
		"empty name":        c.Get().Resource("pods").Name(""),
		"slash in name":     c.Get().Resource("pods").Name("a/b"),
		"dot dot":           c.Get().Resource("pods").Name(".."),
		"resource twice":    c.Get().Resource("pods").Resource("nodes"),
		"namespace twice":   c.Get().Namespace("a").Namespace("b"),
		"bad body type":     c.Post().Resource("pods").Body(42),
		"empty ns on POST":  c.Post().Namespace("").Resource("pods").Body([]byte("{}")),
		"empty ns with GET": c.Get().Namespace("").Resource("pods").Name("x"),
	} {
		t.Run(name, func(t *testing.T) {
			if err := req.Do(context.Background()).Error(); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
}

func TestDoDecodesJSONAndProtobuf(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: corev1.PodSpec{NodeName: "n1"}}
	var gotAccept atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAccept.Store(r.Header.Get("Accept"))
		accept := r.Header.Get("Accept")
		mediaType := "application/json"
		if strings.HasPrefix(accept, "application/vnd.kubernetes.protobuf") {
			mediaType = "application/vnd.kubernetes.protobuf"
		}
		info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), mediaType)
		w.Header().Set("Content-Type", mediaType)
		_ = testCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion).Encode(pod, w)
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	for _, proto := range []bool{false, true} {
		t.Run(fmt.Sprintf("protobuf=%v", proto), func(t *testing.T) {
			got := &corev1.Pod{}
			var ct string
			if err := c.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("ns").Resource("pods").Name("p").Do(context.Background()).ContentType(&ct).Into(got); err != nil {
				t.Fatal(err)
			}
			if got.Name != "p" || got.Spec.NodeName != "n1" {
				t.Fatalf("decoded %+v", got)
			}
			wantAccept := "application/json, */*"
			if proto {
				wantAccept = "application/vnd.kubernetes.protobuf,application/json"
			}
			if a := gotAccept.Load().(string); a != wantAccept {
				t.Errorf("Accept = %q, want %q", a, wantAccept)
			}
			if proto != strings.Contains(ct, "protobuf") {
				t.Errorf("content type %q", ct)
			}
		})
	}
}

func TestBodyEncodingAndPatch(t *testing.T) {
	var mu sync.Mutex
	var gotCT, gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		gotCT, gotBody = r.Header.Get("Content-Type"), string(b)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	ctx := context.Background()

	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	out := &corev1.Pod{}
	if err := c.Post().Namespace("ns").Resource("pods").Body(pod).Do(ctx).Into(out); err != nil {
		t.Fatal(err)
	}
	if gotCT != "application/json" || !strings.Contains(gotBody, `"kind":"Pod"`) || out.Name != "p" {
		t.Fatalf("object body: ct=%q body=%q out=%v", gotCT, gotBody, out.Name)
	}
	if _, err := c.Patch(types.MergePatchType).Namespace("ns").Resource("pods").Name("p").Body([]byte(`{"metadata":{"labels":{"a":"b"}}}`)).DoRaw(ctx); err != nil {
		t.Fatal(err)
	}
	if gotCT != string(types.MergePatchType) || gotBody != `{"metadata":{"labels":{"a":"b"}}}` {
		t.Fatalf("patch: ct=%q body=%q", gotCT, gotBody)
	}
	if _, err := c.Put().Resource("x").Body(strings.NewReader("reader-body")).DoRaw(ctx); err != nil {
		t.Fatal(err)
	}
	if gotBody != "reader-body" {
		t.Fatalf("reader body %q", gotBody)
	}
	var nilPod *corev1.Pod
	if _, err := c.Post().Resource("x").Body(nilPod).DoRaw(ctx); err != nil || gotBody != "" {
		t.Fatalf("nil object body: %v %q", err, gotBody)
	}
}

func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":%q,"reason":%q,"code":%d}`, msg, reason, code)
}

func TestServerErrorsBecomeStatusErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/namespaces/ns/pods/missing":
			writeStatus(w, 404, metav1.StatusReasonNotFound, `pods "missing" not found`)
		case "/api/v1/namespaces/ns/pods/conflict":
			writeStatus(w, 409, metav1.StatusReasonConflict, "conflict")
		case "/api/v1/namespaces/ns/pods/exists":
			writeStatus(w, 409, metav1.StatusReasonAlreadyExists, "exists")
		case "/api/v1/namespaces/ns/pods/text":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("upstream broke"))
		case "/api/v1/namespaces/ns/pods/forbidden":
			w.WriteHeader(http.StatusForbidden)
		default:
			w.WriteHeader(http.StatusTeapot)
		}
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	get := func(name string) error {
		return c.Get().Namespace("ns").Resource("pods").Name(name).MaxRetries(0).Do(context.Background()).Into(&corev1.Pod{})
	}
	checks := []struct {
		name string
		is   func(error) bool
	}{
		{"missing", apierrors.IsNotFound},
		{"conflict", apierrors.IsConflict},
		{"exists", apierrors.IsAlreadyExists},
		{"forbidden", apierrors.IsForbidden},
		{"text", func(err error) bool {
			return apierrors.ReasonForError(err) == metav1.StatusReasonInternalError && strings.Contains(err.Error(), "upstream broke")
		}},
	}
	for _, ch := range checks {
		err := get(ch.name)
		var se *apierrors.StatusError
		if !errors.As(err, &se) || !ch.is(err) {
			t.Errorf("%s: got %T %v", ch.name, err, err)
		}
	}
	if err := get("missing"); apierrors.ReasonForError(err) != metav1.StatusReasonNotFound || !strings.Contains(err.Error(), `pods "missing" not found`) {
		t.Errorf("status message lost: %v", err)
	}
}

func TestRetryAfterOn429And5xx(t *testing.T) {
	for _, code := range []int{http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusServiceUnavailable} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				if calls.Add(1) <= 2 {
					w.Header().Set("Retry-After", "0")
					writeStatus(w, code, metav1.StatusReasonTooManyRequests, "slow down")
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(b)
			}))
			defer srv.Close()
			c := coreClient(t, srv)
			body := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}`
			out := &corev1.Pod{}
			if err := c.Post().Namespace("ns").Resource("pods").Body([]byte(body)).Do(context.Background()).Into(out); err != nil {
				t.Fatal(err)
			}
			if calls.Load() != 3 || out.Name != "p" {
				t.Fatalf("calls=%d name=%q", calls.Load(), out.Name)
			}
		})
	}
}

func TestRetryAfterWaitsTheGivenSeconds(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(encodeJSON(t, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}))
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	clk := testingclock.NewFakeClock(time.Now())
	c.clock = clk
	done := make(chan error, 1)
	go func() { done <- c.Get().Resource("pods").Name("p").Do(context.Background()).Error() }()
	waitForTimer(t, clk)
	clk.Step(time.Second - time.Millisecond)
	if !clk.HasWaiters() || calls.Load() != 1 {
		t.Fatalf("retried before 1s passed (%d calls)", calls.Load())
	}
	clk.Step(time.Millisecond)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("calls = %d, want 2", n)
	}
}

func TestRetriesAreBounded(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "0")
		writeStatus(w, http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests, "slow down")
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	err := c.Get().Resource("pods").Do(context.Background()).Error()
	if !apierrors.IsTooManyRequests(err) {
		t.Fatalf("got %v", err)
	}
	if n := calls.Load(); n != DefaultMaxRetries+1 {
		t.Fatalf("calls = %d, want %d", n, DefaultMaxRetries+1)
	}
	calls.Store(0)
	_ = c.Get().Resource("pods").MaxRetries(2).Do(context.Background()).Error()
	if n := calls.Load(); n != 3 {
		t.Fatalf("calls with MaxRetries(2) = %d, want 3", n)
	}
}

func TestNoRetryWithout429RetryAfterOrForStreamingBodies(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Query().Get("retryafter") != "" {
			w.Header().Set("Retry-After", "0")
		}
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	if err := c.Get().Resource("pods").Do(context.Background()).Error(); !apierrors.IsInternalError(err) {
		t.Fatalf("got %v", err)
	}
	if err := c.Post().Resource("pods").Param("retryafter", "1").Body(strings.NewReader("{}")).Do(context.Background()).Error(); err == nil {
		t.Fatal("want error")
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("calls = %d, want 2 (no retries)", n)
	}
}

// resettingServer drops the connection of the first `drops` requests without a response.
func resettingServer(t *testing.T, drops int32, ok http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= drops {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			_ = conn.Close()
			return
		}
		ok(w, r)
	}))
	return srv, &calls
}

func TestConnectionResetRetriedForGETOnly(t *testing.T) {
	srv, calls := resettingServer(t, 1, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(encodeJSON(t, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}))
	})
	defer srv.Close()
	c := coreClient(t, srv)
	if err := c.Get().Resource("pods").Name("p").Do(context.Background()).Into(&corev1.Pod{}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 {
		t.Fatalf("GET calls = %d, want 2", calls.Load())
	}
	calls.Store(0)
	if err := c.Post().Resource("pods").Body([]byte("{}")).Do(context.Background()).Error(); err == nil {
		t.Fatal("POST on a dropped connection must fail")
	}
	if calls.Load() != 1 {
		t.Fatalf("POST calls = %d, want 1", calls.Load())
	}
}

func TestContextCancelDuringRetryWaitAndSlowBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/slow" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"kind":`))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	c := coreClient(t, srv)

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Get().Resource("pods").Do(ctx).Error()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("retry wait: got %v after %v", err, time.Since(start))
	}

	ctx2, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	start = time.Now()
	if err := c.Get().AbsPath("/api/v1/slow").Do(ctx2).Error(); err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("slow body: got %v after %v", err, time.Since(start))
	}
	start = time.Now()
	if err := c.Get().AbsPath("/api/v1/slow").Timeout(200 * time.Millisecond).Do(context.Background()).Error(); err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("request timeout: got %v after %v", err, time.Since(start))
	}
}

// countingLimiter records how often requests waited for a token.
type countingLimiter struct{ waits atomic.Int32 }

func (l *countingLimiter) TryAccept() bool { return true }
func (l *countingLimiter) Accept()         { l.waits.Add(1) }
func (l *countingLimiter) Stop()           {}
func (l *countingLimiter) QPS() float32    { return 1 }
func (l *countingLimiter) Wait(context.Context) error {
	l.waits.Add(1)
	return nil
}

func TestRateLimiting(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("watch") == "true" {
			w.(http.Flusher).Flush()
			return
		}
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	defer srv.Close()
	limiter := &countingLimiter{}
	c := coreClient(t, srv, func(c *Config) { c.RateLimiter = limiter })
	ctx := context.Background()
	for range 3 {
		if err := c.Get().Resource("pods").Do(ctx).Error(); err != nil {
			t.Fatal(err)
		}
	}
	w, err := c.Get().Resource("pods").Param("watch", "true").Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	if n := limiter.waits.Load(); n != 3 {
		t.Fatalf("limiter waits = %d, want 3 (watches are not limited)", n)
	}

	if l := rateLimiterFor(&Config{QPS: -1}); l != nil {
		t.Errorf("QPS<0 must disable limiting, got %v", l)
	}
	if l := rateLimiterFor(&Config{}); l == nil || l.QPS() != DefaultQPS {
		t.Errorf("default limiter %v", l)
	}

	// A token bucket of burst 1 at 5 QPS makes each request after the first wait 200ms for its token.
	clk := testingclock.NewFakeClock(time.Now())
	slow := coreClient(t, srv, func(c *Config) { c.RateLimiter = newTokenBucket(5, 1, clk) })
	done := make(chan error, 1)
	go func() {
		for range 3 {
			if err := slow.Get().Resource("pods").Do(ctx).Error(); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for request := 2; request <= 3; request++ {
		waitForTimer(t, clk)
		clk.Step(199 * time.Millisecond)
		if !clk.HasWaiters() {
			t.Fatalf("request %d at 5 QPS burst 1 got its token before 200ms", request)
		}
		clk.Step(time.Millisecond)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := slow.Get().Resource("pods").Do(cctx).Error(); !errors.Is(err, context.Canceled) {
		t.Fatalf("limiter wait must honour the context, got %v", err)
	}
}

func TestGzipAndWarnings(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Errorf("Accept-Encoding = %q", r.Header.Get("Accept-Encoding"))
		}
		w.Header().Add("Warning", `299 - "deprecated API"`)
		w.Header().Add("Warning", `299 - "second, with comma"`)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		gz := gzip.NewWriter(w)
		_, _ = gz.Write(encodeJSON(t, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "zipped"}}))
		_ = gz.Close()
	}))
	defer srv.Close()
	var buf bytes.Buffer
	handler := NewWarningWriter(&buf, WarningWriterOptions{Deduplicate: true})
	c := coreClient(t, srv, func(c *Config) { c.WarningHandler = handler })
	pod := &corev1.Pod{}
	for range 2 {
		res := c.Get().Resource("pods").Name("zipped").Do(context.Background())
		if err := res.Into(pod); err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings()) != 2 {
			t.Fatalf("warnings %v", res.Warnings())
		}
	}
	if pod.Name != "zipped" {
		t.Fatal(pod.Name)
	}
	if got := buf.String(); got != "Warning: deprecated API\nWarning: second, with comma\n" || handler.WarningCount() != 2 {
		t.Fatalf("warnings written: %q", got)
	}
}

func TestStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/namespaces/ns/pods/p/log" {
			_, _ = w.Write([]byte("line1\nline2\n"))
			return
		}
		writeStatus(w, 404, metav1.StatusReasonNotFound, "no such pod")
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	rc, err := c.Get().Namespace("ns").Resource("pods").Name("p").SubResource("log").Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	_ = rc.Close()
	if string(b) != "line1\nline2\n" {
		t.Fatalf("%q", b)
	}
	if _, err := c.Get().Namespace("ns").Resource("pods").Name("q").SubResource("log").Stream(context.Background()); !apierrors.IsNotFound(err) {
		t.Fatalf("got %v", err)
	}
}

func TestResultGetAndStatusSuccess(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	obj, err := c.Delete().Resource("pods").Name("p").Do(context.Background()).Get()
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := obj.(*metav1.Status); !ok || s.Status != metav1.StatusSuccess {
		t.Fatalf("got %#v", obj)
	}
	var code int
	var created bool
	_ = c.Delete().Resource("pods").Name("p").Do(context.Background()).StatusCode(&code).WasCreated(&created)
	if code != 200 || created {
		t.Fatal(code, created)
	}
}

func TestRequestWithoutSerializer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	newReq := func() *Request {
		return NewRequestWithClient(u, "/api/v1", ClientContentConfig{}, srv.Client()).Verb(http.MethodGet)
	}
	if err := newReq().Body(&corev1.Pod{}).Do(context.Background()).Error(); err == nil || !strings.Contains(err.Error(), "no serializer") {
		t.Fatalf("body: %v", err)
	}
	if raw, err := newReq().DoRaw(context.Background()); err != nil || string(raw) != "{}" {
		t.Fatalf("raw: %q %v", raw, err)
	}
	if err := newReq().Do(context.Background()).Into(&corev1.Pod{}); err == nil {
		t.Fatal("Into without a serializer must fail, not panic")
	}
	if _, err := newReq().Watch(context.Background()); err == nil {
		t.Fatal("Watch without a serializer must fail, not panic")
	}
}

// rawBody is a response body and its content type.
type rawBody struct {
	contentType string
	body        []byte
}

func TestMalformedResponseBodiesGiveErrors(t *testing.T) {
	const protobuf = "application/vnd.kubernetes.protobuf"
	info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), protobuf)
	list := &corev1.PodList{Items: []corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"x": "y"}}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}}
	pb, err := runtime.Encode(testCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), list)
	if err != nil {
		t.Fatal(err)
	}
	js := encodeJSON(t, list)
	var bodies []rawBody
	for _, cut := range []int{1, 5, len(pb) / 3, len(pb) / 2, len(pb) - 1} {
		bodies = append(bodies, rawBody{protobuf, pb[:cut]})
	}
	corrupt := append([]byte(nil), pb...)
	for i := 8; i < len(corrupt); i += 7 {
		corrupt[i] ^= 0xff
	}
	bodies = append(bodies,
		rawBody{protobuf, corrupt},
		rawBody{"application/json", js[:len(js)/2]},
		rawBody{"application/json", []byte(`{"kind":"PodList","apiVersion":"v1","items":"not-a-list"}`)})
	for i, b := range bodies {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", b.contentType)
			_, _ = w.Write(b.body)
		}))
		c := coreClient(t, srv)
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("body %d panicked: %v", i, p)
				}
			}()
			if err := c.Get().UseProtobufAsDefault().Resource("pods").Do(context.Background()).Into(&corev1.PodList{}); err == nil {
				t.Errorf("body %d (%s, %d bytes) decoded without error", i, b.contentType, len(b.body))
			}
		}()
		srv.Close()
	}
}

// slowLimiter makes every request wait d for its token.
type slowLimiter struct {
	countingLimiter
	d time.Duration
}

func (l *slowLimiter) Wait(ctx context.Context) error {
	l.waits.Add(1)
	if !pause.For(ctx, clock.RealClock{}, l.d) {
		return ctx.Err()
	}
	return nil
}

func TestThrottleWaitDoesNotCountAgainstTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	defer srv.Close()
	c := coreClient(t, srv, func(c *Config) { c.RateLimiter = &slowLimiter{d: 300 * time.Millisecond} })
	if err := c.Get().Resource("pods").Timeout(200 * time.Millisecond).Do(context.Background()).Error(); err != nil {
		t.Fatalf("a throttled request must not time out before it is sent: %v", err)
	}
}
