package discovery

import (
	"context"
	"fmt"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/openapi"
)

// openAPIV2Protobuf is the content type of the server's OpenAPI v2 document in protobuf.
const openAPIV2Protobuf = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"

// OpenAPISchemaInterface fetches the server's OpenAPI v2 (swagger) document.
type OpenAPISchemaInterface interface {
	// OpenAPISchema fetches and parses /openapi/v2.
	OpenAPISchema() (*openapi_v2.Document, error)
}

// OpenAPISchemaInterfaceWithContext is OpenAPISchemaInterface honouring a context.
type OpenAPISchemaInterfaceWithContext interface {
	// OpenAPISchemaWithContext fetches and parses /openapi/v2.
	OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error)
}

// OpenAPIV3SchemaInterface gives access to the server's OpenAPI v3 documents.
type OpenAPIV3SchemaInterface interface {
	// OpenAPIV3 returns a client of /openapi/v3.
	OpenAPIV3() openapi.Client
}

// OpenAPIV3SchemaInterfaceWithContext is OpenAPIV3SchemaInterface honouring a context.
type OpenAPIV3SchemaInterfaceWithContext interface {
	// OpenAPIV3WithContext returns a client of /openapi/v3.
	OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext
}

// AggregatedDiscoveryInterface is a DiscoveryInterface that can return the resources together with
// the groups, as aggregated discovery serves them in one response.
type AggregatedDiscoveryInterface interface {
	DiscoveryInterface
	// GroupsAndMaybeResources returns the groups and, when the server offers aggregated discovery,
	// the resources of every group version (nil otherwise) and the group versions that failed.
	GroupsAndMaybeResources() (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error)
}

// AggregatedDiscoveryInterfaceWithContext is AggregatedDiscoveryInterface honouring a context.
type AggregatedDiscoveryInterfaceWithContext interface {
	DiscoveryInterfaceWithContext
	// GroupsAndMaybeResourcesWithContext is GroupsAndMaybeResources honouring ctx.
	GroupsAndMaybeResourcesWithContext(ctx context.Context) (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error)
}

var (
	_ AggregatedDiscoveryInterface            = (*DiscoveryClient)(nil)
	_ AggregatedDiscoveryInterfaceWithContext = (*DiscoveryClient)(nil)
)

// OpenAPISchema fetches and parses the server's OpenAPI v2 document.
func (d *DiscoveryClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return d.OpenAPISchemaWithContext(context.Background())
}

// OpenAPISchemaWithContext fetches /openapi/v2 in protobuf and parses it.
func (d *DiscoveryClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	body, err := d.restClient.Get().AbsPath("/openapi/v2").SetHeader("Accept", openAPIV2Protobuf).Do(ctx).Raw()
	if err != nil {
		return nil, err
	}
	doc := &openapi_v2.Document{}
	if err := proto.Unmarshal(body, doc); err != nil {
		return nil, fmt.Errorf("unable to parse the OpenAPI v2 document /openapi/v2: %w", err)
	}
	return doc, nil
}

// OpenAPIV3 returns a client of the server's OpenAPI v3 documents.
func (d *DiscoveryClient) OpenAPIV3() openapi.Client {
	return openapi.NewClient(d.restClient)
}

// OpenAPIV3WithContext returns a client of the server's OpenAPI v3 documents.
func (d *DiscoveryClient) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return openapi.NewClientWithContext(d.restClient)
}

// GroupsAndMaybeResources returns the groups and, with aggregated discovery, every group version's
// resources (nil when the server serves only legacy discovery or UseLegacyDiscovery is set) and the
// group versions the server reported as failed.
func (d *DiscoveryClient) GroupsAndMaybeResources() (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	return d.GroupsAndMaybeResourcesWithContext(context.Background())
}

// GroupsAndMaybeResourcesWithContext is GroupsAndMaybeResources honouring ctx.
func (d *DiscoveryClient) GroupsAndMaybeResourcesWithContext(ctx context.Context) (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	roots, err := d.fetchRoots(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	failed := roots.failed
	if failed == nil {
		failed = map[schema.GroupVersion]error{}
	}
	return roots.groups, roots.resources, failed, nil
}

// ToOpenAPISchemaInterfaceWithContext returns i itself when it honours contexts, or else a
// wrapper that ignores the context; nil stays nil.
func ToOpenAPISchemaInterfaceWithContext(i OpenAPISchemaInterface) OpenAPISchemaInterfaceWithContext {
	if i == nil {
		return nil
	}
	if c, ok := i.(OpenAPISchemaInterfaceWithContext); ok {
		return c
	}
	return openAPISchemaWrapper{i}
}

type openAPISchemaWrapper struct{ OpenAPISchemaInterface }

func (w openAPISchemaWrapper) OpenAPISchemaWithContext(context.Context) (*openapi_v2.Document, error) {
	return w.OpenAPISchema()
}

// OpenAPIV3ToSchemaInterfaceWithContext returns i itself when it honours contexts, or else a
// wrapper that ignores the context; nil stays nil.
func OpenAPIV3ToSchemaInterfaceWithContext(i OpenAPIV3SchemaInterface) OpenAPIV3SchemaInterfaceWithContext {
	if i == nil {
		return nil
	}
	if c, ok := i.(OpenAPIV3SchemaInterfaceWithContext); ok {
		return c
	}
	return openAPIV3Wrapper{i}
}

type openAPIV3Wrapper struct{ OpenAPIV3SchemaInterface }

func (w openAPIV3Wrapper) OpenAPIV3WithContext(context.Context) openapi.ClientWithContext {
	return openapi.ToClientWithContext(w.OpenAPIV3())
}
