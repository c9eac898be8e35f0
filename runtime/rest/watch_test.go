package rest

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// collect reads events until the channel closes or the timeout passes.
func collect(t *testing.T, w watch.Interface) []watch.Event {
	t.Helper()
	var out []watch.Event
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatal("watch did not end")
		}
	}
}

func jsonEvent(t *testing.T, typ watch.EventType, obj runtime.Object) string {
	return fmt.Sprintf(`{"type":%q,"object":%s}`+"\n", typ, encodeJSON(t, obj))
}

func watchServer(body func(w http.ResponseWriter)) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body(w)
	}))
}

func startWatch(t *testing.T, srv *httptest.Server, proto bool) watch.Interface {
	t.Helper()
	c := coreClient(t, srv)
	w, err := c.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("ns").Resource("pods").
		VersionedParams(&metav1.ListOptions{Watch: true}, testParameterCodec).Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWatchJSONEventsAndStatusError(t *testing.T) {
	srv := watchServer(func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, jsonEvent(t, watch.Added, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", ResourceVersion: "1"}}))
		fmt.Fprint(w, jsonEvent(t, watch.Modified, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", ResourceVersion: "2"}}))
		fmt.Fprint(w, jsonEvent(t, watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "3"}}))
		fmt.Fprint(w, jsonEvent(t, watch.Deleted, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", ResourceVersion: "4"}}))
		fmt.Fprint(w, `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410,"message":"too old resource version"}}`+"\n")
	})
	defer srv.Close()
	events := collect(t, startWatch(t, srv, false))
	want := []watch.EventType{watch.Added, watch.Modified, watch.Bookmark, watch.Deleted, watch.Error}
	if len(events) != len(want) {
		t.Fatalf("got %d events: %v", len(events), events)
	}
	for i, ev := range events {
		if ev.Type != want[i] {
			t.Errorf("event %d: %s, want %s", i, ev.Type, want[i])
		}
	}
	if p := events[1].Object.(*corev1.Pod); p.ResourceVersion != "2" {
		t.Errorf("modified rv %q", p.ResourceVersion)
	}
	if err := apierrors.FromObject(events[4].Object); !apierrors.IsResourceExpired(err) {
		t.Errorf("error event: %v", err)
	}
}

func TestWatchProtobuf(t *testing.T) {
	info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), "application/vnd.kubernetes.protobuf")
	enc := testCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != "application/vnd.kubernetes.protobuf,application/json" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf;stream=watch")
		framer := info.StreamSerializer.Framer.NewFrameWriter(w)
		for i := range 3 {
			raw, err := runtime.Encode(enc, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("p", i)}})
			if err != nil {
				t.Error(err)
				return
			}
			ev := &metav1.WatchEvent{Type: string(watch.Added), Object: runtime.RawExtension{Raw: raw}}
			if err := info.StreamSerializer.Encode(ev, framer); err != nil {
				t.Error(err)
				return
			}
		}
	}))
	defer srv.Close()
	events := collect(t, startWatch(t, srv, true))
	if len(events) != 3 {
		t.Fatalf("got %v", events)
	}
	for i, ev := range events {
		if p, ok := ev.Object.(*corev1.Pod); !ok || p.Name != fmt.Sprint("p", i) || ev.Type != watch.Added {
			t.Errorf("event %d: %#v", i, ev)
		}
	}
}

func TestWatchMalformedFramesGiveErrorNotPanic(t *testing.T) {
	pbFrame := func(payload []byte) []byte {
		b := make([]byte, 4, 4+len(payload))
		binary.BigEndian.PutUint32(b, uint32(len(payload)))
		return append(b, payload...)
	}
	cases := map[string]struct {
		contentType string
		body        []byte
	}{
		"json garbage":       {"application/json", []byte("{not json}\n")},
		"json bad type":      {"application/json", []byte(`{"type":"EXPLODED","object":{"kind":"Pod","apiVersion":"v1"}}` + "\n")},
		"json no object":     {"application/json", []byte(`{"type":"ADDED"}` + "\n")},
		"json bad object":    {"application/json", []byte(`{"type":"ADDED","object":{"kind":"Nope","apiVersion":"v9"}}` + "\n")},
		"protobuf garbage":   {"application/vnd.kubernetes.protobuf;stream=watch", pbFrame([]byte{0xff, 0xff, 0xff, 0x01, 0x02})},
		"protobuf bad inner": {"application/vnd.kubernetes.protobuf;stream=watch", pbFrame([]byte{0x0a, 0x05, 'A', 'D', 'D', 'E', 'D', 0x12, 0x03, 0x0a, 0x01, 0xff})},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := watchServer(func(w http.ResponseWriter) {
				w.Header().Set("Content-Type", tc.contentType)
				_, _ = w.Write(tc.body)
			})
			defer srv.Close()
			events := collect(t, startWatch(t, srv, false))
			if len(events) != 1 || events[0].Type != watch.Error {
				t.Fatalf("want one error event, got %v", events)
			}
			if _, ok := events[0].Object.(*metav1.Status); !ok {
				t.Fatalf("error event object %T", events[0].Object)
			}
		})
	}
}

func TestWatchTruncatedProtobufFrameEndsStream(t *testing.T) {
	srv := watchServer(func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf;stream=watch")
		_, _ = w.Write([]byte{0x7f, 0xff, 0xff, 0xff, 1, 2, 3})
	})
	defer srv.Close()
	for _, ev := range collect(t, startWatch(t, srv, true)) {
		if ev.Type != watch.Error {
			t.Fatalf("a truncated frame may only yield an error, got %v", ev)
		}
	}
}

func TestWatchDroppedConnectionEndsStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, jsonEvent(t, watch.Added, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a"}}))
		fmt.Fprint(w, `{"type":"ADDED","object":{"kind":"Po`)
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	defer srv.Close()
	events := collect(t, startWatch(t, srv, false))
	if len(events) == 0 || events[0].Type != watch.Added {
		t.Fatalf("got %v", events)
	}
	for _, ev := range events[1:] {
		if ev.Type != watch.Error {
			t.Fatalf("after the drop only an error may follow, got %v", ev)
		}
	}
}

func TestWatchStopAndErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("resourceVersion") == "old" {
			writeStatus(w, http.StatusGone, metav1.StatusReasonExpired, "too old")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	_, err := c.Get().Resource("pods").VersionedParams(&metav1.ListOptions{Watch: true, ResourceVersion: "old"}, testParameterCodec).Watch(context.Background())
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Fatalf("got %v", err)
	}
	w, err := c.Get().Resource("pods").VersionedParams(&metav1.ListOptions{Watch: true}, testParameterCodec).Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	if events := collect(t, w); len(events) != 0 {
		t.Fatalf("events after stop: %v", events)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err = c.Get().Resource("pods").VersionedParams(&metav1.ListOptions{Watch: true}, testParameterCodec).Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	collect(t, w)
}

func TestWatchStopLeaksNoGoroutines(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, jsonEvent(t, watch.Added, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a"}}))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c := coreClient(t, srv)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"))
	for range 5 {
		w := startWatchWith(t, c)
		<-w.ResultChan()
		w.Stop()
		collect(t, w)
	}
}

func startWatchWith(t *testing.T, c *RESTClient) watch.Interface {
	t.Helper()
	w, err := c.Get().Resource("pods").VersionedParams(&metav1.ListOptions{Watch: true}, testParameterCodec).Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return w
}
