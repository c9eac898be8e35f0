// Package discovery asks an API server which groups, versions and resources it serves, using aggregated
// discovery (apidiscovery.k8s.io/v2) when the server offers it. Its surface mirrors client-go's discovery
// package; the cached clients live in cached/memory and cached/disk and a RESTMapper built from discovery in
// restmapper.
package discovery

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// DiscoveryInterface discovers the API groups, versions and resources a server supports.
type DiscoveryInterface interface {
	// RESTClient returns the client used for discovery requests.
	RESTClient() rest.Interface
	ServerGroupsInterface
	ServerResourcesInterface
	ServerVersionInterface
	OpenAPISchemaInterface
	OpenAPIV3SchemaInterface
	// WithLegacy returns a client that uses the per-group-version (legacy) discovery endpoints only.
	WithLegacy() DiscoveryInterface
}

// DiscoveryInterfaceWithContext is DiscoveryInterface with methods that honour a context for
// cancellation and deadlines, as client-go's interface of that name.
type DiscoveryInterfaceWithContext interface {
	// RESTClient returns the client used for discovery requests.
	RESTClient() rest.Interface
	ServerGroupsInterfaceWithContext
	ServerResourcesInterfaceWithContext
	ServerVersionInterfaceWithContext
	OpenAPISchemaInterfaceWithContext
	OpenAPIV3SchemaInterfaceWithContext
	// WithLegacyWithContext returns a client that uses legacy discovery only.
	WithLegacyWithContext(ctx context.Context) DiscoveryInterfaceWithContext
}

// DiscoveryInterfaces is a discovery client with both method sets, what generated clientsets'
// Discovery returns.
type DiscoveryInterfaces interface {
	DiscoveryInterface
	DiscoveryInterfaceWithContext
}

// ServerGroupsInterface lists the API groups.
type ServerGroupsInterface interface {
	// ServerGroups returns the supported groups with their versions and preferred version.
	ServerGroups() (*metav1.APIGroupList, error)
}

// ServerResourcesInterface lists API resources.
type ServerResourcesInterface interface {
	// ServerResourcesForGroupVersion returns the resources of one group version, e.g. "apps/v1" or "v1".
	ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error)
	// ServerGroupsAndResources returns all groups and the resources of every group version. When some group
	// versions fail, the rest are returned together with an *ErrGroupDiscoveryFailed.
	ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error)
	// ServerPreferredResources returns each resource once, in the most preferred version that serves it.
	ServerPreferredResources() ([]*metav1.APIResourceList, error)
	// ServerPreferredNamespacedResources is ServerPreferredResources restricted to namespaced resources.
	ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error)
}

// ServerGroupsInterfaceWithContext is ServerGroupsInterface honouring a context.
type ServerGroupsInterfaceWithContext interface {
	// ServerGroupsWithContext returns the supported groups.
	ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error)
}

// ServerResourcesInterfaceWithContext is ServerResourcesInterface honouring a context.
type ServerResourcesInterfaceWithContext interface {
	// ServerResourcesForGroupVersionWithContext returns the resources of one group version.
	ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error)
	// ServerGroupsAndResourcesWithContext returns all groups and resources; see ServerGroupsAndResources.
	ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error)
	// ServerPreferredResourcesWithContext returns each resource once, in its most preferred version.
	ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error)
	// ServerPreferredNamespacedResourcesWithContext returns the preferred namespaced resources.
	ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error)
}

// ServerVersionInterfaceWithContext is ServerVersionInterface honouring a context.
type ServerVersionInterfaceWithContext interface {
	// ServerVersionWithContext returns the server version.
	ServerVersionWithContext(ctx context.Context) (*version.Info, error)
}

// ServerVersionInterface reports the server version.
type ServerVersionInterface interface {
	// ServerVersion returns the server's version information from /version.
	ServerVersion() (*version.Info, error)
}

// CachedDiscoveryInterface is a DiscoveryInterface whose answers are cached.
type CachedDiscoveryInterface interface {
	DiscoveryInterface
	// Fresh reports whether the cached data was fetched by this client since the last Invalidate.
	Fresh() bool
	// Invalidate drops the cache, so the next call fetches again.
	Invalidate()
}
