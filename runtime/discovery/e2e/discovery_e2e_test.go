package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/discovery/cached/disk"
	"github.com/kgen-dev/kgen/runtime/discovery/cached/memory"
	"github.com/kgen-dev/kgen/runtime/discovery/restmapper"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

func TestE2EDiscovery(t *testing.T) {
	d, err := discovery.NewDiscoveryClientForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.ServerVersion()
	if err != nil || v.Major != "1" {
		t.Fatalf("version %v %v", v, err)
	}
	for _, client := range []discovery.DiscoveryInterface{d, d.WithLegacy()} {
		groups, lists, err := client.ServerGroupsAndResources()
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, g := range groups {
			names[g.Name] = true
		}
		if !names[""] || !names["apps"] || !names["rbac.authorization.k8s.io"] {
			t.Fatalf("groups %v", names)
		}
		found := map[string]bool{}
		for _, l := range lists {
			for _, r := range l.APIResources {
				found[l.GroupVersion+"/"+r.Name] = r.Namespaced
			}
		}
		if ns, ok := found["apps/v1/deployments"]; !ok || !ns {
			t.Fatal("apps/v1 deployments missing or not namespaced")
		}
		if _, ok := found["apps/v1/deployments/scale"]; !ok {
			t.Fatal("subresource deployments/scale missing")
		}
		if ns, ok := found["v1/nodes"]; !ok || ns {
			t.Fatal("nodes missing or namespaced")
		}
	}
	preferred, err := d.ServerPreferredResources()
	if err != nil || len(preferred) == 0 {
		t.Fatal(err)
	}
	cache := &agingCache{CachedDiscoveryInterface: memory.NewMemCacheClient(d)}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(cache)
	mapping, err := mapper.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"})
	if err != nil || mapping.Resource.Resource != "deployments" || mapping.Resource.Version != "v1" {
		t.Fatalf("%+v %v", mapping, err)
	}
	gvk, err := mapper.KindFor(schema.GroupVersionResource{Resource: "deployments"})
	if err != nil || gvk != (schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}) {
		t.Fatalf("%v %v", gvk, err)
	}

	// A CRD installed after the mapper was built is found once the cache is no longer fresh: the miss
	// invalidates the cache once.
	if err := env.InstallCRDs(context.Background(), []byte(gadgetCRD)); err != nil {
		t.Fatal(err)
	}
	cache.expire()
	mapping, err = mapper.RESTMapping(schema.GroupKind{Group: "discovery.kgen.dev", Kind: "Gadget"})
	if err != nil || mapping.Resource.Resource != "gadgets" || mapping.Scope.Name() != "root" {
		t.Fatalf("%+v %v", mapping, err)
	}
}

// agingCache stands for the memory cache after its FreshnessWindow has passed, without waiting for it:
// after expire it reports not fresh until the next Invalidate. That the memory cache itself turns stale
// after FreshnessWindow is a unit test of package memory.
type agingCache struct {
	discovery.CachedDiscoveryInterface
	expired atomic.Bool
}

// expire makes the cache report not fresh, as if FreshnessWindow had passed since it was filled.
func (c *agingCache) expire() { c.expired.Store(true) }

// Fresh reports false after expire until the next Invalidate, and what the memory cache says otherwise.
func (c *agingCache) Fresh() bool {
	return !c.expired.Load() && c.CachedDiscoveryInterface.Fresh()
}

// Invalidate drops the memory cache and forgets expire.
func (c *agingCache) Invalidate() {
	c.expired.Store(false)
	c.CachedDiscoveryInterface.Invalidate()
}

const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.discovery.kgen.dev
spec:
  group: discovery.kgen.dev
  scope: Cluster
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

func TestE2EDiskCachedDiscovery(t *testing.T) {
	cacheDir, httpDir := t.TempDir(), t.TempDir()
	c, err := disk.NewCachedDiscoveryClientForConfig(env.Config(), cacheDir, httpDir, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(c)
	mapping, err := mapper.RESTMapping(schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"})
	if err != nil || mapping.Resource.Resource != "clusterroles" || mapping.Scope.Name() != "root" {
		t.Fatalf("%+v %v", mapping, err)
	}
	for _, f := range []string{"servergroups.json", "apps/v1/serverresources.json", "v1/serverresources.json"} {
		if _, err := os.Stat(filepath.Join(cacheDir, f)); err != nil {
			t.Errorf("%s was not cached: %v", f, err)
		}
	}
	if entries, err := os.ReadDir(httpDir); err != nil || len(entries) == 0 {
		t.Errorf("no HTTP responses were kept: %v", err)
	}

	// A client on the same directories, with the server gone, still answers from the files.
	offline, err := disk.NewCachedDiscoveryClientForConfig(&rest.Config{Host: "https://127.0.0.1:1"}, cacheDir, httpDir, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	groups, lists, err := offline.ServerGroupsAndResources()
	if err != nil || len(groups) < 10 || len(lists) < 10 || offline.Fresh() {
		t.Fatalf("offline: %d groups, %d lists, fresh %v, %v", len(groups), len(lists), offline.Fresh(), err)
	}
}
