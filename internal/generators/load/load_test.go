package load

import (
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testPkg = "github.com/kgen-dev/kgen/internal/generators/load/testdata/"

func TestLoad(t *testing.T) {
	prog, err := Load(Config{Dir: "testdata"}, "./b", "./a")
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Packages) != 2 || prog.Packages[0].Path != testPkg+"a" || prog.Packages[1].Path != testPkg+"b" {
		t.Fatalf("packages: %v", prog.Packages)
	}
	a := prog.Package(testPkg + "a")
	if a.Name != "a" || filepath.Base(a.Dir) != "a" {
		t.Errorf("a: name %q dir %q", a.Name, a.Dir)
	}
	// The hand-written file and the one another tool generated are parsed and type-checked; the stale
	// deepcopy file is skipped.
	var names []string
	for _, f := range a.Files {
		names = append(names, filepath.Base(prog.Fset.File(f.Pos()).Name()))
	}
	if strings.Join(names, ",") != "other.go,types.go" || strings.Join(a.Skipped, ",") != "zz_generated.deepcopy.go" {
		t.Errorf("a files: %v, skipped %v", names, a.Skipped)
	}
	if len(a.Files[1].Comments) == 0 {
		t.Error("comments were not parsed")
	}
	if len(a.TypeErrors) != 0 {
		t.Errorf("a: type errors %v", a.TypeErrors)
	}
	widget := a.Types.Scope().Lookup("Widget").Type().(*types.Named)
	if widget.NumMethods() != 2 || widget.Method(0).Name() != "Generated" || widget.Method(1).Name() != "Handy" {
		t.Errorf("Widget methods: %d", widget.NumMethods())
	}

	// The broken dependency was type-checked from its hand-written files.
	thing := widget.Underlying().(*types.Struct).Field(2).Type()
	if thing.String() != testPkg+"brokendep.Thing" {
		t.Errorf("Dep field: %v", thing)
	}

	// Package c, a dependency importing input package a, shares a's types with b.
	b := prog.Package(testPkg + "b")
	holder := b.Types.Scope().Lookup("Outer").Type().Underlying().(*types.Struct).Field(0).Type()
	w := holder.Underlying().(*types.Struct).Field(0).Type()
	if !types.Identical(w, widget) {
		t.Errorf("c.Holder.W is %v, not the input package's Widget", w)
	}

	// Type errors are reported, not fatal.
	if len(b.TypeErrors) != 1 || !strings.Contains(b.TypeErrors[0].Msg, "undefinedName") {
		t.Errorf("b type errors: %v", b.TypeErrors)
	}

	// Methods of dependencies loaded from export data are classified by the file declaring them.
	meta := widget.Underlying().(*types.Struct)
	method := func(typ types.Type, name string) types.Object {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(typ), false, nil, name)
		if obj == nil {
			t.Fatalf("%v has no %s", typ, name)
		}
		return obj
	}
	objectMeta, typeMeta := meta.Field(1).Type(), meta.Field(0).Type()
	if prog.HandWritten(method(objectMeta, "DeepCopyInto")) {
		t.Error("ObjectMeta.DeepCopyInto (zz_generated.deepcopy.go) counted as hand-written")
	}
	if !prog.HandWritten(method(objectMeta, "GetName")) {
		t.Error("ObjectMeta.GetName (meta.go) counted as generated")
	}
	if !prog.HandWritten(method(typeMeta, "GetObjectKind")) {
		t.Error("TypeMeta.GetObjectKind counted as generated")
	}
	runtimePkg, err := prog.Import("k8s.io/apimachinery/pkg/runtime")
	if err != nil {
		t.Fatal(err)
	}
	if obj := runtimePkg.Scope().Lookup("Object"); obj == nil || !types.IsInterface(obj.Type()) {
		t.Errorf("runtime.Object: %v", obj)
	}
	if p, err := prog.Import(testPkg + "a"); err != nil || p != a.Types {
		t.Errorf("Import(a) = %v, %v; want the input package", p, err)
	}
	if _, err := prog.Import("example.com/elsewhere"); err == nil || !strings.Contains(err.Error(), "not a dependency") {
		t.Errorf("Import of a non-dependency: %v", err)
	}
	if !prog.WithGenerated("k8s.io/apimachinery/pkg/apis/meta/v1") || prog.WithGenerated(testPkg+"a") ||
		prog.WithGenerated(testPkg+"brokendep") || prog.WithGenerated(testPkg+"c") || prog.WithGenerated("example.com/elsewhere") {
		t.Error("WithGenerated: want true for export data only")
	}
	if !prog.HandWritten(types.Universe.Lookup("error")) {
		t.Error("a universe object counted as generated")
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		patterns []string
		want     string
	}{
		{nil, "no package patterns"},
		{[]string{"./nosuchdir"}, "nosuchdir"},
		{[]string{"./nosuchdir/..."}, "nosuchdir"},
	} {
		if _, err := Load(Config{Dir: "testdata"}, tc.patterns...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%v): %v, want %q", tc.patterns, err, tc.want)
		}
	}
}

func TestLoadSyntaxError(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/bad\n\ngo 1.26\n")
	write("bad.go", "package bad\n\ntype T struct {\n")
	if _, err := Load(Config{Dir: dir}, "."); err == nil || !strings.Contains(err.Error(), "bad.go:3:17: expected '}'") {
		t.Errorf("Load: %v, want the syntax error's position", err)
	}
}

func TestIsGenerated(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"zz_generated.deepcopy.go", "package a\n", true},
		{"x.go", "//go:build !ignore_autogenerated\n\npackage a\n", true},
		{"x.go", "/*\nCopyright\n*/\n\n// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage a\n", true},
		{"x.go", "// Package a does things.\npackage a\n", false},
		{"x.go", "package a\n\n// Code generated by deepcopy-gen. DO NOT EDIT.\n", false},
		// Every generator kgen emulates, and code-generator's others, mark files kgen may replace.
		{"clientset.go", "// Code generated by client-gen. DO NOT EDIT.\n\npackage a\n", true},
		{"x.go", "// Code generated by applyconfiguration-gen. DO NOT EDIT.\n\npackage a\n", true},
		{"x.go", "// Code generated by conversion-gen. DO NOT EDIT.\n\npackage a\n", true},
		{"x.go", "// Code generated by controller-gen. DO NOT EDIT.\n\npackage a\n", true},
		{"generated.pb.go", "// Code generated by protoc-gen-gogo. DO NOT EDIT.\n\npackage a\n", true},
		// Other tools' output is input: istio's kubetype-gen types, a protoc-gen-go message, a marker without a tool.
		{"types.gen.go", "// Copyright Istio Authors\n\n// Code generated by kubetype-gen. DO NOT EDIT.\n\npackage v1\n", false},
		{"register.gen.go", "// Code generated by kubetype-gen. DO NOT EDIT.\n\npackage v1\n", false},
		{"types.pb.go", "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage a\n", false},
		{"x.pb.go", "// Code generated by protoc-gen-gogo. DO NOT EDIT.\n\npackage a\n", false},
		{"x.go", "// Code generated by some-tool v1.2. DO NOT EDIT.\n\npackage a\n", false},
		{"x.go", "// Code generated DO NOT EDIT.\n\npackage a\n", false},
		{"x.go", "//go:build linux\n\npackage a\n", false},
	} {
		if got := IsGenerated(tc.name, []byte(tc.src)); got != tc.want {
			t.Errorf("IsGenerated(%q, %q) = %v", tc.name, tc.src, got)
		}
	}
}

// TestEditable: input packages and the main module's dependencies are the user's; published modules
// and the standard library are not, and neither is a path the load does not know.
func TestEditable(t *testing.T) {
	prog, err := Load(Config{Dir: "testdata"}, "./b")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		testPkg + "b":                          true,  // input
		testPkg + "c":                          true,  // dependency in the main module
		"k8s.io/apimachinery/pkg/apis/meta/v1": false, // published module
		"fmt":                                  false,
		"example.com/unknown":                  false,
	} {
		if got := prog.Editable(path); got != want {
			t.Errorf("Editable(%s) = %v, want %v", path, got, want)
		}
	}
}

// TestLoadCycleThroughSkippedFile: an import cycle that exists only through a generated file the load
// leaves out does not stop the load, and a cycle among the files it checks is an error naming it.
func TestLoadCycleThroughSkippedFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/cycle\n\ngo 1.26\n")
	write("p/types.go", "package p\n\ntype T struct{ N int }\n")
	write("p/zz_generated.defaults.go", "package p\n\nimport \"example.com/cycle/q\"\n\nvar _ = q.Use\n")
	write("q/q.go", "package q\n\nimport \"example.com/cycle/p\"\n\nvar Use p.T\n")
	prog, err := Load(Config{Dir: dir}, "./p")
	if err != nil {
		t.Fatal(err)
	}
	if p := prog.Package("example.com/cycle/p"); p == nil || p.Types == nil || p.Types.Scope().Lookup("T") == nil {
		t.Fatalf("p was not type-checked: %+v", p)
	}

	write("p/types.go", "package p\n\nimport \"example.com/cycle/q\"\n\ntype T struct{ N int }\n\nvar _ = q.Use\n")
	if _, err := Load(Config{Dir: dir}, "./p"); err == nil || !strings.Contains(err.Error(), "import cycle") {
		t.Errorf("Load with a cycle among hand-written files: %v, want an import cycle error", err)
	}
}

func TestListings(t *testing.T) {
	prog, err := Load(Config{Dir: "testdata"}, "./a")
	if err != nil {
		t.Fatal(err)
	}
	before := goListRuns.Load()
	// An input package and a dependency come from the load's own listing, with every Go file.
	got, err := prog.Listings(testPkg+"a", testPkg+"brokendep")
	if err != nil {
		t.Fatal(err)
	}
	if runs := goListRuns.Load() - before; runs != 0 {
		t.Errorf("listing loaded packages ran go list %d times", runs)
	}
	a := got[0]
	var names []string
	for _, f := range a.GoFiles {
		names = append(names, filepath.Base(f))
		if !filepath.IsAbs(f) || filepath.Dir(f) != a.Dir {
			t.Errorf("a's file %s is not a full path in %s", f, a.Dir)
		}
	}
	if a.Path != testPkg+"a" || a.Name != "a" || strings.Join(names, ",") != "other.go,types.go,zz_generated.deepcopy.go" {
		t.Errorf("a: %+v", a)
	}
	if got[1].Name != "brokendep" {
		t.Errorf("brokendep: %+v", got[1])
	}
	// A package outside the load is listed once, then remembered.
	for range 2 {
		got, err = prog.Listings("net/smtp")
		if err != nil {
			t.Fatal(err)
		}
	}
	if runs := goListRuns.Load() - before; runs != 1 || got[0].Name != "smtp" || len(got[0].GoFiles) == 0 {
		t.Errorf("net/smtp: %+v after %d go list runs; want 1", got[0], runs)
	}
	if _, err := prog.Listings(testPkg + "nosuchpackage"); err == nil {
		t.Error("listing a package that does not exist succeeded")
	}
}
