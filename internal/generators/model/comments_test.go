package model

import (
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScanCommentsGroupsAsTheParser compares ScanComments with go/parser's comment groups over the
// standard library's go/... packages and this module's generators: the same groups, comments and positions.
func TestScanCommentsGroupsAsTheParser(t *testing.T) {
	var names []string
	for _, root := range []string{filepath.Join(build.Default.GOROOT, "src", "go"), ".."} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.Contains(path, "testdata") {
				names = append(names, path)
			}
			return nil
		})
	}
	placements := filepath.Join(t.TempDir(), "placements.go")
	if err := os.WriteFile(placements, []byte(commentPlacements), 0o644); err != nil {
		t.Fatal(err)
	}
	names = append(names, placements)
	if len(names) < 300 {
		t.Fatalf("only %d files found", len(names))
	}
	for _, name := range names {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		got, err := ScanComments(fset, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(f.Comments) {
			t.Fatalf("%s: %d groups, the parser has %d", name, len(got), len(f.Comments))
		}
		for i, g := range f.Comments {
			if len(got[i].List) != len(g.List) {
				t.Fatalf("%s: group at %v has %d comments, the parser's %d", name, fset.Position(g.Pos()), len(got[i].List), len(g.List))
			}
			for j, c := range g.List {
				if gc := got[i].List[j]; gc.Text != c.Text || fset.Position(gc.Slash) != fset.Position(c.Slash) {
					t.Fatalf("%s: comment %q at %v, the parser's %q at %v", name, gc.Text, fset.Position(gc.Slash), c.Text, fset.Position(c.Slash))
				}
			}
		}
	}
}

func TestScanCommentsReportsScanErrors(t *testing.T) {
	name := filepath.Join(t.TempDir(), "bad.go")
	if err := os.WriteFile(name, []byte("package p\n\n/* unterminated\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ScanComments(token.NewFileSet(), name); err == nil || !strings.Contains(err.Error(), "bad.go:3") {
		t.Errorf("err = %v, want the file and line of the unterminated comment", err)
	}
}

// commentPlacements puts comments everywhere go/parser groups them differently.
const commentPlacements = `// Package p holds every placement of comments go/parser groups.
package p /* after the clause */ // and a line comment

/* a block
spanning lines */
// right below it

// +k8s:deepcopy-gen=true

// T is documented.
type T struct { // trailing the brace
	A int // trailing a field
	// above B
	B int /* inline */ ; C int

	/* detached */

	D int
}

func f() { /* body */ x := 1 // x
	_ = x
	// last
}
// end
`
