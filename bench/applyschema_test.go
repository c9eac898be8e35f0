package bench

import (
	"os"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// TestBuiltinSchemaMatchesClientGo compares the structured-merge-diff schema kgen's applyconfiguration-gen
// derives from the k8s.io/api Go types (builtin/applyconfigurations/internal) with the one client-go
// v0.37.2 ships (converted from the API server's OpenAPI), type by type. Field defaults and unions are
// not compared: merges do not read them except for list map keys, which are compared.
func TestBuiltinSchemaMatchesClientGo(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/client-go").Output()
	if err != nil {
		t.Fatal(err)
	}
	theirs := readSchema(t, strings.TrimSpace(string(out))+"/applyconfigurations/internal/internal.go")
	ours := readSchema(t, "../builtin/applyconfigurations/internal/internal.go")
	var names []string
	for name := range theirs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		def, ok := ours[name]
		if !ok {
			t.Errorf("%s: missing", name)
			continue
		}
		if !reflect.DeepEqual(normalize(def), normalize(theirs[name])) {
			a, _ := yaml.Marshal(normalize(def))
			b, _ := yaml.Marshal(normalize(theirs[name]))
			t.Errorf("%s differs:\nkgen:\n%s\nclient-go:\n%s", name, a, b)
		}
	}
	for name := range ours {
		if _, ok := theirs[name]; !ok {
			t.Errorf("%s: not in client-go's schema", name)
		}
	}
}

// readSchema parses the schemaYAML literal of a generated internal.go.
func readSchema(t *testing.T, file string) map[string]schema.TypeDef {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, text, ok := strings.Cut(string(src), "typed.YAMLObject(`")
	if !ok {
		t.Fatalf("%s: no schema literal", file)
	}
	text, _, _ = strings.Cut(text, "`)")
	var s schema.Schema
	if err := yaml.Unmarshal([]byte(text), &s); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	out := map[string]schema.TypeDef{}
	for _, def := range s.Types {
		out[def.Name] = def
	}
	return out
}

// normalize drops what the comparison ignores (defaults other than of list keys, unions) and sorts fields.
func normalize(def schema.TypeDef) schema.TypeDef {
	def.Atom = normalizeAtom(def.Atom)
	return def
}

func normalizeAtom(a schema.Atom) schema.Atom {
	if a.Map != nil {
		m := schema.Map{ElementType: a.Map.ElementType, ElementRelationship: a.Map.ElementRelationship}
		m.Fields = append([]schema.StructField(nil), a.Map.Fields...)
		for i := range m.Fields {
			m.Fields[i].Default = nil
			m.Fields[i].Type = normalizeRef(m.Fields[i].Type)
		}
		sort.Slice(m.Fields, func(i, j int) bool { return m.Fields[i].Name < m.Fields[j].Name })
		m.ElementType = normalizeRef(m.ElementType)
		if len(m.Fields) == 0 {
			m.Fields = nil
		}
		a.Map = &m
	}
	if a.List != nil {
		l := *a.List
		l.ElementType = normalizeRef(l.ElementType)
		a.List = &l
	}
	return a
}

func normalizeRef(r schema.TypeRef) schema.TypeRef {
	r.Inlined = normalizeAtom(r.Inlined)
	return r
}
