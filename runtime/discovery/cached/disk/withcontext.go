package disk

import (
	"context"
	"path/filepath"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kgen-dev/kgen/runtime/discovery"
)

var _ discovery.DiscoveryInterfaceWithContext = &CachedDiscoveryClient{}

// ServerGroupsWithContext is ServerGroups; a cache miss asks the delegate with ctx when it
// takes one.
func (d *CachedDiscoveryClient) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	fetch := d.delegate.ServerGroups
	if c, ok := d.delegate.(discovery.ServerGroupsInterfaceWithContext); ok {
		fetch = func() (*metav1.APIGroupList, error) { return c.ServerGroupsWithContext(ctx) }
	}
	return cached(d, filepath.Join(d.cacheDirectory, "servergroups.json"), "APIGroupList", &metav1.APIGroupList{},
		fetch, func(l *metav1.APIGroupList) bool { return l != nil && len(l.Groups) > 0 })
}

// ServerResourcesForGroupVersionWithContext is ServerResourcesForGroupVersion; a cache miss asks
// the delegate with ctx when it takes one.
func (d *CachedDiscoveryClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	fetch := func() (*metav1.APIResourceList, error) {
		return d.delegate.ServerResourcesForGroupVersion(groupVersion)
	}
	if c, ok := d.delegate.(discovery.ServerResourcesInterfaceWithContext); ok {
		fetch = func() (*metav1.APIResourceList, error) {
			return c.ServerResourcesForGroupVersionWithContext(ctx, groupVersion)
		}
	}
	return cached(d, filepath.Join(d.cacheDirectory, filepath.FromSlash(groupVersion), "serverresources.json"), "APIResourceList", &metav1.APIResourceList{},
		fetch, func(l *metav1.APIResourceList) bool { return l != nil && len(l.APIResources) > 0 })
}

// ServerGroupsAndResourcesWithContext is ServerGroupsAndResources with ctx for cache misses.
func (d *CachedDiscoveryClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResourcesWithContext(ctx, d)
}

// ServerPreferredResourcesWithContext is ServerPreferredResources with ctx for cache misses.
func (d *CachedDiscoveryClient) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResourcesWithContext(ctx, d)
}

// ServerPreferredNamespacedResourcesWithContext is ServerPreferredNamespacedResources with ctx for
// cache misses.
func (d *CachedDiscoveryClient) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResourcesWithContext(ctx, d)
}

// ServerVersionWithContext asks the delegate, with ctx when it takes one.
func (d *CachedDiscoveryClient) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	if c, ok := d.delegate.(discovery.ServerVersionInterfaceWithContext); ok {
		return c.ServerVersionWithContext(ctx)
	}
	return d.delegate.ServerVersion()
}

// WithLegacyWithContext returns the client itself: cached answers are per group version already.
func (d *CachedDiscoveryClient) WithLegacyWithContext(ctx context.Context) discovery.DiscoveryInterfaceWithContext {
	return d
}

// FreshWithContext is Fresh.
func (d *CachedDiscoveryClient) FreshWithContext(ctx context.Context) bool { return d.Fresh() }

// InvalidateWithContext is Invalidate.
func (d *CachedDiscoveryClient) InvalidateWithContext(ctx context.Context) { d.Invalidate() }
