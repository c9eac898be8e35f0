package testenv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

const crdsPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// crd is one manifest (a CustomResourceDefinition, or a webhook configuration) to install and where it
// came from, for error messages.
type crd struct {
	obj    *unstructured.Unstructured
	source string
}

// manifestKind is what a loader accepts: a name for messages and the check of one decoded object, which
// expands lists.
type manifestKind struct {
	name, kind string // short name, and the kind an empty document lacks
	check      func(obj *unstructured.Unstructured, source string) ([]crd, error)
}

var crdKind = manifestKind{name: "CRD", kind: "CustomResourceDefinition", check: checkCRDs}

// InstallCRDs creates (or updates) CustomResourceDefinitions and waits until each is Established and, in
// every served version, listed by discovery and answering list requests. Each argument is a path to a YAML or JSON file
// or to a directory of them (*.yaml, *.yml, *.json), YAML bytes ([]byte, several documents allowed), an
// *unstructured.Unstructured, or any value that encodes to a CRD as JSON, such as a typed apiextensions
// object. Lists are expanded; anything other than an apiextensions.k8s.io/v1 CustomResourceDefinition is
// an error, reported before anything is installed.
func (e *Environment) InstallCRDs(ctx context.Context, crds ...any) error {
	var all []crd
	for _, in := range crds {
		loaded, err := loadManifests(in, crdKind)
		if err != nil {
			return err
		}
		all = append(all, loaded...)
	}
	for _, c := range all {
		if err := e.pointConversion(c); err != nil {
			return err
		}
	}
	ctx, cancel := e.startContext(ctx)
	defer cancel()
	defer e.client.CloseIdleConnections()
	for _, c := range all {
		if err := e.applyCRD(ctx, c); err != nil {
			return err
		}
	}
	for _, c := range all {
		if err := e.waitServed(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

func loadManifests(in any, kind manifestKind) ([]crd, error) {
	switch v := in.(type) {
	case string:
		return loadManifestPath(v, kind)
	case []byte:
		return parseManifests(v, "YAML bytes", kind)
	case *unstructured.Unstructured:
		return kind.check(v.DeepCopy(), "object")
	case unstructured.Unstructured:
		return kind.check(v.DeepCopy(), "object")
	default:
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("testenv: %s of type %T: %w", kind.name, in, err)
		}
		return parseManifests(data, fmt.Sprintf("%T value", in), kind)
	}
}

func loadManifestPath(path string, kind manifestKind) ([]crd, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("testenv: %s path: %w", kind.name, err)
	}
	files := []string{path}
	if info.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, fmt.Errorf("testenv: %s directory: %w", kind.name, err)
		}
		files = files[:0]
		for _, entry := range entries {
			switch filepath.Ext(entry.Name()) {
			case ".yaml", ".yml", ".json":
				if !entry.IsDir() {
					files = append(files, filepath.Join(path, entry.Name()))
				}
			}
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("testenv: %s directory %s holds no .yaml, .yml or .json files", kind.name, path)
		}
	}
	var all []crd
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("testenv: %w", err)
		}
		loaded, err := parseManifests(data, file, kind)
		if err != nil {
			return nil, err
		}
		all = append(all, loaded...)
	}
	return all, nil
}

// parseManifests reads every YAML or JSON document in data.
func parseManifests(data []byte, source string, kind manifestKind) ([]crd, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var all []crd
	for doc := 1; ; doc++ {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("testenv: %s: %w", source, err)
		}
		docJSON, err := yaml.YAMLToJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("testenv: %s, document %d: %w", source, doc, err)
		}
		if trimmed := bytes.TrimSpace(docJSON); len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
			continue
		}
		obj := &unstructured.Unstructured{}
		if err := obj.UnmarshalJSON(docJSON); err != nil {
			return nil, fmt.Errorf("testenv: %s, document %d: %w", source, doc, err)
		}
		loaded, err := kind.check(obj, fmt.Sprintf("%s, document %d", source, doc))
		if err != nil {
			return nil, err
		}
		all = append(all, loaded...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("testenv: %s holds no %s", source, kind.kind)
	}
	return all, nil
}

// checkCRDs accepts a v1 CustomResourceDefinition or a list of them.
func checkCRDs(obj *unstructured.Unstructured, source string) ([]crd, error) {
	if obj.IsList() {
		list, err := obj.ToList()
		if err != nil {
			return nil, fmt.Errorf("testenv: %s: %w", source, err)
		}
		var all []crd
		for i := range list.Items {
			loaded, err := checkCRDs(&list.Items[i], fmt.Sprintf("%s, item %d", source, i))
			if err != nil {
				return nil, err
			}
			all = append(all, loaded...)
		}
		return all, nil
	}
	gvk := obj.GroupVersionKind()
	if gvk.Group != "apiextensions.k8s.io" || gvk.Kind != "CustomResourceDefinition" {
		return nil, fmt.Errorf("testenv: %s is a %s %q, not a CustomResourceDefinition", source, obj.GetKind(), obj.GetName())
	}
	if gvk.Version != "v1" {
		return nil, fmt.Errorf("testenv: %s: CustomResourceDefinition %q is %s; the API server serves apiextensions.k8s.io/v1 only",
			source, obj.GetName(), obj.GetAPIVersion())
	}
	if obj.GetName() == "" {
		return nil, fmt.Errorf("testenv: %s: CustomResourceDefinition without a name", source)
	}
	return []crd{{obj: obj, source: source}}, nil
}

// applyCRD creates the CRD, or replaces it when it already exists.
func (e *Environment) applyCRD(ctx context.Context, c crd) error {
	return e.apply(ctx, crdsPath, "CRD", c)
}

// apply creates the cluster-scoped object in the collection at path, or replaces it when it already exists.
func (e *Environment) apply(ctx context.Context, collection, what string, c crd) error {
	status, body, err := e.do(ctx, http.MethodPost, collection, c.obj.Object)
	if err != nil {
		return err
	}
	switch status {
	case http.StatusCreated, http.StatusOK:
		return nil
	case http.StatusConflict:
	default:
		return statusError(fmt.Sprintf("creating %s %q from %s", what, c.obj.GetName(), c.source), status, body)
	}
	path := collection + "/" + c.obj.GetName()
	status, body, err = e.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return statusError(fmt.Sprintf("reading existing %s %q", what, c.obj.GetName()), status, body)
	}
	var existing unstructured.Unstructured
	if err := existing.UnmarshalJSON(body); err != nil {
		return fmt.Errorf("testenv: existing %s %q: %w", what, c.obj.GetName(), err)
	}
	update := c.obj.DeepCopy()
	update.SetResourceVersion(existing.GetResourceVersion())
	status, body, err = e.do(ctx, http.MethodPut, path, update.Object)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return statusError(fmt.Sprintf("updating %s %q from %s", what, c.obj.GetName(), c.source), status, body)
	}
	return nil
}

// waitServed polls until the CRD is Established and discovery lists its resource in every served version.
func (e *Environment) waitServed(ctx context.Context, c crd) error {
	name := c.obj.GetName()
	group, _, _ := unstructured.NestedString(c.obj.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(c.obj.Object, "spec", "names", "plural")
	versions := servedVersions(c.obj)
	pending := "not Established yet"
	for {
		ready, why, err := e.crdReady(ctx, name, group, plural, versions)
		if err != nil && ctx.Err() == nil {
			return err
		}
		if ready {
			return nil
		}
		if why != "" {
			pending = why
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("testenv: CRD %q from %s is not served (%v): %s", name, c.source, context.Cause(ctx), pending)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (e *Environment) crdReady(ctx context.Context, name, group, plural string, versions []string) (bool, string, error) {
	status, body, err := e.do(ctx, http.MethodGet, crdsPath+"/"+name, nil)
	if err != nil {
		return false, "", err
	}
	if status != http.StatusOK {
		return false, "", statusError(fmt.Sprintf("reading CRD %q", name), status, body)
	}
	var current unstructured.Unstructured
	if err := current.UnmarshalJSON(body); err != nil {
		return false, "", fmt.Errorf("testenv: CRD %q: %w", name, err)
	}
	if established, why := condition(&current, "Established"); !established {
		if accepted, reason := condition(&current, "NamesAccepted"); !accepted && reason != "" {
			why = reason
		}
		return false, why, nil
	}
	for _, version := range versions {
		status, body, err := e.do(ctx, http.MethodGet, "/apis/"+group+"/"+version, nil)
		if err != nil {
			return false, "", err
		}
		if status != http.StatusOK || !listsResource(body, plural) {
			return false, fmt.Sprintf("discovery does not list %s in %s/%s yet", plural, group, version), nil
		}
		// Discovery may list the resource while its storage is still initializing; a list proves it is served.
		status, body, err = e.do(ctx, http.MethodGet, "/apis/"+group+"/"+version+"/"+plural+"?limit=1", nil)
		if err != nil {
			return false, "", err
		}
		if status != http.StatusOK {
			return false, fmt.Sprintf("listing %s.%s/%s answers %d: %s", plural, group, version, status, bytes.TrimSpace(body)), nil
		}
	}
	return true, "", nil
}

// listsResource reports whether a discovery document (an APIResourceList) names the resource.
func listsResource(discovery []byte, resource string) bool {
	var list struct {
		Resources []struct {
			Name string `json:"name"`
		} `json:"resources"`
	}
	if json.Unmarshal(discovery, &list) != nil {
		return false
	}
	for _, r := range list.Resources {
		if r.Name == resource {
			return true
		}
	}
	return false
}

// condition reports whether the named status condition is True, and otherwise its reason and message.
func condition(obj *unstructured.Unstructured, conditionType string) (bool, string) {
	conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conditions {
		m, _ := c.(map[string]any)
		if m["type"] != conditionType {
			continue
		}
		if m["status"] == "True" {
			return true, ""
		}
		return false, strings.TrimSpace(fmt.Sprintf("%s=%v %v: %v", conditionType, m["status"], m["reason"], m["message"]))
	}
	return false, ""
}

func servedVersions(obj *unstructured.Unstructured) []string {
	list, _, _ := unstructured.NestedSlice(obj.Object, "spec", "versions")
	var served []string
	for _, v := range list {
		m, _ := v.(map[string]any)
		if name, _ := m["name"].(string); name != "" && m["served"] == true {
			served = append(served, name)
		}
	}
	return served
}
