package rest

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestResourcePath(t *testing.T) {
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	for _, tc := range []struct {
		got, want string
	}{
		{ResourcePath(pods, "", ""), "/api/v1/pods"},
		{ResourcePath(pods, "ns", ""), "/api/v1/namespaces/ns/pods"},
		{ResourcePath(pods, "ns", "web", "status"), "/api/v1/namespaces/ns/pods/web/status"},
		{ResourcePath(deployments, "", ""), "/apis/apps/v1/deployments"},
		{ResourcePath(deployments, "ns", "web", "scale"), "/apis/apps/v1/namespaces/ns/deployments/web/scale"},
		{ResourcePath(schema.GroupVersionResource{Version: "v1", Resource: "nodes"}, "", "n1", "proxy", "metrics"), "/api/v1/nodes/n1/proxy/metrics"},
	} {
		if tc.got != tc.want {
			t.Errorf("ResourcePath = %q; want %q", tc.got, tc.want)
		}
	}
}
