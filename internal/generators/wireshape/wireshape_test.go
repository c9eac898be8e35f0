package wireshape_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/wireshape"
)

const typesGo = `package v1

// Detached block.

// Widget is a widget.
// +k8s:openapi-gen=true
type Widget struct {
	Base ` + "`json:\",inline\"`" + `
	// Name is the name.
	// +required
	Name string ` + "`json:\"name,omitempty\"`" + `
	// +optional
	Items []Item ` + "`json:\"items,omitempty\"`" + `
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +listType=atomic
	Both []Item ` + "`json:\"both\"`" + `
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:mapType=granular
	K8s []Item ` + "`json:\"k8s\"`" + `
	Skip   string ` + "`json:\"-\"`" + `
	Dash   string ` + "`json:\"-,\"`" + `
	NoTag  string
	Count  int ` + "`json:\",omitempty\"`" + `
}

type Base struct {
	// Kind is the kind.
	Kind string ` + "`json:\"kind\"`" + `
}

type Item struct {
	Name string ` + "`json:\"name\"`" + `
}
`

func build(t *testing.T) *wireshape.Model {
	t.Helper()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		filepath.Join(dir, "go.mod"):   "module example.com/m\n\ngo 1.24\n",
		filepath.Join(pkg, "doc.go"):   "// Package v1 is a test.\n// +groupName=x.example.com\npackage v1\n",
		filepath.Join(pkg, "types.go"): typesGo,
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog, err := load.Load(load.Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	return wireshape.Build(prog.Fset, prog.Packages)
}

func TestModel(t *testing.T) {
	m := build(t)
	p := m.Package("example.com/m/v1")
	if p == nil {
		t.Fatal("package not modelled")
	}
	if want := []string{"Package v1 is a test.", "+groupName=x.example.com"}; !reflect.DeepEqual(p.DocComments, want) {
		t.Errorf("doc comments = %q, want %q", p.DocComments, want)
	}
	var w *wireshape.Type
	for _, ty := range p.Types {
		if ty.Name == "Widget" {
			w = ty
		}
	}
	if w == nil || !w.Struct {
		t.Fatal("Widget not modelled as a struct")
	}
	if want := []string{"Widget is a widget.", "+k8s:openapi-gen=true"}; !reflect.DeepEqual(w.Comments, want) {
		t.Errorf("comments = %q, want %q", w.Comments, want)
	}
	if want := []string{"Detached block."}; !reflect.DeepEqual(w.Detached, want) {
		t.Errorf("detached = %q, want %q", w.Detached, want)
	}
	fields := map[string]*wireshape.Field{}
	for _, f := range w.Fields {
		fields[f.Name] = f
	}
	for name, want := range map[string]struct {
		wire           string
		inline, opt    bool
		omit           bool
		semantics      wireshape.Semantics
		plainSemantics wireshape.Semantics
	}{
		"Base":  {wire: "", inline: true},
		"Name":  {wire: "name", opt: false, omit: true},
		"Items": {wire: "items", opt: true, omit: true},
		"Both": {wire: "both", semantics: wireshape.Semantics{ListType: "atomic", ListTypeGiven: true, ListMapKeys: []string{"name"}},
			plainSemantics: wireshape.Semantics{ListType: "atomic", ListTypeGiven: true}},
		"K8s":   {wire: "k8s", semantics: wireshape.Semantics{ListType: "map", ListTypeGiven: true, ListMapKeys: []string{"name"}}},
		"Skip":  {wire: ""},
		"Dash":  {wire: "-"},
		"NoTag": {wire: "NoTag"},
		"Count": {wire: "", opt: true, omit: true},
	} {
		f := fields[name]
		if f == nil {
			t.Fatalf("field %s not modelled", name)
		}
		opt, err := f.Optional()
		if err != nil {
			t.Fatal(err)
		}
		if f.WireName() != want.wire || f.Inline() != want.inline || opt != want.opt || f.OmitEmpty() != want.omit {
			t.Errorf("%s: wire %q inline %v optional %v omitempty %v; want %q %v %v %v", name, f.WireName(), f.Inline(), opt, f.OmitEmpty(), want.wire, want.inline, want.opt, want.omit)
		}
		if got := wireshape.SemanticsOf(f.Comments, true); !reflect.DeepEqual(got, want.semantics) {
			t.Errorf("%s: semantics %+v, want %+v", name, got, want.semantics)
		}
		if got := wireshape.SemanticsOf(f.Comments, false); !reflect.DeepEqual(got, want.plainSemantics) {
			t.Errorf("%s: plain semantics %+v, want %+v", name, got, want.plainSemantics)
		}
	}
	if want := []string{"Name is the name.", "+required"}; !reflect.DeepEqual(fields["Name"].Comments, want) {
		t.Errorf("Name comments = %q, want %q", fields["Name"].Comments, want)
	}
}
