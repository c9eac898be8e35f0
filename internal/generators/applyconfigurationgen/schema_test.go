package applyconfigurationgen_test

import (
	"reflect"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/kgen-dev/kgen/internal/generators/applyconfigurationgen"
)

const shapes = "com.github.kgen-dev.kgen.testdata.applyapis.shapes.v1."

// TestDerivedSchema checks the schema derived from testdata/applyapis/shapes/v1 (committed in
// testdata/applyconfiguration/internal): json names, merge semantics from tags and struct tags,
// well-known types, defaults, and which types are described.
func TestDerivedSchema(t *testing.T) {
	s := &applyconfigurationgen.ParseSchemaOf(t, "../../../testdata/applyconfiguration/internal/internal.go").Schema
	spec := typeDef(t, s, shapes+"WidgetSpec")
	field := func(name string) schema.TypeRef {
		t.Helper()
		for _, f := range spec.Map.Fields {
			if f.Name == name {
				return f.Type
			}
		}
		t.Fatalf("WidgetSpec has no field %q", name)
		return schema.TypeRef{}
	}
	list := func(name string) *schema.List {
		t.Helper()
		l := field(name).Inlined.List
		if l == nil {
			t.Fatalf("field %s is not a list", name)
		}
		return l
	}
	named := func(name string) string {
		t.Helper()
		if n := field(name).NamedType; n != nil {
			return *n
		}
		return ""
	}
	for _, tc := range []struct {
		field string
		rel   schema.ElementRelationship
		keys  []string
	}{
		{"names", schema.Atomic, nil},
		{"tags", schema.Associative, nil}, // +listType=set on the named slice type
		{"keyed", schema.Associative, []string{"name", "kind"}},
		{"atomic", schema.Atomic, nil},
		{"merged", schema.Associative, []string{"name"}}, // patchStrategy:"merge" patchMergeKey:"name"
	} {
		if l := list(tc.field); l.ElementRelationship != tc.rel || !reflect.DeepEqual(l.Keys, tc.keys) {
			t.Errorf("%s: %s keyed by %v; want %s keyed by %v", tc.field, l.ElementRelationship, l.Keys, tc.rel, tc.keys)
		}
	}
	if m := field("atomicMap").Inlined.Map; m == nil || m.ElementRelationship != schema.Atomic {
		t.Errorf("atomicMap is %+v; want an atomic map", field("atomicMap"))
	}
	if r := field("granular").ElementRelationship; r == nil || *r != schema.Separable {
		t.Errorf("granular's member +structType=granular is not applied: %v", r)
	}
	if d := typeDef(t, s, shapes+"AtomicPart"); d.Map.ElementRelationship != schema.Atomic {
		t.Errorf("AtomicPart (+structType=atomic) is %s", d.Map.ElementRelationship)
	}
	if sc := field("raw").Inlined.Scalar; sc == nil || *sc != schema.String {
		t.Errorf("[]byte is %+v; want a string scalar", field("raw"))
	}
	for f, want := range map[string]string{
		"started":   "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
		"size":      "io.k8s.apimachinery.pkg.api.resource.Quantity",
		"port":      "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
		"extension": "__untyped_atomic_",
		"template":  "io.k8s.api.core.v1.PodTemplateSpec",
		"timeout":   "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
	} {
		if got := named(f); got != want {
			t.Errorf("%s refers to %q; want %q", f, got, want)
		}
	}
	for name, want := range map[string]schema.Scalar{
		"io.k8s.apimachinery.pkg.apis.meta.v1.Time":       "untyped",
		"io.k8s.apimachinery.pkg.api.resource.Quantity":   "untyped",
		"io.k8s.apimachinery.pkg.util.intstr.IntOrString": "untyped",
		"io.k8s.apimachinery.pkg.apis.meta.v1.Duration":   schema.String,
	} {
		if d := typeDef(t, s, name); d.Scalar == nil || *d.Scalar != want {
			t.Errorf("%s is %+v; want scalar %s", name, d.Atom, want)
		}
	}
	// The inline embed is flattened; fields without json or with json:"-" are left out.
	for _, f := range spec.Map.Fields {
		switch f.Name {
		case "owner", "count":
		case "Ignored", "NoTag", "-", "unexported", "Common":
			t.Errorf("WidgetSpec has field %q", f.Name)
		}
	}
	field("owner")
	part := typeDef(t, s, shapes+"Part")
	defaults := map[string]any{}
	for _, f := range part.Map.Fields {
		defaults[f.Name] = f.Default
	}
	if defaults["kind"] != "Widget" || defaults["phase"] != "Pending" {
		t.Errorf("Part defaults %v; want kind Widget (+default) and phase Pending (+default=ref(DefaultPhase))", defaults)
	}
	// Read-only and unreachable types are not described; the untyped definitions are.
	for _, name := range []string{shapes + "Reading", shapes + "Unreached", "__untyped_atomic_", "__untyped_deduced_"} {
		_, found := s.FindNamedType(name)
		if want := name[0] == '_'; found != want {
			t.Errorf("%s described: %v, want %v", name, found, want)
		}
	}
}

func typeDef(t *testing.T, s *schema.Schema, name string) schema.TypeDef {
	t.Helper()
	for _, d := range s.Types {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("schema has no type %s", name)
	return schema.TypeDef{}
}
