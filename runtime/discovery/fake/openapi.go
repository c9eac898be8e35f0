package fake

import (
	"context"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"

	"github.com/kgen-dev/kgen/runtime/openapi"
)

// OpenAPISchema records a "get" of the pseudo-resource "openapi" and returns an empty document
// (or the error a reactor chose), as client-go's fake does.
func (c *FakeDiscovery) OpenAPISchema() (*openapi_v2.Document, error) {
	if err := c.invoke("openapi"); err != nil {
		return nil, err
	}
	return &openapi_v2.Document{}, nil
}

// OpenAPISchemaWithContext is OpenAPISchema.
func (c *FakeDiscovery) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	return c.OpenAPISchema()
}

// OpenAPIV3 returns a client that lists no documents; each Paths call is recorded as a "get" of
// the pseudo-resource "openapi" and fails with the error a reactor chose, if any. (client-go's
// fake panics here.)
func (c *FakeDiscovery) OpenAPIV3() openapi.Client { return fakeOpenAPIV3{c} }

// OpenAPIV3WithContext is OpenAPIV3.
func (c *FakeDiscovery) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return fakeOpenAPIV3{c}
}

type fakeOpenAPIV3 struct{ c *FakeDiscovery }

func (f fakeOpenAPIV3) Paths() (map[string]openapi.GroupVersion, error) {
	if err := f.c.invoke("openapi"); err != nil {
		return nil, err
	}
	return map[string]openapi.GroupVersion{}, nil
}

func (f fakeOpenAPIV3) PathsWithContext(ctx context.Context) (map[string]openapi.GroupVersionWithContext, error) {
	if err := f.c.invoke("openapi"); err != nil {
		return nil, err
	}
	return map[string]openapi.GroupVersionWithContext{}, nil
}
