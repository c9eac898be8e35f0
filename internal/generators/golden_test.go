package generators_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

var commands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"client-gen": cli.ClientGen, "lister-gen": cli.ListerGen, "informer-gen": cli.InformerGen,
	"deepcopy-gen": cli.DeepCopyGen, "register-gen": cli.RegisterGen, "conversion-gen": cli.ConversionGen,
	"applyconfiguration-gen": cli.ApplyConfigurationGen, "crd-gen": cli.CRDGen,
	"defaulter-gen": cli.DefaulterGen, "openapi-gen": cli.OpenAPIGen,
}

type invocation struct {
	name string
	args []string
}

// goGenerateLines reads the kgen generator invocations from the go:generate lines of testdata/generate.go,
// the single definition of how the golden files are produced.
func goGenerateLines(t *testing.T) []invocation {
	t.Helper()
	f, err := os.Open("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []invocation
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(strings.TrimPrefix(sc.Text(), "//go:generate "))
		if len(fields) < 4 || fields[0] != "go" || fields[1] != "run" || !strings.HasPrefix(fields[2], "../cmd/") {
			continue
		}
		out = append(out, invocation{name: filepath.Base(fields[2]), args: fields[3:]})
	}
	if len(out) < 3 {
		t.Fatalf("found %d generator lines in testdata/generate.go; want at least 3", len(out))
	}
	return out
}

func (inv invocation) run(t *testing.T, extra ...string) (string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := commands[inv.name](append(append([]string{}, inv.args...), extra...), &stdout, &stderr)
	return stdout.String() + stderr.String(), err
}

// writesInPackages reports a generator that writes into the input packages (no --output-dir).
func (inv invocation) writesInPackages() bool {
	for _, a := range inv.args {
		if a == "--output-dir" {
			return false
		}
	}
	return true
}

// withOutputDir returns args with --output-dir (and a report file) moved under dir.
func (inv invocation) withOutputDir(dir string) invocation {
	args := append([]string{}, inv.args...)
	for i := range args {
		if args[i] == "--output-dir" || args[i] == "--report-filename" && args[i+1] != "-" {
			args[i+1] = filepath.Join(dir, args[i+1])
		}
	}
	return invocation{name: inv.name, args: args}
}

// TestGolden regenerates the testdata output in memory and fails with a diff if the committed files differ.
func TestGolden(t *testing.T) {
	t.Chdir("../../testdata")
	for _, inv := range goGenerateLines(t) {
		t.Run(inv.name, func(t *testing.T) {
			out, err := inv.run(t, "--verify")
			if err != nil {
				t.Fatalf("%v\n%s\nRun hack/update-codegen.sh to update the golden files.", err, out)
			}
		})
	}
}

// TestDeterministic generates twice into fresh directories and compares the bytes.
func TestDeterministic(t *testing.T) {
	t.Chdir("../../testdata")
	first, second := t.TempDir(), t.TempDir()
	for _, inv := range goGenerateLines(t) {
		if inv.writesInPackages() {
			continue // deepcopy-gen and register-gen: their packages test determinism in memory
		}
		for _, dir := range []string{first, second} {
			if out, err := inv.withOutputDir(dir).run(t); err != nil {
				t.Fatalf("%s: %v\n%s", inv.name, err, out)
			}
		}
	}
	a, b := readTree(t, first), readTree(t, second)
	if len(a) < 90 {
		t.Fatalf("only %d files generated", len(a))
	}
	for p, content := range a {
		if !bytes.Equal(content, b[p]) {
			t.Errorf("%s differs between runs:\n%s", p, output.UnifiedDiff(p, content, b[p]))
		}
	}
	if len(a) != len(b) {
		t.Errorf("runs produced %d and %d files", len(a), len(b))
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBadTagWritesNothing checks that a malformed tag fails the run with its position and leaves the output
// directory untouched.
func TestBadTagWritesNothing(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "apis", "grp", "v1")
	for _, d := range []string{pkg, filepath.Join(dir, "out")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		filepath.Join(dir, "go.mod"):         "module example.com/bad\n\ngo 1.24\n",
		filepath.Join(pkg, "doc.go"):         "// +groupName=grp.example.com\npackage v1\n",
		filepath.Join(pkg, "good.go"):        "package v1\n\n// +genclient\n\n// Good is fine.\ntype Good struct{ metav1.TypeMeta; metav1.ObjectMeta }\n\ntype GoodList struct{ Items []Good }\n",
		filepath.Join(pkg, "types.go"):       "package v1\n\n// +genclient\n// +genclient:readOnly\n\n// Foo is a test type.\ntype Foo struct{}\n",
		filepath.Join(dir, "out", "keep.go"): "// Code generated by lister-gen. DO NOT EDIT.\n\npackage out\n",
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	inv := invocation{name: "lister-gen", args: []string{"--output-dir", "out", "--output-pkg", "example.com/bad/out", "./apis/..."}}
	out, err := inv.run(t)
	if err == nil || !strings.Contains(err.Error(), "types.go:4: +genclient:readOnly: unknown tag") {
		t.Fatalf("error = %v; want the tag, its position and the problem\n%s", err, out)
	}
	files := readTree(t, filepath.Join(dir, "out"))
	if len(files) != 1 || files["keep.go"] == nil {
		t.Fatalf("output directory changed: %v", files)
	}
}

// TestThinOutput keeps generated per-type files thin: counting code lines (no comments or blank lines),
// a typed client, its fake and a lister of a type without extension methods stay within 40 lines, and an
// informer (which carries client-go's typed-informer API) within 80.
func TestThinOutput(t *testing.T) {
	perType := func(dir, prefix string, names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join("../../testdata/generated", dir, prefix+n+".go"))
		}
		return out
	}
	for limit, files := range map[int][]string{
		40: append(append(
			perType("clientset/versioned/typed/example2/v1", "", "widget", "gadget", "fish", "marker"),
			perType("clientset/versioned/typed/example2/v1/fake", "fake_", "widget", "gadget", "fish", "marker")...),
			perType("listers/example2/v1", "", "widget", "gadget", "fish")...),
		80: perType("informers/externalversions/example2/v1", "", "widget", "gadget", "fish"),
	} {
		for _, f := range files {
			content, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			code, inComment := 0, false
			for _, l := range strings.Split(string(content), "\n") {
				l = strings.TrimSpace(l)
				switch {
				case inComment:
					inComment = !strings.HasSuffix(l, "*/")
				case strings.HasPrefix(l, "/*"):
					inComment = !strings.HasSuffix(l, "*/")
				case l != "" && !strings.HasPrefix(l, "//"):
					code++
				}
			}
			if code > limit {
				t.Errorf("%s has %d code lines; want at most %d", f, code, limit)
			}
		}
	}
}

// TestGeneratedFilesAreGofmtClean checks every committed generated file (testdata's golden output, builtin/
// and the example's): generators append much of their output already formatted (gofile.AppendFormatted),
// and gofmt must leave all of it as it is.
func TestGeneratedFilesAreGofmtClean(t *testing.T) {
	checked := 0
	for _, root := range []string{"../../testdata", "../../builtin", "../../examples/crd"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if !bytes.Contains(src, []byte("// Code generated by ")) {
				return nil
			}
			formatted, err := format.Source(src)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if !bytes.Equal(formatted, src) {
				t.Errorf("%s is not gofmt-clean:\n%s", p, output.UnifiedDiff(p, src, formatted))
			}
			checked++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 1000 {
		t.Fatalf("checked %d generated files; want the whole of builtin/, testdata and the example", checked)
	}
}
