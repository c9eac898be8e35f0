package propertytest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// checkAgreement checks that the two schema projections of the wire-shape model kgen generate wrote
// for the packages in dir agree: for every kind, walking its CRD schema and its apply configurations'
// schema together, each list has the same list type and keys, each map and struct the same map type.
// It returns how many lists, maps and structs it compared.
func checkAgreement(t *testing.T, dir string) int {
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
	types := map[string]smdAtom{}
	for _, ty := range s.Types {
		types[ty.Name] = ty.smdAtom
	}
	files, err := filepath.Glob(filepath.Join(dir, "crds", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs written (%v)", err)
	}
	compared := 0
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
			w := &agreement{t: t, types: types}
			w.walk(c.Spec.Names.Kind+"."+v.Name, v.Schema.OpenAPIV3Schema, smdRef{NamedType: name}, 0)
			compared += w.compared
		}
	}
	return compared
}

type agreement struct {
	t        *testing.T
	types    map[string]smdAtom
	compared int
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
		crdType, _ := s["x-kubernetes-map-type"].(string)
		want := map[string]string{"": "separable", "granular": "separable", "atomic": "atomic"}[crdType]
		if got := orDefault(atom.Map.ElementRelationship, "separable"); got != want {
			a.t.Errorf("%s: the CRD's map type is %q, the apply schema's element relationship %q", path, crdType, got)
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
