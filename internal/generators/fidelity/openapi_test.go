package fidelity_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
	"github.com/kgen-dev/kgen/internal/kgencmd"
)

// sampleAPIServerOpenAPIFiles are the files kube_codegen.sh's gen_openapi wrote into
// k8s.io/sample-apiserver v0.37.2 (its hack/update-codegen.sh passes --output-model-name-file).
var sampleAPIServerOpenAPIFiles = []string{
	"pkg/generated/openapi/zz_generated.openapi.go",
	"pkg/apis/wardle/v1alpha1/zz_generated.model_name.go",
	"pkg/apis/wardle/v1beta1/zz_generated.model_name.go",
}

// TestSampleAPIServerOpenAPI runs kgen generate with the openapi step on k8s.io/sample-apiserver v0.37.2's
// API packages, copied with the files kgen generates (deepcopy, OpenAPI definitions, model names)
// removed, as its hack/update-codegen.sh runs gen_openapi: the definitions and model-name files are
// byte-identical to the shipped ones, the API rule report holds kube-openapi's 15 violations (a run
// without a report fails on them, writing nothing; --openapi-update-report records them; a rerun then
// passes, and so does --verify), and the packages build. The conversion and defaulting files stay as shipped: kgen's
// conversion-gen and defaulter-gen are other steps.
func TestSampleAPIServerOpenAPI(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	src := testmodule.Download(t, "k8s.io/sample-apiserver@v0.37.2")
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
	for _, f := range append(sampleAPIServerOpenAPIFiles, "pkg/apis/wardle/zz_generated.deepcopy.go",
		"pkg/apis/wardle/v1alpha1/zz_generated.deepcopy.go", "pkg/apis/wardle/v1beta1/zz_generated.deepcopy.go") {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}

	args := []string{"generate", "--boilerplate", "hack/boilerplate.go.txt",
		"--openapi-output-dir", "pkg/generated/openapi", "--openapi-output-pkg", "k8s.io/sample-apiserver/pkg/generated/openapi",
		"--openapi-model-name-file", "zz_generated.model_name.go", "--openapi-report-filename", "violations.list"}
	kgen := func(extra ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := kgencmd.Main(append(append(append([]string{}, args...), extra...), "pkg/apis"), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	if code, out := kgen(); code == 0 || !strings.Contains(out, "API rule check failed for violations.list") {
		t.Fatalf("kgen generate with new violations: exit %d, want a failure naming the report:\n%s", code, out)
	}
	if _, err := os.Stat(sampleAPIServerOpenAPIFiles[0]); err == nil {
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
	for _, f := range sampleAPIServerOpenAPIFiles {
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
