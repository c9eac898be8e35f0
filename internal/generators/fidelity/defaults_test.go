package fidelity_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/kgencmd"
)

// defaultsModule is a module from the Go module proxy that ships defaulter-gen v0.37.2's output.
type defaultsModule struct {
	// Path and Version name the module; Dirs are its directories holding API packages (patterns Dir/...).
	Path, Version string
	Dirs          []string
	// ViaKgen: also run kgen generate on the one directory of Dirs and compare its files too.
	ViaKgen bool
}

var defaultsModules = []defaultsModule{
	{Path: "k8s.io/sample-apiserver", Version: "v0.37.2", Dirs: []string{"pkg/apis"}, ViaKgen: true},
	{Path: "k8s.io/kube-aggregator", Version: "v0.37.2", Dirs: []string{"pkg/apis"}, ViaKgen: true},
	{Path: "k8s.io/apiextensions-apiserver", Version: "v0.37.2", Dirs: []string{"pkg/apis"}, ViaKgen: true},
	// defaulter-gen's own test packages: +default in every form, pointers, slices, opt-in and opt-out.
	{Path: "k8s.io/code-generator", Version: "v0.37.2", Dirs: []string{
		"cmd/defaulter-gen/output_tests/empty", "cmd/defaulter-gen/output_tests/marker",
		"cmd/defaulter-gen/output_tests/pointer", "cmd/defaulter-gen/output_tests/slices",
		"cmd/defaulter-gen/output_tests/wholepkg",
	}},
}

// TestDefaulterGenMatchesCodeGenerator copies each module's API packages as shipped, removes their
// zz_generated.defaults.go files, runs kgen's defaulter-gen as kube_codegen.sh's gen_helpers runs
// code-generator's, and checks that it writes exactly the files the module ships, byte for byte.
func TestDefaulterGenMatchesCodeGenerator(t *testing.T) {
	t.Setenv("GOFLAGS", "-mod=mod")
	for _, m := range defaultsModules {
		t.Run(m.Path, func(t *testing.T) {
			src := testmodule.Download(t, m.Path+"@"+m.Version)
			work := t.TempDir()
			shipped := map[string][]byte{}
			var header []byte
			for _, name := range []string{"go.mod", "go.sum"} {
				copyFile(t, filepath.Join(src, name), filepath.Join(work, name))
			}
			var patterns []string
			for _, dir := range m.Dirs {
				patterns = append(patterns, "./"+dir+"/...")
				err := filepath.WalkDir(filepath.Join(src, dir), func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
						return err
					}
					rel, _ := filepath.Rel(src, p)
					if d.Name() == "zz_generated.defaults.go" {
						content, err := os.ReadFile(p)
						shipped[rel] = content
						if header == nil {
							header = boilerplate(t, content)
						}
						return err
					}
					copyFile(t, p, filepath.Join(work, rel))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			if len(shipped) == 0 {
				t.Fatal("the module ships no zz_generated.defaults.go")
			}
			writeFile(t, filepath.Join(work, "boilerplate.go.txt"), header)
			t.Chdir(work)
			var stdout, stderr bytes.Buffer
			args := append([]string{"--output-file", "zz_generated.defaults.go", "--go-header-file", "boilerplate.go.txt"}, patterns...)
			if err := cli.DefaulterGen(args, &stdout, &stderr); err != nil {
				t.Fatalf("defaulter-gen: %v\n%s", err, stderr.String())
			}
			compareDefaults(t, m, shipped)
			if !m.ViaKgen {
				return
			}
			for rel := range shipped {
				if err := os.Remove(rel); err != nil {
					t.Fatal(err)
				}
			}
			// kgen generate's helpers (deepcopy, register, defaulter) from one load, as gen_helpers runs them.
			if code := kgencmd.Main([]string{"generate", "--boilerplate", "boilerplate.go.txt", m.Dirs[0]}, &stdout, &stderr); code != 0 {
				t.Fatalf("kgen generate: exit %d\n%s", code, stderr.String())
			}
			compareDefaults(t, m, shipped)
		})
	}
}

// compareDefaults checks that the zz_generated.defaults.go files under the working directory are
// exactly the shipped ones.
func compareDefaults(t *testing.T, m defaultsModule, shipped map[string][]byte) {
	t.Helper()
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "zz_generated.defaults.go" {
			if _, ok := shipped[p]; !ok {
				t.Errorf("%s: generated, but the module ships no such file", p)
			}
		}
		return err
	})
	identical := 0
	for rel, want := range shipped {
		got, err := os.ReadFile(rel)
		if err != nil {
			t.Errorf("%s: not generated: %v", rel, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the shipped file:\n%s", rel, output.UnifiedDiff(rel, want, got))
			continue
		}
		identical++
	}
	t.Logf("%s@%s: %d of %d zz_generated.defaults.go files byte-identical", m.Path, m.Version, identical, len(shipped))
}

// boilerplate returns the header text of a generated file: what lies between its build constraint and
// its "Code generated" marker.
func boilerplate(t *testing.T, content []byte) []byte {
	t.Helper()
	_, rest, ok := bytes.Cut(content, []byte("// +build !ignore_autogenerated\n\n"))
	if !ok {
		t.Fatal("no build constraint in the shipped file")
	}
	text, _, ok := bytes.Cut(rest, []byte("// Code generated by "))
	if !ok {
		t.Fatal("no generated-by marker in the shipped file")
	}
	return text
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	content, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, content, 0o644); err != nil {
		t.Fatal(err)
	}
}
