package restmapper

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func groups() []*APIGroupResources {
	return []*APIGroupResources{
		{
			Group: metav1.APIGroup{Versions: []metav1.GroupVersionForDiscovery{{Version: "v1"}}, PreferredVersion: metav1.GroupVersionForDiscovery{Version: "v1"}},
			VersionedResources: map[string][]metav1.APIResource{"v1": {
				{Name: "pods", SingularName: "pod", Namespaced: true, Kind: "Pod"},
				{Name: "pods/status", Namespaced: true, Kind: "Pod"},
				{Name: "nodes", Kind: "Node"},
			}},
		},
		{
			// The preferred version (v2) is listed second; it must still win.
			Group: metav1.APIGroup{Name: "example.com",
				Versions:         []metav1.GroupVersionForDiscovery{{Version: "v1"}, {Version: "v2"}},
				PreferredVersion: metav1.GroupVersionForDiscovery{Version: "v2"}},
			VersionedResources: map[string][]metav1.APIResource{
				"v1": {{Name: "widgets", SingularName: "widget", Namespaced: true, Kind: "Widget"}, {Name: "oldies", SingularName: "oldie", Kind: "Oldie"}},
				"v2": {{Name: "widgets", SingularName: "widget", Namespaced: true, Kind: "Widget"}},
			},
		},
		{
			// A second group serving "pods" loses to the core group, which is listed first.
			Group:              metav1.APIGroup{Name: "shadow.example.com", Versions: []metav1.GroupVersionForDiscovery{{Version: "v1"}}, PreferredVersion: metav1.GroupVersionForDiscovery{Version: "v1"}},
			VersionedResources: map[string][]metav1.APIResource{"v1": {{Name: "pods", SingularName: "pod", Namespaced: true, Kind: "Pod"}}},
		},
	}
}

func TestDiscoveryRESTMapperPriorities(t *testing.T) {
	m := NewDiscoveryRESTMapper(groups())
	cases := []struct {
		in   schema.GroupVersionResource
		want schema.GroupVersionResource
	}{
		{schema.GroupVersionResource{Resource: "pods"}, schema.GroupVersionResource{Version: "v1", Resource: "pods"}},
		{schema.GroupVersionResource{Resource: "pod"}, schema.GroupVersionResource{Version: "v1", Resource: "pods"}},
		{schema.GroupVersionResource{Resource: "widgets"}, schema.GroupVersionResource{Group: "example.com", Version: "v2", Resource: "widgets"}},
		{schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}, schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}},
		{schema.GroupVersionResource{Resource: "oldies"}, schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "oldies"}},
		{schema.GroupVersionResource{Group: "shadow.example.com", Resource: "pods"}, schema.GroupVersionResource{Group: "shadow.example.com", Version: "v1", Resource: "pods"}},
	}
	for _, tc := range cases {
		got, err := m.ResourceFor(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ResourceFor(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	mapping, err := m.RESTMapping(schema.GroupKind{Kind: "Node"})
	if err != nil || mapping.Scope.Name() != meta.RESTScopeNameRoot || mapping.Resource.Resource != "nodes" {
		t.Fatalf("nodes: %+v %v", mapping, err)
	}
	mapping, err = m.RESTMapping(schema.GroupKind{Group: "example.com", Kind: "Widget"}, "v1")
	if err != nil || mapping.Resource.Version != "v1" {
		t.Fatalf("explicit version: %+v %v", mapping, err)
	}
	if _, err := m.KindFor(schema.GroupVersionResource{Resource: "pods/status"}); err == nil {
		t.Fatal("subresources must not be mapped")
	}
	if _, err := m.RESTMapping(schema.GroupKind{Kind: "Missing"}); !meta.IsNoMatchError(err) {
		t.Fatalf("want no-match, got %v", err)
	}
}
