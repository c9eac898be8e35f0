package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/kgen-dev/kgen/runtime/dynamic"
)

// crdFile is one generated CRD, parsed.
type crdFile struct {
	path string
	doc  map[string]any
}

func loadCRDs(t *testing.T) []crdFile {
	t.Helper()
	var out []crdFile
	for _, dir := range crdDirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no CRDs in %s: %v", dir, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := yaml.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			out = append(out, crdFile{f, doc})
		}
	}
	return out
}

func get(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

// patternSamples are tried in order for strings with a pattern.
var patternSamples = []string{"a", "ab", "abc", "a1", "1", "TCP", "a.b", "example.com/a", "a-b", "/a", "1Gi"}

// fill builds a value that sets every property of a schema, valid for its type, enum, bounds and
// patterns (CEL rules are the caller's business).
func fill(s map[string]any) any {
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if s["x-kubernetes-int-or-string"] == true {
		return int64(1)
	}
	switch s["type"] {
	case "string":
		switch s["format"] {
		case "date-time":
			return "2024-01-02T03:04:05Z"
		case "byte":
			return "aGk="
		}
		str := "a"
		if p, ok := s["pattern"].(string); ok {
			re := regexp.MustCompile(p)
			for _, c := range patternSamples {
				if re.MatchString(c) {
					str = c
					break
				}
			}
		}
		if n, ok := s["minLength"].(float64); ok && len(str) < int(n) {
			str += strings.Repeat("a", int(n)-len(str))
		}
		return str
	case "integer", "number":
		v := 1.0
		if lo, ok := s["minimum"].(float64); ok && v < lo {
			v = lo
		}
		if hi, ok := s["maximum"].(float64); ok && v > hi {
			v = hi
		}
		return int64(v)
	case "boolean":
		return true
	case "array":
		items, _ := s["items"].(map[string]any)
		return []any{fill(items)}
	case "object":
		obj := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			obj[name] = fill(p.(map[string]any))
		}
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			obj["key"] = fill(ap)
		}
		if s["x-kubernetes-preserve-unknown-fields"] == true {
			obj["unknown"] = "kept"
		}
		return obj
	}
	if s["x-kubernetes-preserve-unknown-fields"] == true {
		return map[string]any{"anything": []any{"goes"}}
	}
	return nil
}

// leaves lists the paths of every scalar in v.
func leaves(v any, path string, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			leaves(e, path+"."+k, out)
		}
	case []any:
		for i, e := range v {
			leaves(e, fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		*out = append(*out, path)
	}
}

// kindFixups make a filled object satisfy the CEL rules of the test API's kinds, by group kind.
var kindFixups = map[string]func(obj map[string]any){
	"Widget.shop.example.com": func(obj map[string]any) {
		spec := obj["spec"].(map[string]any)
		delete(spec, "command") // exactly one of image and command
		spec["rule"] = "ab"     // starts with a, longer than 1
	},
}

type version struct {
	crd                   crdFile
	gvr                   schema.GroupVersionResource
	kind                  string
	namespaced, hasStatus bool
	// storage is true for the stored version; the others are converted to it without a webhook, so
	// only the fields they share with it survive.
	storage bool
	schema  map[string]any
}

func versions(t *testing.T) []version {
	var out []version
	for _, c := range loadCRDs(t) {
		spec := c.doc["spec"].(map[string]any)
		for _, v := range spec["versions"].([]any) {
			v := v.(map[string]any)
			if v["served"] != true {
				continue
			}
			out = append(out, version{
				crd:        c,
				gvr:        schema.GroupVersionResource{Group: spec["group"].(string), Version: v["name"].(string), Resource: get(spec, "names", "plural").(string)},
				kind:       get(spec, "names", "kind").(string),
				namespaced: spec["scope"] == "Namespaced",
				hasStatus:  get(v, "subresources", "status") != nil,
				storage:    v["storage"] == true,
				schema:     get(v, "schema", "openAPIV3Schema").(map[string]any),
			})
		}
	}
	return out
}

func (v version) client(t *testing.T) dynamic.ResourceInterface {
	dc, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	if v.namespaced {
		return dc.Resource(v.gvr).Namespace("default")
	}
	return dc.Resource(v.gvr)
}

// fullObject is an object of the version's kind with every field of its schema set.
func (v version) fullObject(name string) *unstructured.Unstructured {
	obj := fill(v.schema).(map[string]any)
	obj["apiVersion"] = v.gvr.GroupVersion().String()
	obj["kind"] = v.kind
	obj["metadata"] = map[string]any{"name": name}
	if fix := kindFixups[v.kind+"."+v.gvr.Group]; fix != nil {
		fix(obj)
	}
	return &unstructured.Unstructured{Object: obj}
}

// TestRoundTrip creates, for the storage version of every generated CRD, an object with every field
// set and reads it back: nothing may be pruned or rejected. (Other versions are converted to the stored
// one without a webhook, which keeps only the fields both share.)
func TestRoundTrip(t *testing.T) {
	var all []version
	for _, v := range versions(t) {
		if v.storage {
			all = append(all, v)
		}
	}
	if len(all) < 13 {
		t.Fatalf("only %d CRDs installed", len(all))
	}
	for _, v := range all {
		t.Run(v.gvr.Resource+"."+v.gvr.Group+"/"+v.gvr.Version, func(t *testing.T) {
			ctx := t.Context()
			c := v.client(t)
			sent := v.fullObject("roundtrip-" + v.gvr.Version)
			created, err := c.Create(ctx, sent.DeepCopy(), metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			if v.hasStatus {
				sent.Object["metadata"] = created.Object["metadata"]
				if _, err := c.UpdateStatus(ctx, sent.DeepCopy(), metav1.UpdateOptions{}); err != nil {
					t.Fatalf("update status: %v", err)
				}
			}
			got, err := c.Get(ctx, sent.GetName(), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for k, e := range sent.Object {
				if k != "metadata" {
					leaves(e, k, &paths)
				}
			}
			sort.Strings(paths)
			gotJSON, _ := json.Marshal(got.Object)
			var gotPaths []string
			for k, e := range got.Object {
				leaves(e, k, &gotPaths)
			}
			have := map[string]bool{}
			for _, p := range gotPaths {
				have[p] = true
			}
			for _, p := range paths {
				if !have[p] {
					t.Errorf("%s was pruned or dropped; got %s", p, gotJSON)
				}
			}
			if len(paths) < 3 {
				t.Errorf("only %d fields set", len(paths))
			}
		})
	}
}

// TestValidationRejects sends objects breaking each validation of the test API's Widget and expects
// the API server to name the field.
func TestValidationRejects(t *testing.T) {
	var widget version
	for _, v := range versions(t) {
		if v.kind == "Widget" {
			widget = v
		}
	}
	if widget.kind == "" {
		t.Fatal("no Widget CRD installed")
	}
	c := widget.client(t)
	set := func(path string, value any) func(obj map[string]any) {
		return func(obj map[string]any) {
			parts := strings.Split(path, ".")
			m := obj
			for _, p := range parts[:len(parts)-1] {
				m = m[p].(map[string]any)
			}
			if value == nil {
				delete(m, parts[len(parts)-1])
			} else {
				m[parts[len(parts)-1]] = value
			}
		}
	}
	for _, c2 := range []struct {
		name, field string
		mutate      func(obj map[string]any)
	}{
		{"Minimum", "spec.replicas", set("spec.replicas", -1)},
		{"Enum", "spec.color", set("spec.color", "pink")},
		{"MinLength", "spec.image", set("spec.image", "")},
		{"MaxLength", "spec.image", set("spec.image", strings.Repeat("a", 254))},
		{"Pattern", "spec.image", set("spec.image", "UPPER")},
		{"items:MaxLength", "spec.command[0]", func(obj map[string]any) {
			spec := obj["spec"].(map[string]any)
			delete(spec, "image")
			spec["command"] = []any{strings.Repeat("a", 65)}
		}},
		{"MaxItems", "spec.command", func(obj map[string]any) {
			spec := obj["spec"].(map[string]any)
			delete(spec, "image")
			spec["command"] = []any{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
		}},
		{"ExactlyOneOf", "spec", set("spec.command", []any{"a"})},
		{"listType=map duplicate key", "spec.ports[1]", set("spec.ports", []any{
			map[string]any{"name": "a", "number": 1}, map[string]any{"name": "a", "number": 2}})},
		{"listType=set duplicate", "spec.tags[1]", set("spec.tags", []any{"a", "a"})},
		{"item Maximum", "spec.ports[0].number", set("spec.ports", []any{map[string]any{"name": "a", "number": 70000}})},
		{"required list map key", "spec.ports[0].name", set("spec.ports", []any{map[string]any{"number": 1}})},
		{"k8s:minimum", "spec.priority", set("spec.priority", 0)},
		{"k8s:maximum", "spec.priority", set("spec.priority", 11)},
		{"k8s:maxLength", "spec.id", set("spec.id", strings.Repeat("a", 37))},
		{"k8s:required", "spec.name", set("spec.name", nil)},
		{"k8s:required minLength", "spec.name", set("spec.name", "")},
		{"XValidation message", "spec.rule", set("spec.rule", "ba")},
		{"XValidation messageExpression", "spec.rule: Forbidden: bad: a", set("spec.rule", "a")},
		{"XValidation fieldPath", "spec.tags: Invalid value: too many tags", set("spec.tags", []any{"a", "b", "c", "d", "e"})},
		{"Quantity pattern", "spec.size", set("spec.size", "12 apples")},
		{"date-time format", "status.lastUpdate", set("status.lastUpdate", "yesterday")},
		{"required spec", "spec", set("spec", nil)},
		{"root XValidation", "<nil>", func(obj map[string]any) {
			obj["metadata"].(map[string]any)["name"] = strings.Repeat("a", 41)
		}},
	} {
		t.Run(c2.name, func(t *testing.T) {
			obj := widget.fullObject("bad-" + strings.ToLower(strings.NewReplacer(" ", "-", ":", "-", "=", "-").Replace(c2.name)))
			c2.mutate(obj.Object)
			created, err := c.Create(t.Context(), obj, metav1.CreateOptions{})
			if err == nil && strings.HasPrefix(c2.field, "status.") {
				obj.Object["metadata"] = created.Object["metadata"]
				_, err = c.UpdateStatus(t.Context(), obj, metav1.UpdateOptions{})
			}
			if !apierrors.IsInvalid(err) {
				t.Fatalf("err = %v, want Invalid", err)
			}
			if !strings.Contains(err.Error(), c2.field) {
				t.Fatalf("err = %v, want it to name %s", err, c2.field)
			}
		})
	}

	t.Run("k8s:immutable", func(t *testing.T) {
		obj := widget.fullObject("immutable")
		created, err := c.Create(t.Context(), obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Object["spec"].(map[string]any)["id"] = "changed"
		_, err = c.Update(t.Context(), created, metav1.UpdateOptions{})
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.id") || !strings.Contains(err.Error(), "field is immutable") {
			t.Fatalf("err = %v, want spec.id immutable", err)
		}
	})
}

// TestDefaults checks that the server applies the generated defaults.
func TestDefaults(t *testing.T) {
	var widget version
	for _, v := range versions(t) {
		if v.kind == "Widget" {
			widget = v
		}
	}
	obj := widget.fullObject("defaults")
	spec := obj.Object["spec"].(map[string]any)
	delete(spec, "replicas")
	spec["ports"] = []any{map[string]any{"name": "http", "number": 80}}
	got, err := widget.client(t).Create(t.Context(), obj, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gs := got.Object["spec"].(map[string]any)
	if gs["replicas"] != int64(1) {
		t.Errorf("replicas = %v, want the default 1", gs["replicas"])
	}
	if p := gs["ports"].([]any)[0].(map[string]any); p["protocol"] != "TCP" {
		t.Errorf("ports[0].protocol = %v, want the default TCP", p["protocol"])
	}
}

// TestServerCountsRuleRunsAsCrdGenDoes installs, by hand, the CRD of crd-gen's bad input celcostinlist (a
// rule on the elements of a list, cheap once) without and with maxItems on the list: the server refuses
// the unbounded one for the rule's cost, as crd-gen does, and takes the bounded one.
func TestServerCountsRuleRunsAsCrdGenDoes(t *testing.T) {
	dc, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	crds := dc.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	for _, maxItems := range []int64{0, 10} {
		entries := map[string]any{"type": "array", "items": map[string]any{
			"type":                     "object",
			"required":                 []any{"name"},
			"properties":               map[string]any{"name": map[string]any{"type": "string", "maxLength": int64(1000)}},
			"x-kubernetes-validations": []any{map[string]any{"rule": "self.name.matches('^[a-z]+$')"}},
		}}
		if maxItems > 0 {
			entries["maxItems"] = maxItems
		}
		plural := fmt.Sprintf("things%d", maxItems)
		crd := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": plural + ".celcostinlist.example.com"},
			"spec": map[string]any{
				"group": "celcostinlist.example.com", "scope": "Namespaced",
				"names": map[string]any{"plural": plural, "singular": plural, "kind": fmt.Sprintf("Thing%d", maxItems), "listKind": fmt.Sprintf("Thing%dList", maxItems)},
				"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object", "properties": map[string]any{"spec": map[string]any{"type": "object", "properties": map[string]any{"entries": entries}}},
				}}}},
			},
		}}
		_, err := crds.Create(t.Context(), crd, metav1.CreateOptions{})
		switch {
		case maxItems == 0 && (err == nil || !strings.Contains(err.Error(), "estimated rule cost exceeds budget")):
			t.Errorf("the server took a rule that runs once per element of an unbounded list (error %v); crd-gen refuses it", err)
		case maxItems > 0 && err != nil:
			t.Errorf("with maxItems %d: %v", maxItems, err)
		}
	}
}
