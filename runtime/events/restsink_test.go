package events

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// recordedRequest is what a fake API server saw.
type recordedRequest struct {
	method, path, contentType string
	body                      map[string]any
}

// fakeAPIServer answers Event writes by echoing the body back with a resourceVersion, after failing the
// first failures requests with 500.
type fakeAPIServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []recordedRequest
	failures int
}

func newFakeAPIServer(t *testing.T, failures int) *fakeAPIServer {
	s := &fakeAPIServer{failures: failures}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *fakeAPIServer) serve(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(data, &body)
	s.mu.Lock()
	s.requests = append(s.requests, recordedRequest{r.Method, r.URL.Path, r.Header.Get("Content-Type"), body})
	fail := s.failures > 0
	s.failures--
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if fail {
		w.WriteHeader(http.StatusInternalServerError)
		_ = json.NewEncoder(w).Encode(metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   metav1.StatusFailure, Code: 500, Reason: metav1.StatusReasonInternalError, Message: "etcd hiccup",
		})
		return
	}
	if r.Method == http.MethodPatch {
		// Answer a patch with an object carrying the patched fields, as a server would.
		body["metadata"] = map[string]any{"name": "patched", "namespace": "ns", "resourceVersion": "2"}
	} else {
		meta, _ := body["metadata"].(map[string]any)
		meta["resourceVersion"] = "1"
	}
	if strings.HasPrefix(r.URL.Path, "/apis/events.k8s.io/") {
		body["apiVersion"], body["kind"] = "events.k8s.io/v1", "Event"
	} else {
		body["apiVersion"], body["kind"] = "v1", "Event"
	}
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(body)
}

func (s *fakeAPIServer) seen() []recordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recordedRequest(nil), s.requests...)
}

func testEvent() *corev1.Event {
	t := metav1.NewTime(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Namespace: "ns", Name: "p.123"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "ns", Name: "p", UID: "u"},
		Reason:         "Started", Message: "started", Type: corev1.EventTypeNormal,
		Source: testSource, ReportingController: testSource.Component, ReportingInstance: testSource.Host,
		FirstTimestamp: t, LastTimestamp: t, Count: 1,
	}
}

func TestCoreV1SinkRequests(t *testing.T) {
	srv := newFakeAPIServer(t, 0)
	sink, err := NewEventSinkForConfig(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	created, err := sink.Create(testEvent())
	if err != nil {
		t.Fatal(err)
	}
	if created.ResourceVersion != "1" || created.Message != "started" {
		t.Fatalf("created %+v", created)
	}
	if _, err := sink.Update(testEvent()); err != nil {
		t.Fatal(err)
	}
	if _, err := sink.Patch(testEvent(), []byte(`{"count":2}`)); err != nil {
		t.Fatal(err)
	}
	got := srv.seen()
	want := []struct{ method, path, contentType string }{
		{"POST", "/api/v1/namespaces/ns/events", "application/json"},
		{"PUT", "/api/v1/namespaces/ns/events/p.123", "application/json"},
		{"PATCH", "/api/v1/namespaces/ns/events/p.123", "application/strategic-merge-patch+json"},
	}
	for i, w := range want {
		if got[i].method != w.method || got[i].path != w.path || got[i].contentType != w.contentType {
			t.Errorf("request %d: %s %s (%s), want %s %s (%s)", i, got[i].method, got[i].path, got[i].contentType, w.method, w.path, w.contentType)
		}
	}
	if got[2].body["count"] != float64(2) {
		t.Errorf("patch body %v", got[2].body)
	}
}

func TestBroadcasterRetriesThroughRESTSink(t *testing.T) {
	srv := newFakeAPIServer(t, 2)
	sink, err := NewEventSinkForConfig(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	b := NewBroadcaster(WithSleepDuration(time.Millisecond))
	b.StartRecordingToSink(sink)
	b.NewRecorder(testScheme(t), testSource).Event(testPod("ns", "p"), corev1.EventTypeNormal, "Started", "started")
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.seen()) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("saw %d requests, want 2 failures and a success", len(srv.seen()))
		}
		time.Sleep(time.Millisecond)
	}
	b.Shutdown()
	if n := len(srv.seen()); n != 3 {
		t.Fatalf("saw %d requests, want 3", n)
	}
}

func TestEventsV1SinkRequests(t *testing.T) {
	srv := newFakeAPIServer(t, 0)
	sink, err := NewEventsV1SinkForConfig(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	created, err := sink.Create(testEvent())
	if err != nil {
		t.Fatal(err)
	}
	if created.Count != 1 || created.Message != "started" || created.ResourceVersion != "1" || created.InvolvedObject.UID != "u" {
		t.Fatalf("created %+v", created)
	}
	repeat := testEvent()
	repeat.Count = 7
	repeat.LastTimestamp = metav1.NewTime(repeat.FirstTimestamp.Add(time.Minute))
	patched, err := sink.Patch(repeat, []byte(`ignored`))
	if err != nil {
		t.Fatal(err)
	}
	if patched.Count != 7 {
		t.Fatalf("patched count %d, want 7", patched.Count)
	}
	if _, err := sink.Update(testEvent()); err != nil {
		t.Fatal(err)
	}

	got := srv.seen()
	if got[0].method != "POST" || got[0].path != "/apis/events.k8s.io/v1/namespaces/ns/events" {
		t.Fatalf("create went to %s %s", got[0].method, got[0].path)
	}
	body := got[0].body
	for _, deprecated := range []string{"deprecatedCount", "deprecatedSource", "deprecatedFirstTimestamp", "deprecatedLastTimestamp", "series"} {
		if v, ok := body[deprecated]; ok && v != nil && len(v.(map[string]any)) > 0 {
			t.Errorf("create sets %s, which the API requires unset: %v", deprecated, body)
		}
	}
	if body["note"] != "started" || body["action"] != "Started" || body["reportingController"] != testSource.Component ||
		body["reportingInstance"] != testSource.Host || body["eventTime"] != "2026-05-01T12:00:00.000000Z" {
		t.Errorf("create body %v", body)
	}
	if got[1].method != "PATCH" || got[1].contentType != "application/merge-patch+json" || got[1].path != "/apis/events.k8s.io/v1/namespaces/ns/events/p.123" {
		t.Fatalf("patch went to %s %s (%s)", got[1].method, got[1].path, got[1].contentType)
	}
	series, _ := got[1].body["series"].(map[string]any)
	if series["count"] != float64(7) || series["lastObservedTime"] != "2026-05-01T12:01:00.000000Z" {
		t.Fatalf("patch body %v", got[1].body)
	}
	if got[2].method != "PUT" || got[2].path != "/apis/events.k8s.io/v1/namespaces/ns/events/p.123" {
		t.Fatalf("update went to %s %s", got[2].method, got[2].path)
	}
}

func TestEventsV1ConversionRoundTrip(t *testing.T) {
	e := testEvent()
	e.Count = 3
	e.LastTimestamp = metav1.NewTime(e.FirstTimestamp.Add(time.Second))
	v1 := toEventsV1(e)
	if v1.Series == nil || v1.Series.Count != 3 {
		t.Fatalf("repeat not expressed as a series: %+v", v1.Series)
	}
	back := fromEventsV1(v1)
	if back.Count != 3 || !back.LastTimestamp.Equal(&e.LastTimestamp) || back.Message != e.Message ||
		back.InvolvedObject != e.InvolvedObject || back.Source != e.Source || back.Name != e.Name {
		t.Fatalf("round trip lost data: %+v", back)
	}
	// Without a reporting controller set, the source stands in for it.
	e.ReportingController, e.ReportingInstance = "", ""
	if v1 := toEventsV1(e); v1.ReportingController != testSource.Component || v1.ReportingInstance != testSource.Host {
		t.Fatalf("reporting fields %q %q", v1.ReportingController, v1.ReportingInstance)
	}
}
