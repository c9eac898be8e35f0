package rest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

func encodeProtobuf(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	data, err := runtime.Encode(testCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func podList(n int) *corev1.PodList {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "7", Continue: "next"}}
	for i := range n {
		list.Items = append(list.Items, corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("pod-%d", i), Namespace: "ns", Labels: map[string]string{"i": fmt.Sprint(i)},
		}})
	}
	return list
}

// response is what a test server answers.
type response struct {
	status      int
	contentType string
	body        []byte
}

func serve(resp response) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if resp.contentType != "" {
			w.Header().Set("Content-Type", resp.contentType)
		}
		w.WriteHeader(resp.status)
		_, _ = w.Write(resp.body)
	}
}

// describe returns an error's type and text.
func describe(err error) string {
	if err == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%T: %s", err, err)
}

// TestDoIntoMatchesDoThenInto decodes the same responses with DoInto and with Do(ctx).Into and
// compares errors and objects.
func TestDoIntoMatchesDoThenInto(t *testing.T) {
	listJSON := encodeJSON(t, podList(5))
	listProto := encodeProtobuf(t, podList(5))
	status := encodeJSON(t, &metav1.Status{Status: metav1.StatusFailure, Message: "pods is forbidden", Reason: metav1.StatusReasonForbidden, Code: 403})
	cases := map[string]response{
		"json list":              {200, "application/json", listJSON},
		"json list, charset":     {200, "application/json; charset=utf-8", listJSON},
		"json list, no type":     {200, "", listJSON},
		"protobuf list":          {200, "application/vnd.kubernetes.protobuf", listProto},
		"empty json list":        {200, "application/json", encodeJSON(t, &corev1.PodList{})},
		"empty protobuf list":    {200, "application/vnd.kubernetes.protobuf", encodeProtobuf(t, &corev1.PodList{})},
		"206":                    {206, "application/json", listJSON},
		"truncated json":         {200, "application/json", listJSON[:len(listJSON)/2]},
		"truncated protobuf":     {200, "application/vnd.kubernetes.protobuf", listProto[:len(listProto)/2]},
		"garbage json":           {200, "application/json", []byte(`{"kind":"PodList","apiVersion":"v1","items":[{},nope]}`)},
		"protobuf labelled json": {200, "application/json", listProto},
		"json labelled protobuf": {200, "application/vnd.kubernetes.protobuf", listJSON},
		"status in 200":          {200, "application/json", status},
		"status in 403":          {403, "application/json", status},
		"text error":             {500, "text/plain", []byte("boom")},
		"text in 200":            {200, "text/plain", []byte("hello")},
		"unknown type":           {200, "application/x-unknown", listJSON},
		"bad content type":       {200, "application/json;;;", listJSON},
		"empty body":             {200, "application/json", nil},
		"yaml":                   {200, "application/yaml", []byte("kind: PodList\napiVersion: v1\nitems:\n- metadata:\n    name: y\n")},
	}
	targets := map[string]func() runtime.Object{
		"PodList":          func() runtime.Object { return &corev1.PodList{} },
		"Pod":              func() runtime.Object { return &corev1.Pod{} },
		"UnstructuredList": func() runtime.Object { return &unstructured.UnstructuredList{} },
	}
	for name, resp := range cases {
		srv := httptest.NewServer(serve(resp))
		c := coreClient(t, srv)
		for targetName, newTarget := range targets {
			for _, proto := range []bool{false, true} {
				ctx := context.Background()
				want, got := newTarget(), newTarget()
				wantErr := c.Get().UseProtobufAsDefaultIfPreferred(proto).Resource("pods").Do(ctx).Into(want)
				gotErr := c.Get().UseProtobufAsDefaultIfPreferred(proto).Resource("pods").DoInto(ctx, got)
				if describe(gotErr) != describe(wantErr) {
					t.Errorf("%s into %s (protobuf %v): DoInto error %s, Do.Into error %s", name, targetName, proto, describe(gotErr), describe(wantErr))
				}
				if wantErr == nil && !reflect.DeepEqual(got, want) {
					t.Errorf("%s into %s (protobuf %v): DoInto decoded\n%+v\nDo.Into decoded\n%+v", name, targetName, proto, got, want)
				}
			}
		}
		srv.Close()
	}
}

// watchedBody is a response body that records how many items the list being decoded holds at
// each read, to show whether the list fills while the body is still being read.
type watchedBody struct {
	r    io.Reader
	list *corev1.PodList
	seen []int
}

func (b *watchedBody) Read(p []byte) (int, error) {
	b.seen = append(b.seen, len(b.list.Items))
	// Small reads, so that the body takes many.
	return b.r.Read(p[:min(len(p), 512)])
}

func (b *watchedBody) Close() error { return nil }

// TestDoIntoDecodesListItemsWhileReading shows that DoInto decodes a list's items while the body
// is still being read, where Do(ctx).Into reads the whole body first.
func TestDoIntoDecodesListItemsWhileReading(t *testing.T) {
	for _, tc := range []struct {
		mediaType string
		body      []byte
	}{
		{runtime.ContentTypeJSON, encodeJSON(t, podList(50))},
		{runtime.ContentTypeProtobuf, encodeProtobuf(t, podList(50))},
	} {
		var body *watchedBody
		transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {tc.mediaType}}, Body: body, Request: r}, nil
		})
		c := coreClient(t, &httptest.Server{URL: "http://example.invalid"}, func(c *Config) { c.Transport = transport })
		for _, streamed := range []bool{true, false} {
			list := &corev1.PodList{}
			body = &watchedBody{r: bytes.NewReader(tc.body), list: list}
			req := c.Get().UseProtobufAsDefault().Resource("pods")
			var err error
			if streamed {
				err = req.DoInto(context.Background(), list)
			} else {
				err = req.Do(context.Background()).Into(list)
			}
			if err != nil || len(list.Items) != 50 {
				t.Fatalf("%s: %v, %d items", tc.mediaType, err, len(list.Items))
			}
			filling := slices.ContainsFunc(body.seen, func(n int) bool { return n > 0 })
			if filling != streamed {
				t.Errorf("%s (DoInto %v): items decoded before the last read: %v (%d reads)", tc.mediaType, streamed, filling, len(body.seen))
			}
		}
	}
}

// TestDoIntoReadErrorMatchesDo cuts the connection in the middle of a list body.
func TestDoIntoReadErrorMatchesDo(t *testing.T) {
	for _, body := range [][]byte{encodeJSON(t, podList(20)), encodeProtobuf(t, podList(20))} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", map[bool]string{true: runtime.ContentTypeProtobuf, false: runtime.ContentTypeJSON}[body[0] == 'k'])
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			_, _ = w.Write(body[:len(body)/2])
		}))
		c := coreClient(t, srv)
		ctx := context.Background()
		wantErr := c.Get().UseProtobufAsDefault().Resource("pods").Do(ctx).Into(&corev1.PodList{})
		gotErr := c.Get().UseProtobufAsDefault().Resource("pods").DoInto(ctx, &corev1.PodList{})
		if wantErr == nil || describe(gotErr) != describe(wantErr) || !strings.Contains(gotErr.Error(), "unexpected error when reading response body") {
			t.Errorf("DoInto error %s, Do.Into error %s", describe(gotErr), describe(wantErr))
		}
		srv.Close()
	}
}

// collectedWarnings records the warnings a handler is given.
type collectedWarnings struct {
	mu   sync.Mutex
	seen []string
}

func (w *collectedWarnings) HandleWarningHeader(code int, agent, text string) {
	w.mu.Lock()
	w.seen = append(w.seen, text)
	w.mu.Unlock()
}

// TestDoIntoReportsLikeDo checks that retries, metrics and warnings are those of Do.
func TestDoIntoReportsLikeDo(t *testing.T) {
	log := recordMetrics(t)
	body := encodeJSON(t, podList(3))
	report := func(decode func(*Request) error) ([]string, []string) {
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("Warning", fmt.Sprintf(`299 - "call %d"`, calls.Add(1)))
			if calls.Load() == 1 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}))
		defer srv.Close()
		warnings := &collectedWarnings{}
		c := coreClient(t, srv, func(c *Config) { c.WarningHandler = warnings })
		if err := decode(c.Get().Resource("pods")); err != nil {
			t.Fatal(err)
		}
		return log.about(strings.TrimPrefix(srv.URL, "http://")), warnings.seen
	}
	ctx := context.Background()
	wantMetrics, wantWarnings := report(func(r *Request) error { return r.Do(ctx).Into(&corev1.PodList{}) })
	gotMetrics, gotWarnings := report(func(r *Request) error { return r.DoInto(ctx, &corev1.PodList{}) })
	if !slices.Equal(gotMetrics, wantMetrics) || !slices.Contains(gotMetrics, fmt.Sprintf("response-size GET HOST %d", len(body))) {
		t.Errorf("DoInto reported\n  %s\nDo reported\n  %s", strings.Join(gotMetrics, "\n  "), strings.Join(wantMetrics, "\n  "))
	}
	if !slices.Equal(gotWarnings, wantWarnings) || len(gotWarnings) != 1 {
		t.Errorf("DoInto warnings %q, Do warnings %q", gotWarnings, wantWarnings)
	}
}

// TestDoIntoLogsBodiesLikeDo checks that a list body is read whole, and logged, when bodies are logged.
func TestDoIntoLogsBodiesLikeDo(t *testing.T) {
	srv := httptest.NewServer(serve(response{200, "application/json", encodeJSON(t, podList(2))}))
	defer srv.Close()
	var logged strings.Builder
	logger := funcr.New(func(prefix, args string) { logged.WriteString(args + "\n") }, funcr.Options{Verbosity: logLevelBody})
	list := &corev1.PodList{}
	if err := coreClient(t, srv).Get().Resource("pods").DoInto(klog.NewContext(context.Background(), logger), list); err != nil || len(list.Items) != 2 {
		t.Fatalf("%v, %d items", err, len(list.Items))
	}
	if !strings.Contains(logged.String(), `"msg"="Response Body"`) || !strings.Contains(logged.String(), "pod-1") {
		t.Fatalf("the body was not logged:\n%s", logged.String())
	}
}
