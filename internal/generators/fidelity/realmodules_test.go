package fidelity_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
	"github.com/kgen-dev/kgen/internal/kgencmd"
)

// apiModule is a real module from the Go module proxy whose API packages kgen generate must handle as
// they are shipped, including the files other generators wrote.
type apiModule struct {
	// Path and Version name the module; APIs is the directory of its API packages.
	Path, Version, APIs string
	// Copy are further directories of the module the run needs (the OpenAPI definitions' package).
	Copy []string
	// SchemaCmd, when set, is the module's command that prints its OpenAPI definitions (sample-controller's
	// models-schema), passed to --applyconfig-openapi-schema as kube_codegen.sh's gen_client is.
	SchemaCmd string
	// Warning is the one warning the run gives, if any.
	Warning string
}

var apiModules = []apiModule{
	// Types declared in files kubetype-gen wrote, registration in register.gen.go, deepcopy in
	// zz_generated.deepcopy.gen.go.
	{Path: "istio.io/client-go", Version: "v1.31.4", APIs: "pkg/apis"},
	// Definitions keyed by Go import path for its own types and by model name for apimachinery's.
	{Path: "k8s.io/sample-controller", Version: "v0.36.3", APIs: "pkg/apis", Copy: []string{"pkg/generated/openapi"},
		SchemaCmd: "./pkg/generated/openapi/cmd/models-schema",
		// It keys Foo's definition by Go import path, under which code-generator does not look it up.
		Warning: "has no definition named io.k8s.sample-controller.pkg.apis.samplecontroller.v1alpha1.Foo"},
	{Path: "k8s.io/sample-controller", Version: "v0.37.1", APIs: "pkg/apis"},
	{Path: "k8s.io/metrics", Version: "v0.37.2", APIs: "pkg/apis"},
}

// TestRealModulesGenerateAndBuild runs kgen generate with all six generators on the API packages of real
// modules, copied as shipped into a module of their own path that requires this checkout, and builds
// the result: every API package gets its deepcopy functions, every group version its apply
// configurations, and every group version with +genclient types its typed client, listers and
// informers, with no warning but those naming the tags of code-generator tools it does not run.
func TestRealModulesGenerateAndBuild(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range apiModules {
		t.Run(m.Path+"@"+m.Version, func(t *testing.T) {
			src := testmodule.Download(t, m.Path+"@"+m.Version)
			work := t.TempDir()
			for _, d := range append([]string{m.APIs}, m.Copy...) {
				copyTree(t, filepath.Join(src, d), filepath.Join(work, d))
			}
			mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(work, "go.mod"), mod)
			t.Chdir(work)
			goCmd(t, "mod", "edit", "-require", "github.com/kgen-dev/kgen@v0.0.0", "-replace", "github.com/kgen-dev/kgen="+root)
			goCmd(t, "mod", "tidy")

			args := []string{"generate", "--output-dir", "pkg/kgen", "--output-pkg", m.Path + "/pkg/kgen", "--with-watch", "--with-applyconfig"}
			if m.SchemaCmd != "" {
				writeFile(t, "models-schema.json", goCmd(t, "run", m.SchemaCmd))
				args = append(args, "--applyconfig-openapi-schema", "models-schema.json")
			}
			var stdout, stderr bytes.Buffer
			if code := kgencmd.Main(append(args, m.APIs), &stdout, &stderr); code != 0 {
				t.Fatalf("kgen generate: exit %d\n%s", code, stderr.String())
			}
			var warnings []string
			for _, l := range strings.Split(stderr.String(), "\n") {
				// Tags of code-generator tools kgen generate does not run are reported, as they must be.
				if strings.Contains(l, "warning") && !strings.Contains(l, "kgen generate does not run") {
					warnings = append(warnings, l)
				}
			}
			if m.Warning == "" && len(warnings) > 0 || m.Warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], m.Warning)) {
				t.Errorf("kgen generate warned (want %q):\n%s", m.Warning, stderr.String())
			}
			versions := 0
			filepath.WalkDir(m.APIs, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.Name() != "doc.go" {
					return err
				}
				dir := filepath.Dir(p)
				if _, err := os.Stat(filepath.Join(dir, "zz_generated.deepcopy.go")); err != nil {
					t.Errorf("%s: no deepcopy functions (%v)", dir, err)
				}
				gv := filepath.Join(filepath.Base(filepath.Dir(dir)), filepath.Base(dir))
				if !strings.HasPrefix(filepath.Base(dir), "v") || !hasTag(t, dir, "// +genclient") {
					return nil // an internal package or one without clients: helpers only
				}
				versions++
				for _, out := range []string{"clientset/versioned/typed", "listers", "informers/externalversions"} {
					if _, err := os.Stat(filepath.Join("pkg/kgen", out, gv)); err != nil {
						t.Errorf("%s: nothing in %s (%v)", gv, out, err)
					}
				}
				return nil
			})
			if versions == 0 {
				t.Fatal("no API group versions with clients found")
			}
			if _, err := os.Stat("pkg/kgen/applyconfiguration/internal/internal.go"); err != nil {
				t.Errorf("no apply configuration schema: %v", err)
			}
			goCmd(t, "mod", "tidy")
			goCmd(t, "build", "./...")
			t.Logf("%s@%s: %d group versions generated and built", m.Path, m.Version, versions)
		})
	}
}

// hasTag reports whether a Go file in dir has a line starting with tag.
func hasTag(t *testing.T, dir, tag string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		content, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(content), "\n") {
			if strings.HasPrefix(line, tag) {
				return true
			}
		}
	}
	return false
}

// goCmd runs the go command in the current directory (-mod=mod, so go.mod may change) and returns its
// standard output.
func goCmd(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// copyTree copies the files under from to to, writable.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
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
		if err := os.MkdirAll(filepath.Join(to, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), content, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, name string, content []byte) {
	t.Helper()
	if err := os.WriteFile(name, content, 0o644); err != nil {
		t.Fatal(err)
	}
}
