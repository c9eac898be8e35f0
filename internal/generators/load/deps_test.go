package load

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
	"testing"
)

// TestDepsModes loads the same packages with dependencies from export data and from source and checks
// that every generator sees the same types: the same declarations, methods and classifications.
func TestDepsModes(t *testing.T) {
	fromExport, err := Load(Config{Dir: "testdata", Deps: DepsExport}, "./b", "./a")
	if err != nil {
		t.Fatal(err)
	}
	fromSource, err := Load(Config{Dir: "testdata", Deps: DepsSource}, "./b", "./a")
	if err != nil {
		t.Fatal(err)
	}
	if r := fromExport.Deps; r.Source != 0 || r.Export == 0 || r.HandWritten != 2 {
		t.Errorf("export mode: %+v, want no source dependencies and two hand-written ones (brokendep, c)", r)
	}
	// brokendep does not compile (its generated file's body is stale) and c imports an input package: both
	// are checked from their hand-written files in either mode.
	if r := fromSource.Deps; r.Export != 0 || r.Source == 0 || r.HandWritten != 2 {
		t.Errorf("source mode: %+v, want no export data and two hand-written dependencies", r)
	}
	if !strings.Contains(fromSource.Deps.String(), "dependencies from source") {
		t.Errorf("source report: %s", fromSource.Deps)
	}

	for _, path := range []string{
		"k8s.io/apimachinery/pkg/apis/meta/v1", "k8s.io/apimachinery/pkg/runtime", "k8s.io/apimachinery/pkg/util/intstr",
		"time", "encoding/json", testPkg + "brokendep", testPkg + "c",
	} {
		want, got := describe(t, fromExport, path), describe(t, fromSource, path)
		if want != got {
			t.Errorf("%s differs between export data and source:\nexport:\n%s\nsource:\n%s", path, want, got)
		}
		if fromExport.WithGenerated(path) != fromSource.WithGenerated(path) {
			t.Errorf("%s: WithGenerated %v from export data, %v from source", path, fromExport.WithGenerated(path), fromSource.WithGenerated(path))
		}
	}
	// Input packages see the same dependency types.
	for _, path := range []string{testPkg + "a", testPkg + "b"} {
		if want, got := describe(t, fromExport, path), describe(t, fromSource, path); want != got {
			t.Errorf("input %s differs:\nexport:\n%s\nsource:\n%s", path, want, got)
		}
	}
}

// describe prints every package-level object of path with its type, methods and classification.
func describe(t *testing.T, prog *Program, path string) string {
	t.Helper()
	pkg, err := prog.Import(path)
	if err != nil {
		t.Fatalf("Import(%s): %v", path, err)
	}
	var b strings.Builder
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		fmt.Fprintf(&b, "%s hand-written=%v\n", types.ObjectString(obj, nil), prog.HandWritten(obj))
		if c, ok := obj.(*types.Const); ok {
			fmt.Fprintf(&b, "  = %s\n", c.Val().ExactString())
		}
		named, ok := obj.Type().(*types.Named)
		if !ok {
			continue
		}
		var methods []string
		for m := range named.Methods() {
			methods = append(methods, fmt.Sprintf("  %s hand-written=%v", types.ObjectString(m, nil), prog.HandWritten(m)))
		}
		slices.Sort(methods)
		b.WriteString(strings.Join(methods, "\n"))
		b.WriteString("\n")
	}
	return b.String()
}

// TestDepsAutoCold loads with an empty build cache: nothing is compiled, every dependency comes from source.
func TestDepsAutoCold(t *testing.T) {
	t.Setenv("GOCACHE", t.TempDir())
	prog, err := Load(Config{Dir: "testdata"}, "./b", "./a")
	if err != nil {
		t.Fatal(err)
	}
	if r := prog.Deps; r.Export != 0 || r.Source == 0 {
		t.Errorf("cold build cache: %+v, want every dependency from source", r)
	}
	if !prog.WithGenerated("k8s.io/apimachinery/pkg/apis/meta/v1") || prog.WithGenerated(testPkg+"brokendep") {
		t.Error("WithGenerated: want true for complete source dependencies, false for brokendep")
	}
}
