package fidelity_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
	"github.com/kgen-dev/kgen/internal/kgencmd"
)

// openapiModules are k8s.io modules whose hack/update-codegen.sh runs kube_codegen.sh's gen_openapi
// with --output-model-name-file on pkg/apis, into pkg/generated/openapi.
var openapiModules = []struct {
	// Path and Version name the module; ModelNameDirs are the packages with a model-name file.
	Path, Version string
	ModelNameDirs []string
}{
	{"k8s.io/sample-apiserver", "v0.37.2", []string{"pkg/apis/wardle/v1alpha1", "pkg/apis/wardle/v1beta1"}},
	{"k8s.io/kube-aggregator", "v0.37.2", []string{"pkg/apis/apiregistration/v1", "pkg/apis/apiregistration/v1beta1"}},
}

// TestOpenAPIOfRealModules runs kgen generate with the openapi step on real modules' API packages, copied
// with the files kgen generates (deepcopy, OpenAPI definitions, model names) removed, as their
// hack/update-codegen.sh runs gen_openapi: the definitions and model-name files are byte-identical to
// the shipped ones, the API rule report holds kube-openapi's 15 violations of apimachinery's packages
// (a run without a report fails on them, writing nothing; --openapi-update-report records them; a rerun
// then passes, and so does --verify), and the packages build. The other generated files (conversion,
// defaults, protobuf) stay as shipped: kgen's conversion-gen and defaulter-gen are other steps.
func TestOpenAPIOfRealModules(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range openapiModules {
		t.Run(m.Path+"@"+m.Version, func(t *testing.T) {
			src := testmodule.Download(t, m.Path+"@"+m.Version)
			work := t.TempDir()
			for _, d := range []string{"pkg/apis", "pkg/generated/openapi", "hack"} {
				copyTree(t, filepath.Join(src, d), filepath.Join(work, d))
			}
			mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(work)
			writeFile(t, "go.mod", mod)
			goCmd(t, "mod", "edit", "-require", "github.com/kgen-dev/kgen@v0.0.0", "-replace", "github.com/kgen-dev/kgen="+root)
			goCmd(t, "mod", "tidy")
			// Removed after tidying: without its definitions the openapi package has no files to import.
			compared := []string{"pkg/generated/openapi/zz_generated.openapi.go"}
			for _, d := range m.ModelNameDirs {
				compared = append(compared, filepath.Join(d, "zz_generated.model_name.go"))
			}
			removed := append([]string{}, compared...)
			filepath.WalkDir("pkg/apis", func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Name() == "zz_generated.deepcopy.go" {
					removed = append(removed, p)
				}
				return err
			})
			for _, f := range removed {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}

			args := []string{"generate", "--boilerplate", "hack/boilerplate.go.txt",
				"--openapi-output-dir", "pkg/generated/openapi", "--openapi-output-pkg", m.Path + "/pkg/generated/openapi",
				"--openapi-model-name-file", "zz_generated.model_name.go", "--openapi-report-filename", "violations.list"}
			kgen := func(extra ...string) (int, string) {
				var stdout, stderr bytes.Buffer
				code := kgencmd.Main(append(append(append([]string{}, args...), extra...), "pkg/apis"), &stdout, &stderr)
				return code, stdout.String() + stderr.String()
			}
			if code, out := kgen(); code == 0 || !strings.Contains(out, "API rule check failed for violations.list") {
				t.Fatalf("kgen generate with new violations: exit %d, want a failure naming the report:\n%s", code, out)
			}
			if _, err := os.Stat(compared[0]); err == nil {
				t.Fatal("the failed run wrote the definitions")
			}
			if code, out := kgen("--openapi-update-report"); code != 0 {
				t.Fatalf("kgen generate --openapi-update-report: exit %d\n%s", code, out)
			}
			report, err := os.ReadFile("violations.list")
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(report), "API rule violation: names_match,k8s.io/apimachinery/"); n != 15 || strings.Count(string(report), "\n") != 15 {
				t.Errorf("report: want kube-openapi's 15 names_match violations of apimachinery's packages, got\n%s", report)
			}
			if code, out := kgen("--force"); code != 0 {
				t.Fatalf("kgen generate after the report was updated: exit %d\n%s", code, out)
			}
			for _, f := range compared {
				want, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the shipped file:\n%s", f, lineDiff(string(want), string(got)))
				}
			}
			if code, out := kgen("--verify", "--force"); code != 0 || !strings.Contains(out, "verified") {
				t.Errorf("kgen generate --verify after generating: exit %d\n%s", code, out)
			}
			goCmd(t, "build", "./pkg/apis/...", "./pkg/generated/openapi/...")
		})
	}
}

// lineDiff lists the lines of got that differ from want, with their line numbers, up to 20.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < max(len(w), len(g)) && n < 20; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			n++
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n- " + wl + "\n+ " + gl + "\n")
		}
	}
	return b.String()
}
