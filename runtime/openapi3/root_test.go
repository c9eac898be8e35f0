package openapi3_test

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/openapi"
	"github.com/kgen-dev/kgen/runtime/openapi3"
)

type staticClient map[string]openapi.GroupVersion

func (c staticClient) Paths() (map[string]openapi.GroupVersion, error) { return c, nil }

type staticDoc string

func (d staticDoc) Schema(string) ([]byte, error) { return []byte(d), nil }
func (d staticDoc) ServerRelativeURL() string     { return "" }

// TestRootReadsIndexAndDocuments: group versions come sorted from the index, other paths are left
// out, documents parse into spec3 and maps, and a missing group version is a typed error.
func TestRootReadsIndexAndDocuments(t *testing.T) {
	doc := staticDoc(`{"openapi":"3.0.0","info":{"title":"t","version":"v"},"paths":{"/apis/apps/v1/":{}}}`)
	root := openapi3.NewRoot(staticClient{"apis/apps/v1": doc, "api/v1": doc, "apis/batch/v1": doc, "version": doc, ".well-known/openid-configuration": doc})
	gvs, err := root.GroupVersions()
	want := []schema.GroupVersion{{Version: "v1"}, {Group: "apps", Version: "v1"}, {Group: "batch", Version: "v1"}}
	if err != nil || len(gvs) != len(want) {
		t.Fatalf("GroupVersions = %v, %v", gvs, err)
	}
	for i := range want {
		if gvs[i] != want[i] {
			t.Fatalf("GroupVersions = %v, want %v", gvs, want)
		}
	}
	spec, err := root.GVSpec(schema.GroupVersion{Group: "apps", Version: "v1"})
	if err != nil || spec.Version != "3.0.0" || spec.Paths == nil {
		t.Fatalf("GVSpec = %+v, %v", spec, err)
	}
	m, err := root.GVSpecAsMap(schema.GroupVersion{Version: "v1"})
	if err != nil || m["openapi"] != "3.0.0" {
		t.Fatalf("GVSpecAsMap = %v, %v", m, err)
	}
	var notFound *openapi3.GroupVersionNotFoundError
	if _, err := root.GVSpec(schema.GroupVersion{Group: "x", Version: "v1"}); !errors.As(err, &notFound) {
		t.Fatalf("missing group version: %v", err)
	}
	if _, err := openapi3.NewRoot(staticClient{"api/v1": staticDoc("{")}).GVSpec(schema.GroupVersion{Version: "v1"}); err == nil {
		t.Fatal("malformed document accepted")
	}
}
