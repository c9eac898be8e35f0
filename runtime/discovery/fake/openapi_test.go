package fake_test

import (
	"context"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

// TestFakeOpenAPI: the fake answers OpenAPI calls with an empty v2 document and a v3 client that
// lists no documents, records each call as a "get" of "openapi", and lets a reactor fail them.
func TestFakeOpenAPI(t *testing.T) {
	d := newDiscovery()
	if doc, err := d.OpenAPISchema(); err != nil || doc == nil {
		t.Fatalf("OpenAPISchema: %v %v", doc, err)
	}
	if paths, err := d.OpenAPIV3().Paths(); err != nil || len(paths) != 0 {
		t.Fatalf("OpenAPIV3 paths: %v %v", paths, err)
	}
	ctx := context.Background()
	if paths, err := d.OpenAPIV3WithContext(ctx).PathsWithContext(ctx); err != nil || len(paths) != 0 {
		t.Fatalf("OpenAPIV3WithContext paths: %v %v", paths, err)
	}
	if n := len(d.Actions()); n != 3 || d.Actions()[0].GetResource().Resource != "openapi" {
		t.Fatalf("recorded %v", d.Actions())
	}
	boom := errors.New("boom")
	d.PrependReactor("get", "openapi", func(ktesting.Action) (bool, runtime.Object, error) { return true, nil, boom })
	if _, err := d.OpenAPISchemaWithContext(ctx); !errors.Is(err, boom) {
		t.Fatalf("OpenAPISchemaWithContext: %v", err)
	}
	if _, err := d.OpenAPIV3().Paths(); !errors.Is(err, boom) {
		t.Fatalf("OpenAPIV3 paths: %v", err)
	}
}
