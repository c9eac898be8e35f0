package discovery_test

import (
	"context"
	"errors"
	"testing"

	"github.com/kgen-dev/kgen/runtime/discovery"
)

// TestPackageFunctionsWithContext: the package-level helpers over a client's context methods
// fetch per group version with the context, report partial failures, and stop on cancellation.
func TestPackageFunctionsWithContext(t *testing.T) {
	d, _ := newClient(t, false)
	ctx := context.Background()
	groups, lists, err := discovery.ServerGroupsAndResourcesWithContext(ctx, d)
	if !discovery.IsGroupDiscoveryFailedError(err) || len(groups) != 2 || len(resourceNames(lists)["v1"]) != 3 {
		t.Fatalf("groups %d, lists %v, %v", len(groups), resourceNames(lists), err)
	}
	preferred, err := discovery.ServerPreferredResourcesWithContext(ctx, d)
	if !discovery.IsGroupDiscoveryFailedError(err) || len(resourceNames(preferred)["v1"]) != 2 {
		t.Fatalf("preferred %v, %v", resourceNames(preferred), err)
	}
	namespaced, err := discovery.ServerPreferredNamespacedResourcesWithContext(ctx, d)
	if !discovery.IsGroupDiscoveryFailedError(err) || len(resourceNames(namespaced)["v1"]) != 1 {
		t.Fatalf("namespaced %v, %v", resourceNames(namespaced), err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := discovery.ServerGroupsAndResourcesWithContext(cancelled, d); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}
