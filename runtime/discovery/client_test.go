package discovery_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/discovery/cached/memory"
	"github.com/kgen-dev/kgen/runtime/discovery/restmapper"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// fakeServer serves discovery for core v1 (pods, pods/status, nodes) and widgets.example.com v2 (preferred)
// and v1, in aggregated or legacy form; v1beta1 of the example group fails.
type fakeServer struct {
	aggregated bool
	requests   atomic.Int32
}

func writeJSON(w http.ResponseWriter, contentType string, v any) {
	w.Header().Set("Content-Type", contentType)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	aggregated := f.aggregated && r.Header.Get("Accept") == discovery.AcceptV2+","+discovery.AcceptV1
	kind := func(g, v, k string) *metav1.GroupVersionKind {
		return &metav1.GroupVersionKind{Group: g, Version: v, Kind: k}
	}
	switch r.URL.Path {
	case "/version":
		writeJSON(w, "application/json", map[string]string{"major": "1", "minor": "37", "gitVersion": "v1.37.1"})
	case "/api":
		if aggregated {
			writeJSON(w, discovery.AcceptV2, apidiscoveryv2.APIGroupDiscoveryList{Items: []apidiscoveryv2.APIGroupDiscovery{{
				Versions: []apidiscoveryv2.APIVersionDiscovery{{Version: "v1", Resources: []apidiscoveryv2.APIResourceDiscovery{
					{Resource: "pods", SingularResource: "pod", Scope: apidiscoveryv2.ScopeNamespace, ResponseKind: kind("", "v1", "Pod"), Verbs: []string{"get", "list"}, ShortNames: []string{"po"},
						Subresources: []apidiscoveryv2.APISubresourceDiscovery{{Subresource: "status", ResponseKind: kind("", "v1", "Pod"), Verbs: []string{"get", "update"}}}},
					{Resource: "nodes", SingularResource: "node", Scope: apidiscoveryv2.ScopeCluster, ResponseKind: kind("", "v1", "Node"), Verbs: []string{"get"}},
				}}},
			}}})
			return
		}
		writeJSON(w, "application/json", metav1.APIVersions{Versions: []string{"v1"}})
	case "/apis":
		if aggregated {
			widgets := func(v string) apidiscoveryv2.APIVersionDiscovery {
				return apidiscoveryv2.APIVersionDiscovery{Version: v, Resources: []apidiscoveryv2.APIResourceDiscovery{
					{Resource: "widgets", SingularResource: "widget", Scope: apidiscoveryv2.ScopeNamespace, ResponseKind: kind("example.com", v, "Widget"), Verbs: []string{"get"}},
				}}
			}
			gadgets := widgets("v1")
			gadgets.Resources = append(gadgets.Resources, apidiscoveryv2.APIResourceDiscovery{Resource: "gadgets", SingularResource: "gadget", Scope: apidiscoveryv2.ScopeCluster, ResponseKind: kind("example.com", "v1", "Gadget"), Verbs: []string{"get"}})
			writeJSON(w, discovery.AcceptV2, apidiscoveryv2.APIGroupDiscoveryList{Items: []apidiscoveryv2.APIGroupDiscovery{{
				ObjectMeta: metav1.ObjectMeta{Name: "example.com"},
				Versions: []apidiscoveryv2.APIVersionDiscovery{widgets("v2"), gadgets,
					{Version: "v1beta1", Freshness: apidiscoveryv2.DiscoveryFreshnessStale}},
			}}})
			return
		}
		writeJSON(w, "application/json", metav1.APIGroupList{Groups: []metav1.APIGroup{{
			Name: "example.com",
			Versions: []metav1.GroupVersionForDiscovery{
				{GroupVersion: "example.com/v2", Version: "v2"}, {GroupVersion: "example.com/v1", Version: "v1"}, {GroupVersion: "example.com/v1beta1", Version: "v1beta1"}},
			PreferredVersion: metav1.GroupVersionForDiscovery{GroupVersion: "example.com/v2", Version: "v2"},
		}}})
	case "/api/v1":
		writeJSON(w, "application/json", metav1.APIResourceList{GroupVersion: "v1", APIResources: []metav1.APIResource{
			{Name: "pods", SingularName: "pod", Namespaced: true, Kind: "Pod", Verbs: []string{"get", "list"}, ShortNames: []string{"po"}},
			{Name: "pods/status", Namespaced: true, Kind: "Pod", Verbs: []string{"get", "update"}},
			{Name: "nodes", SingularName: "node", Kind: "Node", Verbs: []string{"get"}},
		}})
	case "/apis/example.com/v2":
		writeJSON(w, "application/json", metav1.APIResourceList{GroupVersion: "example.com/v2", APIResources: []metav1.APIResource{
			{Name: "widgets", SingularName: "widget", Namespaced: true, Kind: "Widget", Verbs: []string{"get"}}}})
	case "/apis/example.com/v1":
		writeJSON(w, "application/json", metav1.APIResourceList{GroupVersion: "example.com/v1", APIResources: []metav1.APIResource{
			{Name: "widgets", SingularName: "widget", Namespaced: true, Kind: "Widget", Verbs: []string{"get"}},
			{Name: "gadgets", SingularName: "gadget", Kind: "Gadget", Verbs: []string{"get"}}}})
	default:
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func newClient(t *testing.T, aggregated bool) (*discovery.DiscoveryClient, *fakeServer) {
	f := &fakeServer{aggregated: aggregated}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	d, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return d, f
}

func resourceNames(lists []*metav1.APIResourceList) map[string][]string {
	out := map[string][]string{}
	for _, l := range lists {
		for _, r := range l.APIResources {
			out[l.GroupVersion] = append(out[l.GroupVersion], r.Name)
		}
	}
	return out
}

func TestDiscoveryAggregatedAndLegacyAgree(t *testing.T) {
	for _, aggregated := range []bool{true, false} {
		t.Run(map[bool]string{true: "aggregated", false: "legacy"}[aggregated], func(t *testing.T) {
			d, f := newClient(t, aggregated)
			groups, err := d.ServerGroups()
			if err != nil {
				t.Fatal(err)
			}
			if len(groups.Groups) != 2 || groups.Groups[0].Name != "" || groups.Groups[1].PreferredVersion.Version != "v2" {
				t.Fatalf("groups %+v", groups.Groups)
			}
			f.requests.Store(0)
			_, lists, err := d.ServerGroupsAndResources()
			var failed *discovery.ErrGroupDiscoveryFailed
			if !errors.As(err, &failed) || len(failed.Groups) != 1 || failed.Groups[schema.GroupVersion{Group: "example.com", Version: "v1beta1"}] == nil {
				t.Fatalf("want partial failure for example.com/v1beta1, got %v", err)
			}
			wantRequests := int32(2)
			if !aggregated {
				wantRequests = 6
			}
			if n := f.requests.Load(); n != wantRequests {
				t.Errorf("requests = %d, want %d", n, wantRequests)
			}
			names := resourceNames(lists)
			if got := names["v1"]; len(got) != 3 || got[1] != "pods/status" {
				t.Errorf("core resources %v", got)
			}
			for _, l := range lists {
				for _, r := range l.APIResources {
					if r.Name == "pods" && (!r.Namespaced || r.Kind != "Pod" || r.ShortNames[0] != "po") {
						t.Errorf("pods %+v", r)
					}
					if r.Name == "nodes" && r.Namespaced {
						t.Errorf("nodes must be cluster scoped")
					}
				}
			}
			preferred, err := d.ServerPreferredResources()
			if !discovery.IsGroupDiscoveryFailedError(err) {
				t.Fatalf("got %v", err)
			}
			pn := resourceNames(preferred)
			if len(pn["example.com/v2"]) != 1 || len(pn["example.com/v1"]) != 1 || pn["example.com/v1"][0] != "gadgets" || len(pn["v1"]) != 2 {
				t.Errorf("preferred %v", pn)
			}
			namespaced, _ := d.ServerPreferredNamespacedResources()
			if nn := resourceNames(namespaced); len(nn["v1"]) != 1 || nn["example.com/v1"] != nil {
				t.Errorf("namespaced %v", nn)
			}
		})
	}
}

func TestServerVersionAndResourcesForGroupVersion(t *testing.T) {
	d, _ := newClient(t, true)
	v, err := d.ServerVersion()
	if err != nil || v.GitVersion != "v1.37.1" {
		t.Fatalf("%v %v", v, err)
	}
	l, err := d.ServerResourcesForGroupVersion("example.com/v1")
	if err != nil || len(l.APIResources) != 2 {
		t.Fatalf("%v %v", l, err)
	}
	if _, err := d.ServerResourcesForGroupVersion("example.com/v1beta1"); err == nil {
		t.Fatal("want error")
	}
}

func TestMemCacheClient(t *testing.T) {
	d, f := newClient(t, true)
	c := memory.NewMemCacheClient(d)
	if c.Fresh() {
		t.Fatal("fresh before first fetch")
	}
	for range 3 {
		if _, err := c.ServerGroups(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ServerResourcesForGroupVersion("v1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.requests.Load(); n != 2 || !c.Fresh() {
		t.Fatalf("requests = %d fresh=%v, want 2 cached", n, c.Fresh())
	}
	if _, _, err := c.ServerGroupsAndResources(); !discovery.IsGroupDiscoveryFailedError(err) {
		t.Fatalf("partial failure must be kept: %v", err)
	}
	c.Invalidate()
	if c.Fresh() {
		t.Fatal("fresh after Invalidate")
	}
	if _, err := c.ServerGroups(); err != nil || f.requests.Load() != 4 {
		t.Fatalf("refetch: %v requests=%d", err, f.requests.Load())
	}
}

func TestRESTMapper(t *testing.T) {
	d, _ := newClient(t, true)
	m := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(d))
	mapping, err := m.RESTMapping(schema.GroupKind{Group: "example.com", Kind: "Widget"})
	if err != nil {
		t.Fatal(err)
	}
	if mapping.Resource.Version != "v2" || mapping.Scope.Name() != "namespace" {
		t.Fatalf("widget mapping %+v", mapping)
	}
	gvk, err := m.KindFor(schema.GroupVersionResource{Resource: "pods"})
	if err != nil || gvk.Kind != "Pod" {
		t.Fatalf("%v %v", gvk, err)
	}
	gvr, err := m.ResourceFor(schema.GroupVersionResource{Resource: "gadget"})
	if err != nil || gvr != (schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}) {
		t.Fatalf("%v %v", gvr, err)
	}
	if _, err := m.RESTMapping(schema.GroupKind{Kind: "Nope"}); err == nil {
		t.Fatal("want no-match error")
	}
	if s, err := m.ResourceSingularizer("widgets"); err != nil || s != "widget" {
		t.Fatalf("%v %v", s, err)
	}
}

func TestDiscoveryWithContext(t *testing.T) {
	d, _ := newClient(t, true)
	var dc discovery.DiscoveryInterfaceWithContext = d
	ctx := context.Background()
	if v, err := dc.ServerVersionWithContext(ctx); err != nil || v.GitVersion != "v1.37.1" {
		t.Fatalf("%v %v", v, err)
	}
	groups, err := dc.ServerGroupsWithContext(ctx)
	if err != nil || len(groups.Groups) != 2 {
		t.Fatalf("%v %v", groups, err)
	}
	preferred, err := dc.ServerPreferredNamespacedResourcesWithContext(ctx)
	if !discovery.IsGroupDiscoveryFailedError(err) || len(resourceNames(preferred)["v1"]) != 1 {
		t.Fatalf("%v %v", resourceNames(preferred), err)
	}
	legacy := dc.WithLegacyWithContext(ctx)
	if _, lists, _ := legacy.ServerGroupsAndResourcesWithContext(ctx); len(lists) != 3 {
		t.Fatalf("legacy lists %d", len(lists))
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := dc.ServerGroupsWithContext(cancelled); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
	if _, err := dc.ServerResourcesForGroupVersionWithContext(cancelled, "v1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}
