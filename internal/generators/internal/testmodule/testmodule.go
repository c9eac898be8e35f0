// Package testmodule is for tests only: it fetches real API modules through the Go module proxy and lays
// their packages out inside kgen's own module, where generated code builds against kgen's dependencies.
package testmodule

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// Download returns the module cache directory of module@version, fetching it through the Go module proxy
// when the cache lacks it.
func Download(t testing.TB, moduleAtVersion string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", moduleAtVersion)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v\n%s", moduleAtVersion, err, out)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %v %s", moduleAtVersion, err, info.Error)
	}
	return info.Dir
}

// WorkDir makes a new directory gen-* under the testdata directory of the test's package, whose import
// path is pkg, and returns it with its import path; it is removed when the test ends. Code there belongs to
// kgen's module, so it builds against kgen's dependencies; go ignores testdata when matching ./...
func WorkDir(t testing.TB, pkg string) (dir, importPath string) {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "gen-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs, path.Join(pkg, "testdata", filepath.Base(dir))
}

// CopyGoFiles copies the non-test Go files under from to to, rewriting imports (quoted import paths)
// that start with oldPrefix to start with newPrefix.
func CopyGoFiles(t testing.TB, from, to, oldPrefix, newPrefix string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".go" || strings.HasSuffix(p, "_test.go") {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, []byte(strings.ReplaceAll(string(content), `"`+oldPrefix, `"`+newPrefix)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
