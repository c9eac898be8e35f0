// Package openapi3 parses the OpenAPI v3 documents runtime/openapi fetches, per group version,
// into k8s.io/kube-openapi's spec3 types. Its surface mirrors client-go's openapi3 package.
package openapi3

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/spec3"

	"github.com/kgen-dev/kgen/runtime/openapi"
)

// Root reads the OpenAPI v3 documents of a server by group version.
type Root interface {
	// GroupVersions returns the group versions that have a document, sorted by group then version;
	// the core group is "" and paths that are not group versions are left out.
	GroupVersions() ([]schema.GroupVersion, error)
	// GVSpec fetches and parses the document of gv; a *GroupVersionNotFoundError when there is none.
	GVSpec(gv schema.GroupVersion) (*spec3.OpenAPI, error)
	// GVSpecAsMap fetches the document of gv as generic JSON.
	GVSpecAsMap(gv schema.GroupVersion) (map[string]interface{}, error)
}

// root is a Root over an openapi.Client.
type root struct {
	client openapi.Client
}

// NewRoot returns a Root reading through client.
func NewRoot(client openapi.Client) Root { return &root{client: client} }

// GroupVersions returns the group versions that have a document.
func (r *root) GroupVersions() ([]schema.GroupVersion, error) {
	paths, err := r.client.Paths()
	if err != nil {
		return nil, err
	}
	var out []schema.GroupVersion
	for p := range paths {
		if gv, ok := pathGroupVersion(p); ok {
			out = append(out, gv)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Version < out[j].Version
	})
	return out, nil
}

// GVSpec fetches and parses the document of gv.
func (r *root) GVSpec(gv schema.GroupVersion) (*spec3.OpenAPI, error) {
	body, err := r.document(gv)
	if err != nil {
		return nil, err
	}
	var doc spec3.OpenAPI
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("OpenAPI v3 document of %s: %w", gv, err)
	}
	return &doc, nil
}

// GVSpecAsMap fetches the document of gv as generic JSON.
func (r *root) GVSpecAsMap(gv schema.GroupVersion) (map[string]interface{}, error) {
	body, err := r.document(gv)
	if err != nil {
		return nil, err
	}
	var doc map[string]interface{}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("OpenAPI v3 document of %s: %w", gv, err)
	}
	return doc, nil
}

func (r *root) document(gv schema.GroupVersion) ([]byte, error) {
	paths, err := r.client.Paths()
	if err != nil {
		return nil, err
	}
	doc, ok := paths[groupVersionPath(gv)]
	if !ok {
		return nil, &GroupVersionNotFoundError{gv: gv}
	}
	return doc.Schema(runtime.ContentTypeJSON)
}

// groupVersionPath is the index path of gv's document: "api/v1" or "apis/<group>/<version>".
func groupVersionPath(gv schema.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}

// pathGroupVersion is the inverse of groupVersionPath; other paths ("version", "apis") are not
// group versions.
func pathGroupVersion(p string) (schema.GroupVersion, bool) {
	parts := strings.Split(p, "/")
	switch {
	case len(parts) == 2 && parts[0] == "api":
		return schema.GroupVersion{Version: parts[1]}, true
	case len(parts) == 3 && parts[0] == "apis":
		return schema.GroupVersion{Group: parts[1], Version: parts[2]}, true
	}
	return schema.GroupVersion{}, false
}

// GroupVersionNotFoundError says the server publishes no document for a group version.
type GroupVersionNotFoundError struct {
	gv schema.GroupVersion
}

// Error names the group version.
func (e *GroupVersionNotFoundError) Error() string {
	return fmt.Sprintf("GroupVersion (%v) not found as OpenAPI V3 path", e.gv)
}
