package load

import (
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
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

// TestDepsAutoCold loads with an empty build cache: nothing is compiled, every dependency comes from
// source, and a local dependency that does not type-check falls back to its hand-written files.
func TestDepsAutoCold(t *testing.T) {
	t.Setenv("GOCACHE", t.TempDir())
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":              "module example.com/cold\n\ngo 1.26\n",
		"api/v1/types.go":     "package v1\n\nimport (\n\t\"errors\"\n\n\t\"example.com/cold/dep\"\n)\n\nvar E = errors.New(\"x\")\n\ntype T struct{ D dep.D }\n",
		"dep/d.go":            "package dep\n\n// D is hand-written.\ntype D struct{ N int }\n",
		"dep/zz_generated.go": "package dep\n\nfunc (d *D) Stale() { d.Gone = 1 }\n",
		"ok/ok.go":            "package ok\n",
	})
	prog, err := Load(Config{Dir: dir}, "./api/...")
	if err != nil {
		t.Fatal(err)
	}
	if r := prog.Deps; r.Export != 0 || r.Source == 0 || r.HandWritten != 1 {
		t.Errorf("cold build cache: %+v, want every dependency from source but dep, which does not compile", r)
	}
	if !prog.WithGenerated("errors") || prog.WithGenerated("example.com/cold/dep") {
		t.Error("WithGenerated: want true for complete source dependencies, false for dep")
	}
	if got := prog.LocalDirs(); len(got) != 1 || got[0] != filepath.Join(dir, "dep") {
		t.Errorf("LocalDirs = %v, want the main module's dep only", got)
	}
}

// TestExportMemo loads a module twice: the second load finds every dependency's export data through the
// first one's memo, without asking the go command about the build cache, and sees the same types. A
// remembered file gone from the build cache, or changed go command settings, make a load ask again.
func TestExportMemo(t *testing.T) {
	isolateUserCache(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":          "module example.com/memo\n\ngo 1.26\n",
		"api/v1/types.go": "package v1\n\nimport (\n\t\"errors\"\n\t\"time\"\n)\n\nvar E = errors.New(\"x\")\n\ntype T struct{ At time.Time }\n",
		// conv imports an input package: it is type-checked from source whatever the memo holds.
		"conv/conv.go":    "package conv\n\nimport v1 \"example.com/memo/api/v1\"\n\ntype C struct{ T v1.T }\n",
		"api/v2/types.go": "package v2\n\nimport \"example.com/memo/conv\"\n\ntype U struct{ C conv.C }\n",
	})
	first, err := Load(Config{Dir: dir, Deps: DepsExport}, "./api/...")
	if err != nil {
		t.Fatal(err)
	}
	if first.Deps.Remembered {
		t.Fatal("the first load found a memo in an empty cache directory")
	}
	second, err := Load(Config{Dir: dir}, "./api/...")
	if err != nil {
		t.Fatal(err)
	}
	if r := second.Deps; !r.Remembered || r.Export != first.Deps.Export || r.Source != 0 || r.HandWritten != 1 {
		t.Fatalf("second load: %+v, want every dependency's export data remembered (%d)", r, first.Deps.Export)
	}
	if !strings.Contains(second.Deps.String(), "located by an earlier run") {
		t.Errorf("report: %s", second.Deps)
	}
	for _, path := range []string{"time", "errors", "example.com/memo/api/v1", "example.com/memo/conv", "example.com/memo/api/v2"} {
		if want, got := describe(t, first, path), describe(t, second, path); want != got {
			t.Errorf("%s differs with the memo:\n%s\nwant:\n%s", path, got, want)
		}
	}

	// A remembered file the build cache no longer holds: the load asks the go command and mends the memo.
	records, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "kgen", "export", "[0-9a-f]*"))
	if len(records) != 1 {
		t.Fatalf("memo records: %v, want one", records)
	}
	data, _ := os.ReadFile(records[0])
	var paths map[string]string
	if err := json.Unmarshal(data, &paths); err != nil || paths["time"] == "" {
		t.Fatalf("memo %s: %v", data, err)
	}
	if paths["example.com/memo/api/v1"] != "" {
		t.Error("the memo holds an input package")
	}
	good := paths["time"]
	paths["time"] = filepath.Join(t.TempDir(), "gone")
	data, _ = json.Marshal(paths)
	os.WriteFile(records[0], data, 0o644)
	third, err := Load(Config{Dir: dir}, "./api/...")
	if err != nil {
		t.Fatal(err)
	}
	if third.Deps.Remembered {
		t.Error("a load trusted a memo naming a file that is gone")
	}
	data, _ = os.ReadFile(records[0])
	json.Unmarshal(data, &paths)
	if paths["time"] != good {
		t.Errorf("memo after the mending load names %s for time, want %s", paths["time"], good)
	}

	// Other settings, another memo.
	t.Setenv("GOFLAGS", "-tags=kgenmemotest")
	if other, err := Load(Config{Dir: dir}, "./api/..."); err != nil || other.Deps.Remembered {
		t.Errorf("load with other GOFLAGS: remembered %v, error %v; want a fresh look", other.Deps.Remembered, err)
	}
}

// writeFiles writes files (by path relative to dir) into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// isolateUserCache gives the test a user cache directory of its own, where kgen's memos live, while the
// build cache stays where it is (by default it lives in the user cache directory too).
func isolateUserCache(t *testing.T) {
	t.Helper()
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
}
