package portcheck

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
)

// sampleControllerVersion is the newest sample-controller the module proxy serves for the
// Kubernetes minor kgen targets.
const sampleControllerVersion = "v0.37.1"

const kgen = "github.com/kgen-dev/kgen"

// importMap maps client-go import paths to kgen's, in order; an entry ending in "/" maps every
// path under it.
var importMap = [][2]string{
	{"k8s.io/client-go/informers/", kgen + "/builtin/informers/"},
	{"k8s.io/client-go/informers", kgen + "/builtin/informers"},
	{"k8s.io/client-go/kubernetes/", kgen + "/builtin/kubernetes/"},
	{"k8s.io/client-go/kubernetes", kgen + "/builtin/kubernetes"},
	{"k8s.io/client-go/listers/", kgen + "/builtin/listers/"},
	{"k8s.io/client-go/tools/cache", kgen + "/runtime/cache"},
	{"k8s.io/client-go/tools/record", kgen + "/runtime/events"},
	{"k8s.io/client-go/tools/clientcmd", kgen + "/runtime/kubeconfig"},
	{"k8s.io/client-go/util/workqueue", kgen + "/runtime/workqueue"},
	{"k8s.io/client-go/util/retry", kgen + "/runtime/retry"},
	{"k8s.io/client-go/testing", kgen + "/runtime/testing"},
}

// generator is one run of a kgen generator with code-generator's flags.
type generator struct {
	run  func([]string, io.Writer, io.Writer) error
	args []string
}

// portSpec says how to port one real module: what to take from it, how its API's client code is
// generated, and which packages' unit tests to run.
type portSpec struct {
	module, version string
	// files and dirs (their files, not subdirectories) are copied from the module; the client-go
	// imports of every copied Go file are rewritten to kgen's.
	files, dirs []string
	// require lists further requirements of the ported module ("path version").
	require []string
	// generators produce the clientset, listers, informers and apply configurations kgen-side.
	generators []generator
	// tests are the packages whose unit tests run, runs times each with -race.
	tests []string
	runs  int
}

// port builds spec's module against kgen with nothing but import lines changed (a package alias
// where kgen's package name differs), runs its unit tests and returns how many passed per run.
func port(t *testing.T, spec portSpec) int {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	src := downloadModule(t, spec.module+"@"+spec.version)
	dir := t.TempDir()
	var copied []string
	for _, p := range spec.files {
		copyFile(t, filepath.Join(src, p), filepath.Join(dir, p))
		copied = append(copied, filepath.Join(dir, p))
	}
	for _, d := range spec.dirs {
		copied = append(copied, copyDir(t, filepath.Join(src, d), filepath.Join(dir, d))...)
	}
	for _, f := range copied {
		if strings.HasSuffix(f, ".go") {
			portImports(t, f)
		}
	}
	mod := "module " + spec.module + "\n\ngo 1.26.0\n\nrequire " + kgen + " v0.0.0\n"
	for _, r := range spec.require {
		mod += "\nrequire " + r + "\n"
	}
	writeFile(t, filepath.Join(dir, "go.mod"), mod+"\nreplace "+kgen+" => "+root+"\n")

	t.Chdir(dir)
	// The generators read the API's dependencies (apimachinery), so the module needs its requirements
	// first; the generated packages it imports do not exist yet, hence -e.
	goCmd(t, dir, "mod", "tidy", "-e")
	for _, g := range spec.generators {
		var out bytes.Buffer
		if err := g.run(g.args, &out, &out); err != nil {
			t.Fatalf("%v: %v\n%s", g.args, err, out.String())
		}
	}

	goCmd(t, dir, "mod", "tidy")
	goCmd(t, dir, "vet", "./...")
	args := append([]string{"test", "-race", "-count=" + strconv.Itoa(spec.runs), "-v"}, spec.tests...)
	out := goCmd(t, dir, args...)
	passed, failed := strings.Count(out, "--- PASS:"), strings.Count(out, "--- FAIL:")
	if failed > 0 || passed == 0 || passed%spec.runs != 0 {
		t.Fatalf("%d passed, %d failed:\n%s", passed, failed, out)
	}
	return passed / spec.runs
}

// TestSampleControllerPortsByChangingImports builds sample-controller's controller, main and
// unit tests against kgen with nothing but import lines changed, and runs the unit tests 20 times
// with the race detector.
func TestSampleControllerPortsByChangingImports(t *testing.T) {
	header := "--go-header-file=hack/boilerplate.go.txt"
	pkg := "k8s.io/sample-controller/pkg/generated"
	n := port(t, portSpec{
		module: "k8s.io/sample-controller", version: sampleControllerVersion,
		files: []string{"controller.go", "main.go", "controller_test.go", "hack/boilerplate.go.txt"},
		dirs:  []string{"pkg/apis/samplecontroller/v1alpha1", "pkg/signals"},
		generators: []generator{
			{cli.ApplyConfigurationGen, []string{header, "--output-dir=pkg/generated/applyconfiguration",
				"--output-pkg=" + pkg + "/applyconfiguration", "./pkg/apis/..."}},
			{cli.ClientGen, []string{header, "--output-dir=pkg/generated/clientset", "--output-pkg=" + pkg + "/clientset",
				"--clientset-name=versioned", "--input-base=./pkg/apis", "--input=samplecontroller/v1alpha1",
				"--apply-configuration-package=" + pkg + "/applyconfiguration"}},
			{cli.ListerGen, []string{header, "--output-dir=pkg/generated/listers", "--output-pkg=" + pkg + "/listers", "./pkg/apis/..."}},
			{cli.InformerGen, []string{header, "--output-dir=pkg/generated/informers", "--output-pkg=" + pkg + "/informers",
				"--versioned-clientset-package=" + pkg + "/clientset/versioned", "--listers-package=" + pkg + "/listers", "./pkg/apis/..."}},
		},
		tests: []string{"."}, runs: 20,
	})
	t.Logf("sample-controller %s: %d tests, each passed 20 of 20 runs with -race", sampleControllerVersion, n)
}

// portImports rewrites file's client-go imports to kgen's, aliasing an import whose package name
// changes; nothing else in the file is edited.
func portImports(t *testing.T, file string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		old, _ := strconv.Unquote(imp.Path.Value)
		mapped, ok := mapImport(old)
		if !ok {
			if strings.HasPrefix(old, "k8s.io/client-go/") {
				t.Fatalf("%s: no kgen counterpart for import %q", file, old)
			}
			continue
		}
		imp.Path.Value = strconv.Quote(mapped)
		if imp.Name == nil && path.Base(old) != path.Base(mapped) {
			imp.Name = ast.NewIdent(path.Base(old))
		}
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, buf.String())
}

func mapImport(p string) (string, bool) {
	for _, m := range importMap {
		if p == m[0] || strings.HasSuffix(m[0], "/") && strings.HasPrefix(p, m[0]) {
			return m[1] + strings.TrimPrefix(p, m[0]), true
		}
	}
	return "", false
}

// downloadModule fetches a module version through the Go module proxy and returns its directory.
func downloadModule(t *testing.T, mod string) string {
	t.Helper()
	var info struct{ Dir, Error string }
	out := goCmd(t, "", "mod", "download", "-json", mod)
	if err := json.Unmarshal([]byte(out), &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %v %s", mod, err, info.Error)
	}
	return info.Dir
}

// goCmd runs the go command in dir and returns its combined output, failing the test on error.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// copyDir copies the files of directory from (not its subdirectories) into to and returns the
// copies' paths.
func copyDir(t *testing.T, from, to string) []string {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	var copied []string
	for _, e := range entries {
		if !e.IsDir() {
			copyFile(t, filepath.Join(from, e.Name()), filepath.Join(to, e.Name()))
			copied = append(copied, filepath.Join(to, e.Name()))
		}
	}
	return copied
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(data))
}

func writeFile(t *testing.T, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
