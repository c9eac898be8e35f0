package load

import (
	"go/types"
	"path/filepath"
	"slices"
	"testing"
)

func TestSyntaxDeps(t *testing.T) {
	const (
		meta    = "k8s.io/apimachinery/pkg/apis/meta/v1"
		version = "k8s.io/apimachinery/pkg/version"
	)
	prog, err := Load(Config{Dir: "testdata", SyntaxDeps: []string{version, meta, testPkg + "b"}}, "./a")
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Packages) != 1 || prog.Packages[0].Path != testPkg+"a" {
		t.Fatalf("input packages: %v, want a alone", prog.Packages)
	}
	var paths []string
	byPath := map[string]*Package{}
	for _, p := range prog.SyntaxDeps {
		paths = append(paths, p.Path)
		byPath[p.Path] = p
	}
	if want := []string{testPkg + "b", meta, version}; !slices.Equal(paths, want) {
		t.Fatalf("syntax dependencies %v, want %v", paths, want)
	}

	// meta/v1, which input a imports, has the very types a sees, with their generated methods, and its
	// hand-written files with comments.
	m := byPath[meta]
	widget := prog.Package(testPkg + "a").Types.Scope().Lookup("Widget").Type().Underlying().(*types.Struct)
	objectMeta := widget.Field(1).Type().(*types.Named)
	if objectMeta.Obj().Pkg() != m.Types || m.Types.Scope().Lookup("ObjectMeta") != objectMeta.Obj() {
		t.Error("meta/v1's types are not those input a refers to")
	}
	if !prog.WithGenerated(meta) {
		t.Error("meta/v1 was loaded without its generated declarations")
	}
	if !slices.Contains(m.Skipped, "zz_generated.deepcopy.go") {
		t.Errorf("meta/v1 skipped %v, want zz_generated.deepcopy.go among them", m.Skipped)
	}
	doc := false
	for _, f := range m.Files {
		if filepath.Base(prog.Fset.File(f.Pos()).Name()) == "doc.go" {
			doc = len(f.Comments) > 0
		}
		if f.Name.Name != "v1" {
			t.Errorf("meta/v1 file of package %s", f.Name.Name)
		}
	}
	if !doc {
		t.Error("meta/v1's doc.go was not parsed with its comments")
	}

	// version, which no input imports, is loaded all the same.
	if v := byPath[version]; v.Types == nil || v.Types.Scope().Lookup("Info") == nil || len(v.Files) == 0 {
		t.Errorf("version: types %v, %d files", v.Types, len(v.Files))
	}
	// b imports c, which imports input a: it is type-checked from its hand-written files.
	if b := byPath[testPkg+"b"]; b.Types == nil || b.Types.Scope().Lookup("Outer") == nil {
		t.Errorf("b: types %v", b.Types)
	}
}

func TestSyntaxDepMatchedByAPatternStaysAnInput(t *testing.T) {
	prog, err := Load(Config{Dir: "testdata", SyntaxDeps: []string{testPkg + "b"}}, "./a", "./b")
	if err != nil {
		t.Fatal(err)
	}
	if prog.Package(testPkg+"b") == nil || len(prog.SyntaxDeps) != 0 {
		t.Errorf("b: input %v, syntax dependencies %v", prog.Package(testPkg+"b") != nil, prog.SyntaxDeps)
	}
}

func TestPatternMatches(t *testing.T) {
	l := &listed{ImportPath: "example.com/m/api/v1", Dir: "/src/m/api/v1"}
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{"example.com/m/api/v1", true},
		{"example.com/m/...", true},
		{"example.com/m/api/v1/...", true},
		{"example.com/m/api/v", false},
		{"example.com/.../v1", true},
		{"./api/...", true},
		{"./api", false},
		{".", false},
		{"/src/m/...", true},
		{"../m/api/v1", true},
		{"all", true},
	} {
		if got := patternMatches(c.pattern, "/src/m", l); got != c.want {
			t.Errorf("patternMatches(%q) = %v, want %v", c.pattern, got, c.want)
		}
	}
}
