package rest

import (
	"path"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ResourcePath is the absolute API path of a resource, an object of it (name) or its subresources:
// /api/<version> for the core group, /apis/<group>/<version> otherwise, then namespaces/<namespace>
// when namespace is set. Clients of unversioned REST clients (dynamic, metadata) pass it to AbsPath.
func ResourcePath(resource schema.GroupVersionResource, namespace, name string, subresources ...string) string {
	segments := []string{"/apis", resource.Group, resource.Version}
	if resource.Group == "" {
		segments = []string{"/api", resource.Version}
	}
	if namespace != "" {
		segments = append(segments, "namespaces", namespace)
	}
	segments = append(segments, resource.Resource, name)
	return path.Join(append(segments, subresources...)...)
}
