// Package discovery asks an API server which groups, versions and resources it serves, using aggregated
// discovery (apidiscovery.k8s.io/v2) when the server offers it. Its surface mirrors client-go's discovery
// package; the memory-cached client lives in cached/memory and a RESTMapper built from discovery in restmapper.
package discovery

import (
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
	// WithLegacy returns a client that uses the per-group-version (legacy) discovery endpoints only.
	WithLegacy() DiscoveryInterface
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
