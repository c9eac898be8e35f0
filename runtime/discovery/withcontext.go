package discovery

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ServerGroupsAndResourcesWithContext is ServerGroupsAndResources for a client with context
// methods: the groups, then each group version's resources fetched concurrently with ctx.
func ServerGroupsAndResourcesWithContext(ctx context.Context, d DiscoveryInterfaceWithContext) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	groups, err := d.ServerGroupsWithContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	resources, failed := fetchGroupVersionResources(ctx, d.ServerResourcesForGroupVersionWithContext, groups)
	return groupsAndResources(groups, resources, failed)
}

// ServerPreferredResourcesWithContext is ServerPreferredResources for a client with context methods.
func ServerPreferredResourcesWithContext(ctx context.Context, d DiscoveryInterfaceWithContext) ([]*metav1.APIResourceList, error) {
	return preferredResources(d.ServerGroupsAndResourcesWithContext(ctx))
}

// ServerPreferredNamespacedResourcesWithContext is ServerPreferredNamespacedResources for a client
// with context methods.
func ServerPreferredNamespacedResourcesWithContext(ctx context.Context, d DiscoveryInterfaceWithContext) ([]*metav1.APIResourceList, error) {
	all, err := ServerPreferredResourcesWithContext(ctx, d)
	return namespacedOnly(all), err
}
