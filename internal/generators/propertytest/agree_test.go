package propertytest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// smdSchema is the part of a structured-merge-diff schema (the apply configurations' schema) the
// agreement check reads.
type smdSchema struct {
	Types []struct {
		Name string `json:"name"`
		smdAtom
	} `json:"types"`
}

type smdAtom struct {
	Scalar string   `json:"scalar"`
	List   *smdList `json:"list"`
	Map    *smdMap  `json:"map"`
}

type smdRef struct {
	NamedType string `json:"namedType"`
	smdAtom
}

type smdList struct {
	ElementType         smdRef   `json:"elementType"`
	ElementRelationship string   `json:"elementRelationship"`
	Keys                []string `json:"keys"`
}

type smdMap struct {
	Fields []struct {
		Name string `json:"name"`
		Type smdRef `json:"type"`
	} `json:"fields"`
	ElementType         *smdRef `json:"elementType"`
	ElementRelationship string  `json:"elementRelationship"`
}

// crd is the part of a CustomResourceDefinition the agreement check reads.
type crd struct {
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Schema struct {
				OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

// checkAgreement checks that the schema projections of the wire-shape model kgen generate wrote for the
// packages in dir agree: for every kind, walking its CRD schema and its apply configurations' schema
// together, each list has the same list type and keys, each map and struct the same map type, each
// struct the same fields (JSON names, inline members' fields lifted) in both, and the same required
// fields in the CRD as in its OpenAPI definition (the apply schema has no notion of required). It
// returns how many lists, maps and structs it compared, and for how many structs it compared the
// required fields.
func checkAgreement(t *testing.T, dir string) (semantics, required int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "generated", "applyconfiguration", "internal", "internal.go"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), "typed.YAMLObject(`")
	text, _, _ := strings.Cut(rest, "`)")
	var s smdSchema
	if err := yaml.Unmarshal([]byte(text), &s); err != nil {
		t.Fatalf("apply configurations' schema: %v", err)
	}
	requiredOf := openAPIRequired(t, filepath.Join(dir, "generated", "openapi", "zz_generated.openapi.go"))
	types := map[string]smdAtom{}
	for _, ty := range s.Types {
		types[ty.Name] = ty.smdAtom
	}
	files, err := filepath.Glob(filepath.Join(dir, "crds", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs written (%v)", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c crd
		if err := yaml.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		group, _, _ := strings.Cut(c.Spec.Group, ".")
		for _, v := range c.Spec.Versions {
			suffix := "." + group + "." + v.Name + "." + c.Spec.Names.Kind
			var name string
			for n := range types {
				if strings.HasSuffix(n, suffix) {
					name = n
				}
			}
			if name == "" {
				continue // a kind without an apply configuration (no +genclient)
			}
			w := &agreement{t: t, types: types, required: requiredOf}
			w.walk(c.Spec.Names.Kind+"."+v.Name, v.Schema.OpenAPIV3Schema, smdRef{NamedType: name}, 0)
			semantics += w.compared
			required += w.requiredCompared
		}
	}
	return semantics, required
}

type agreement struct {
	t     *testing.T
	types map[string]smdAtom
	// required are the required properties of each OpenAPI definition, by schema function name.
	required                   map[string][]string
	compared, requiredCompared int
}

// walk compares the CRD schema s with the apply schema type ref at path.
func (a *agreement) walk(path string, s map[string]any, ref smdRef, depth int) {
	if depth > 12 || s["x-kubernetes-preserve-unknown-fields"] == true || s["x-kubernetes-int-or-string"] == true || s["x-kubernetes-embedded-resource"] == true {
		return
	}
	atom := ref.smdAtom
	if ref.NamedType != "" {
		if strings.HasPrefix(ref.NamedType, "__untyped") {
			return
		}
		atom = a.types[ref.NamedType]
	}
	switch s["type"] {
	case "array":
		if atom.List == nil {
			a.t.Errorf("%s: the CRD has a list, the apply schema %+v", path, atom)
			return
		}
		a.compared++
		crdType, _ := s["x-kubernetes-list-type"].(string)
		want := map[string]string{"": "atomic", "atomic": "atomic", "set": "associative", "map": "associative"}[crdType]
		var crdKeys []string
		for _, k := range asSlice(s["x-kubernetes-list-map-keys"]) {
			crdKeys = append(crdKeys, fmt.Sprint(k))
		}
		if got := orDefault(atom.List.ElementRelationship, "atomic"); got != want || !slices.Equal(crdKeys, atom.List.Keys) {
			a.t.Errorf("%s: the CRD's list type is %q with keys %q, the apply schema's element relationship %q with keys %q",
				path, crdType, crdKeys, got, atom.List.Keys)
		}
		if items, ok := s["items"].(map[string]any); ok {
			a.walk(path+"[]", items, atom.List.ElementType, depth+1)
		}
	case "object":
		if atom.Map == nil {
			a.t.Errorf("%s: the CRD has an object, the apply schema %+v", path, atom)
			return
		}
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 && s["additionalProperties"] == nil {
			return // metadata and other opaque objects
		}
		a.compared++
		if len(props) > 0 {
			crdFields := slices.Sorted(maps.Keys(props))
			var applyFields []string
			for _, f := range atom.Map.Fields {
				applyFields = append(applyFields, f.Name)
			}
			slices.Sort(applyFields)
			if !slices.Equal(crdFields, applyFields) {
				a.t.Errorf("%s: the CRD's fields are %q, the apply schema's %q", path, crdFields, applyFields)
			}
		}
		crdType, _ := s["x-kubernetes-map-type"].(string)
		want := map[string]string{"": "separable", "granular": "separable", "atomic": "atomic"}[crdType]
		if got := orDefault(atom.Map.ElementRelationship, "separable"); got != want {
			a.t.Errorf("%s: the CRD's map type is %q, the apply schema's element relationship %q", path, crdType, got)
		}
		if strings.Contains(ref.NamedType, ".propertytest.testdata.") && len(props) > 0 {
			// A type of the random packages (k8s.io/api's types have no definitions here).
			fn := schemaFunc(ref.NamedType)
			want, ok := a.required[fn]
			var got []string
			for _, r := range asSlice(s["required"]) {
				got = append(got, fmt.Sprint(r))
			}
			slices.Sort(got)
			a.requiredCompared++
			if !ok {
				a.t.Errorf("%s: no OpenAPI definition %s", path, fn)
			} else if !slices.Equal(got, want) {
				a.t.Errorf("%s: the CRD requires %q, the OpenAPI definition %q", path, got, want)
			}
		}
		if add, ok := s["additionalProperties"].(map[string]any); ok && atom.Map.ElementType != nil {
			a.walk(path+"{}", add, *atom.Map.ElementType, depth+1)
		}
		for _, f := range atom.Map.Fields {
			if p, ok := props[f.Name].(map[string]any); ok {
				a.walk(path+"."+f.Name, p, f.Type, depth+1)
			}
		}
	}
}

// schemaFunc is the name of the OpenAPI schema function of the type with the apply schema's name model:
// schema_ and the last four elements of its package path (dots dropped, dashes made underscores) and
// the type name.
func schemaFunc(model string) string {
	parts := strings.Split(model, ".")
	if len(parts) > 5 {
		parts = parts[len(parts)-5:]
	}
	return "schema_" + strings.ReplaceAll(strings.Join(parts, "_"), "-", "_")
}

// openAPIRequired reads the Required list of every schema function of a definitions file, sorted.
func openAPIRequired(t *testing.T, file string) map[string][]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatalf("OpenAPI definitions: %v", err)
	}
	out := map[string][]string{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fn.Name.Name, "schema_") {
			continue
		}
		req := []string{}
		ast.Inspect(fn, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Required" {
				for _, e := range kv.Value.(*ast.CompositeLit).Elts {
					v, _ := strconv.Unquote(e.(*ast.BasicLit).Value)
					req = append(req, v)
				}
			}
			return true
		})
		slices.Sort(req)
		out[fn.Name.Name] = req
	}
	return out
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
