package bench

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// Code generation side by side: kgen's client-gen, lister-gen and informer-gen against code-generator
// v0.37.2's, each built with go build into a temporary directory, on (a) kgen's testdata APIs and (b) every
// group version of k8s.io/api. One iteration runs the three commands into fresh output directories;
// the metrics are wall seconds for the three together, the peak RSS of the largest, and the files and
// lines generated. Run with -benchtime=1x:
//
//	go test -run '^$' -bench Codegen -benchtime 1x .

// buildTools builds both generator sets into dir.
func buildTools(b *testing.B, dir string) {
	for _, name := range []string{"client-gen", "lister-gen", "informer-gen"} {
		for prefix, pkg := range map[string]string{
			"kgen-": "github.com/kgen-dev/kgen/cmd/" + name,
			"cg-":   "k8s.io/code-generator/cmd/" + name,
		} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(dir, prefix+name), pkg).CombinedOutput()
			if err != nil {
				b.Fatal(&buildError{pkg: pkg, out: string(out), err: err})
			}
		}
	}
}

type buildError struct {
	pkg, out string
	err      error
}

func (e *buildError) Error() string { return "building " + e.pkg + ": " + e.err.Error() + "\n" + e.out }

// codegenInput describes one input set: where to run, and the arguments of each command given the
// output directory.
type codegenInput struct {
	dir     string
	inputs  string // client-gen --input-base and --input flags
	pattern string // lister-gen/informer-gen package pattern
}

func testdataInput(b *testing.B) codegenInput {
	dir, err := filepath.Abs("../testdata")
	if err != nil {
		b.Fatal(err)
	}
	return codegenInput{
		dir:     dir,
		inputs:  "--input-base " + filepath.Join(dir, "apis") + " --input example/v1,example/v1beta1,example2/v1,example3.io/v1,MixedCase/v1",
		pattern: "./apis/example/... ./apis/example2/... ./apis/example3.io/... ./apis/MixedCase/...",
	}
}

// kubeAPIInput lists the group versions of k8s.io/api with +genclient types.
func kubeAPIInput(b *testing.B) codegenInput {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "k8s.io/api").Output()
	if err != nil {
		b.Fatal(err)
	}
	root := strings.TrimSpace(string(out))
	var gvs []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(content))
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "// +genclient" {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				gvs = append(gvs, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sort.Strings(gvs)
	gvs = dedupe(gvs)
	if len(gvs) < 50 {
		b.Fatalf("found only %d group versions in k8s.io/api", len(gvs))
	}
	b.Logf("k8s.io/api: %d group versions", len(gvs))
	return codegenInput{
		dir:     ".",
		inputs:  "--input-base k8s.io/api --input " + strings.Join(gvs, ",") + " --plural-exceptions Endpoints:Endpoints",
		pattern: "k8s.io/api/... --plural-exceptions Endpoints:Endpoints",
	}
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func BenchmarkCodegen(b *testing.B) {
	bin := b.TempDir()
	buildTools(b, bin)
	for _, input := range []struct {
		name string
		get  func(*testing.B) codegenInput
	}{{"testdata", testdataInput}, {"k8s-api", kubeAPIInput}} {
		b.Run(input.name, func(b *testing.B) {
			in := input.get(b)
			for _, tool := range []string{"kgen", "code-generator"} {
				b.Run(tool, func(b *testing.B) { runCodegen(b, bin, tool, in) })
			}
		})
	}
}

func runCodegen(b *testing.B, bin, tool string, in codegenInput) {
	prefix := map[string]string{"kgen": "kgen-", "code-generator": "cg-"}[tool]
	header := filepath.Join(b.TempDir(), "boilerplate.go.txt")
	if err := os.WriteFile(header, []byte("/* header */\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	var wall time.Duration
	var peakKB int64
	var files, lines int
	b.ResetTimer()
	for b.Loop() {
		out := b.TempDir()
		pkg := "example.com/gen"
		commands := [][]string{
			append([]string{"client-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "clientset"), "--output-pkg", pkg + "/clientset", "--clientset-name", "versioned"}, strings.Fields(in.inputs)...),
			append([]string{"lister-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "listers"), "--output-pkg", pkg + "/listers"}, strings.Fields(in.pattern)...),
			append([]string{"informer-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "informers"), "--output-pkg", pkg + "/informers",
				"--versioned-clientset-package", pkg + "/clientset/versioned", "--listers-package", pkg + "/listers"}, strings.Fields(in.pattern)...),
		}
		for _, args := range commands {
			cmd := exec.Command(filepath.Join(bin, prefix+args[0]), args[1:]...)
			cmd.Dir = in.dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			took, kb, err := runMeasured(cmd)
			if err != nil {
				b.Fatalf("%s %s: %v\n%s", tool, args[0], err, stderr.String())
			}
			wall += took
			peakKB = max(peakKB, kb)
		}
		b.StopTimer()
		files, lines = countGo(b, out)
		b.StartTimer()
	}
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/op")
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(float64(lines), "lines")
}

func countGo(b *testing.B, root string) (files, lines int) {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		content, err := os.ReadFile(p)
		files++
		lines += bytes.Count(content, []byte("\n"))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return files, lines
}
