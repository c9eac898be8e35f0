package v1

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// schemaSource serves a fixed OpenAPI v2 document (or an error) and counts fetches.
type schemaSource struct {
	mu      sync.Mutex
	doc     *openapi_v2.Document
	err     error
	fetches int
}

func (s *schemaSource) OpenAPISchema() (*openapi_v2.Document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetches++
	return s.doc, s.err
}

func widgetSchema(t *testing.T) *openapi_v2.Document {
	t.Helper()
	b, err := os.ReadFile("testdata/widget-swagger.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi_v2.ParseDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// widget is a Widget whose spec.replicas and one port are owned by "ops" through apply, spec.color by
// "dev", and status.phase by "ops" through the status subresource.
func widget() *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "ns", "resourceVersion": "7", "labels": map[string]any{"team": "a"}},
		"spec": map[string]any{
			"replicas": int64(3), "color": "blue",
			"ports": []any{map[string]any{"name": "http", "port": int64(80)}, map[string]any{"name": "admin", "port": int64(9000)}},
		},
		"status": map[string]any{"phase": "Ready", "ready": int64(3)},
	}}
	u.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: "ops", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "example.com/v1", FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{},"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:name":{},"f:port":{}}}}}`)},
		{Manager: "dev", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "example.com/v1", FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{"f:team":{}}},"f:spec":{"f:color":{}}}`)},
		{Manager: "ops", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "example.com/v1", FieldsType: "FieldsV1", Subresource: "status",
			FieldsV1: metav1.NewFieldsV1(`{"f:status":{"f:phase":{}}}`)},
	})
	return u
}

func TestUnstructuredExtractor(t *testing.T) {
	e, err := NewUnstructuredExtractor(&schemaSource{doc: widgetSchema(t)})
	if err != nil {
		t.Fatal(err)
	}
	identity := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w", "namespace": "ns"}}
	with := func(fields map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range identity {
			out[k] = v
		}
		for k, v := range fields {
			if k == "metadata" {
				md := map[string]any{"name": "w", "namespace": "ns"}
				for mk, mv := range v.(map[string]any) {
					md[mk] = mv
				}
				v = md
			}
			out[k] = v
		}
		return out
	}
	cases := []struct {
		name    string
		extract func(*unstructured.Unstructured, string) (*unstructured.Unstructured, error)
		manager string
		want    map[string]any
	}{
		{"ops", e.Extract, "ops", with(map[string]any{"spec": map[string]any{"replicas": int64(3), "ports": []any{map[string]any{"name": "http", "port": int64(80)}}}})},
		{"dev", e.Extract, "dev", with(map[string]any{"metadata": map[string]any{"labels": map[string]any{"team": "a"}}, "spec": map[string]any{"color": "blue"}})},
		{"ops status", e.ExtractStatus, "ops", with(map[string]any{"status": map[string]any{"phase": "Ready"}})},
		{"unknown manager", e.Extract, "nobody", identity},
		{"dev status", e.ExtractStatus, "dev", identity},
	}
	for _, c := range cases {
		in := widget()
		before := in.DeepCopy()
		got, err := c.extract(in, c.manager)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(got.Object, c.want) {
			t.Errorf("%s: extracted\n%v\nwant\n%v", c.name, got.Object, c.want)
		}
		if !reflect.DeepEqual(in, before) {
			t.Errorf("%s: the object was modified", c.name)
		}
	}
}

func TestUnstructuredExtractorErrors(t *testing.T) {
	if _, err := NewUnstructuredExtractor(&schemaSource{err: errors.New("forbidden")}); err == nil || !strings.Contains(err.Error(), "forbidden") {
		t.Errorf("failing first fetch: %v", err)
	}
	e, err := NewUnstructuredExtractor(&schemaSource{doc: widgetSchema(t)})
	if err != nil {
		t.Fatal(err)
	}
	gadget := widget()
	gadget.SetKind("Gadget")
	if _, err := e.Extract(gadget, "ops"); err == nil || !strings.Contains(err.Error(), "Gadget") {
		t.Errorf("unknown kind: %v; want an error naming it", err)
	}
	if _, err := e.Extract(nil, "ops"); err == nil {
		t.Error("nil object accepted")
	}
	bad := widget()
	_ = unstructured.SetNestedField(bad.Object, "three", "spec", "replicas")
	if _, err := e.Extract(bad, "ops"); err == nil {
		t.Error("object not matching its schema accepted")
	}
}

// The document is fetched again once a minute has passed, so kinds added since become extractable; when
// that fails, the schema fetched before still serves the kinds it knows.
func TestUnstructuredExtractorRefreshesTheSchema(t *testing.T) {
	src := &schemaSource{doc: &openapi_v2.Document{Swagger: "2.0", Info: &openapi_v2.Info{Title: "t", Version: "v"}}}
	now := time.Unix(1000, 0)
	e, err := NewUnstructuredExtractor(src)
	if err != nil {
		t.Fatal(err)
	}
	ue := e.(*unstructuredExtractor)
	ue.now = func() time.Time { return now }
	ue.fetched = now
	if _, err := e.Extract(widget(), "ops"); err == nil {
		t.Fatal("Widget extracted before the server described it")
	}
	src.doc = widgetSchema(t)
	now = now.Add(schemaRefreshInterval)
	if _, err := e.Extract(widget(), "ops"); err == nil || src.fetches != 1 {
		t.Fatalf("refetched within a minute: %d fetches, %v", src.fetches, err)
	}
	now = now.Add(time.Second)
	if got, err := e.Extract(widget(), "ops"); err != nil || got.Object["spec"] == nil || src.fetches != 2 {
		t.Fatalf("after a minute: %v, %v, %d fetches", got, err, src.fetches)
	}
	src.err = errors.New("unreachable")
	now = now.Add(2 * schemaRefreshInterval)
	if got, err := e.Extract(widget(), "ops"); err != nil || got.Object["spec"] == nil || src.fetches != 3 {
		t.Errorf("failing refresh of a known kind: %v, %v, %d fetches", got, err, src.fetches)
	}
	now = now.Add(2 * schemaRefreshInterval)
	gadget := widget()
	gadget.SetKind("Gadget")
	if _, err := e.Extract(gadget, "ops"); err == nil || !strings.Contains(err.Error(), "unreachable") || !strings.Contains(err.Error(), "Gadget") {
		t.Errorf("failing refresh of an unknown kind: %v", err)
	}
}

// blockingSource serves doc, holding every fetch until release is closed.
type blockingSource struct {
	doc     *openapi_v2.Document
	started chan struct{}
	release chan struct{}
}

func (s *blockingSource) OpenAPISchema() (*openapi_v2.Document, error) {
	s.started <- struct{}{}
	<-s.release
	return s.doc, nil
}

// TestUnstructuredExtractorDoesNotWaitForAnotherRefresh: while one extraction refetches the schema, others
// extract with the schema fetched before instead of waiting for the server.
func TestUnstructuredExtractorDoesNotWaitForAnotherRefresh(t *testing.T) {
	src := &blockingSource{doc: widgetSchema(t), started: make(chan struct{}), release: make(chan struct{})}
	go func() { <-src.started; src.release <- struct{}{} }() // the constructor's fetch
	e, err := NewUnstructuredExtractor(src)
	if err != nil {
		t.Fatal(err)
	}
	ue := e.(*unstructuredExtractor)
	var mu sync.Mutex
	now := time.Unix(1000, 0)
	ue.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ue.fetched = now
	mu.Lock()
	now = now.Add(2 * schemaRefreshInterval)
	mu.Unlock()

	refreshed := make(chan error)
	go func() { _, err := e.Extract(widget(), "ops"); refreshed <- err }()
	<-src.started // the refresh is under way and holds no lock
	if got, err := e.Extract(widget(), "dev"); err != nil || got.Object["spec"] == nil {
		t.Fatalf("extraction during another's refresh: %v, %v", got, err)
	}
	close(src.release)
	if err := <-refreshed; err != nil {
		t.Fatalf("the refreshing extraction: %v", err)
	}
}
