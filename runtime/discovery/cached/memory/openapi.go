package memory

import (
	"context"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/openapi"
)

// OpenAPISchema fetches the OpenAPI v2 document through the delegate; it is not cached.
func (c *memCacheClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return c.delegate.OpenAPISchema()
}

// OpenAPISchemaWithContext fetches the OpenAPI v2 document through the delegate.
func (c *memCacheClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	return discovery.ToOpenAPISchemaInterfaceWithContext(c.delegate).OpenAPISchemaWithContext(ctx)
}

// OpenAPIV3 returns the delegate's OpenAPI v3 client.
func (c *memCacheClient) OpenAPIV3() openapi.Client {
	return c.delegate.OpenAPIV3()
}

// OpenAPIV3WithContext returns the delegate's OpenAPI v3 client.
func (c *memCacheClient) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return discovery.OpenAPIV3ToSchemaInterfaceWithContext(c.delegate).OpenAPIV3WithContext(ctx)
}
