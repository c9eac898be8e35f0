package disk_test

import (
	"context"
	"testing"
	"time"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/discovery/cached/disk"
)

// TestContextMethodsShareTheCache: the context methods answer from the same files as the plain
// ones, ask the delegate only on a miss, and Fresh/Invalidate behave the same.
func TestContextMethodsShareTheCache(t *testing.T) {
	ctx := context.Background()
	delegate, calls := server()
	var c discovery.DiscoveryInterfaceWithContext = disk.NewCachedDiscoveryClient(delegate, t.TempDir(), time.Hour)
	if _, _, err := c.ServerGroupsAndResourcesWithContext(ctx); err != nil || calls() != 2 {
		t.Fatalf("first: %v, %d calls", err, calls())
	}
	preferred, err := c.WithLegacyWithContext(ctx).ServerPreferredNamespacedResourcesWithContext(ctx)
	if err != nil || len(preferred) != 1 || calls() != 2 {
		t.Fatalf("preferred: %v, %v, %d calls", preferred, err, calls())
	}
	if _, err := c.ServerPreferredResourcesWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	if list, err := c.ServerResourcesForGroupVersionWithContext(ctx, "apps/v1"); err != nil || len(list.APIResources) != 1 || calls() != 2 {
		t.Fatalf("resources: %v, %v, %d calls", list, err, calls())
	}
	if v, err := c.ServerVersionWithContext(ctx); err != nil || v.Major == "" || calls() != 3 {
		t.Fatalf("version: %v, %v, %d calls", v, err, calls())
	}
	d := c.(*disk.CachedDiscoveryClient)
	if !d.FreshWithContext(ctx) {
		t.Fatal("not fresh")
	}
	d.InvalidateWithContext(ctx)
	if _, err := c.ServerGroupsWithContext(ctx); err != nil || calls() != 4 {
		t.Fatalf("after invalidate: %v, %d calls", err, calls())
	}
}
