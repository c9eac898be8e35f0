package disk

import (
	"context"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/openapi"
)

// OpenAPISchema fetches the OpenAPI v2 document through the delegate; it is not cached.
func (d *CachedDiscoveryClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return d.delegate.OpenAPISchema()
}

// OpenAPISchemaWithContext fetches the OpenAPI v2 document through the delegate.
func (d *CachedDiscoveryClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	return discovery.ToOpenAPISchemaInterfaceWithContext(d.delegate).OpenAPISchemaWithContext(ctx)
}

// OpenAPIV3 returns the delegate's OpenAPI v3 client.
func (d *CachedDiscoveryClient) OpenAPIV3() openapi.Client {
	return d.delegate.OpenAPIV3()
}

// OpenAPIV3WithContext returns the delegate's OpenAPI v3 client.
func (d *CachedDiscoveryClient) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return discovery.OpenAPIV3ToSchemaInterfaceWithContext(d.delegate).OpenAPIV3WithContext(ctx)
}
