package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kgen generate side by side with code-generator v0.37.2's six commands (deepcopy-gen, register-gen,
// applyconfiguration-gen, client-gen, lister-gen, informer-gen), run one after the other as kube_codegen.sh
// runs them, on two inputs: all of k8s.io/api, and the example CRD API (one small package). Each input is
// copied once into a writable module, because the helpers write into the input packages. Three
// benchmarks, one per row of the generation table:
//
//   - BenchmarkKgenGenerate: warm. After one untimed run, an iteration generates everything into a fresh
//     output directory, with the build cache warm.
//   - BenchmarkKgenGenerateRerun: nothing changed. Both tools generate into the same output directory once
//     (kgen until its rerun finds nothing changed, which takes one or two runs); an iteration runs again.
//   - BenchmarkKgenGenerateCold: an empty Go build cache, as on a fresh CI runner. An iteration runs with a
//     new GOCACHE. code-generator's side is deepcopy-gen alone, the command kube_codegen.sh runs first,
//     which pays for compiling the dependencies (on k8s.io/api, all six cold would add about a minute and a
//     half to every bench-test run).
//
// The metrics are wall seconds for the whole run and the peak RSS of its largest process. Run with
// -benchtime=1x:
//
//	go test -run '^$' -bench KgenGenerate -benchtime 1x .
func BenchmarkKgenGenerate(b *testing.B) {
	tools := buildGenerateTools(b)
	for _, in := range generateInputs {
		b.Run(in.name, func(b *testing.B) {
			spec := in.spec(b)
			for _, tool := range []string{"kgen", "code-generator"} {
				b.Run(tool, func(b *testing.B) {
					run := func(out string) (time.Duration, int64) { return runGenerate(b, tools, spec, tool, out, nil) }
					measureFresh(b, run, func(out string) int { files, _ := countGo(b, out); return files })
				})
			}
		})
	}
}

func BenchmarkKgenGenerateRerun(b *testing.B) {
	tools := buildGenerateTools(b)
	for _, in := range generateInputs {
		b.Run(in.name, func(b *testing.B) {
			spec := in.spec(b)
			for _, tool := range []string{"kgen", "code-generator"} {
				b.Run(tool, func(b *testing.B) {
					out := b.TempDir()
					var stderr bytes.Buffer
					for range 5 {
						stderr.Reset()
						runGenerate(b, tools, spec, tool, out, &stderr)
						if tool != "kgen" || strings.Contains(stderr.String(), "nothing changed") {
							break
						}
					}
					var wall time.Duration
					var peakKB int64
					b.ResetTimer()
					for b.Loop() {
						stderr.Reset()
						w, kb := runGenerate(b, tools, spec, tool, out, &stderr)
						wall += w
						peakKB = max(peakKB, kb)
						if tool == "kgen" && !strings.Contains(stderr.String(), "nothing changed") {
							b.Fatalf("kgen's rerun regenerated: %s", stderr.String())
						}
					}
					report(b, wall, peakKB)
				})
			}
		})
	}
}

func BenchmarkKgenGenerateCold(b *testing.B) {
	tools := buildGenerateTools(b)
	for _, in := range generateInputs {
		b.Run(in.name, func(b *testing.B) {
			spec := in.spec(b)
			for _, tool := range []string{"kgen", "code-generator-deepcopy-gen"} {
				b.Run(tool, func(b *testing.B) {
					var wall time.Duration
					var peakKB int64
					for b.Loop() {
						b.StopTimer()
						env := []string{"GOCACHE=" + b.TempDir()}
						b.StartTimer()
						w, kb := runGenerate(b, tools, spec, tool, b.TempDir(), nil, env...)
						wall += w
						peakKB = max(peakKB, kb)
					}
					report(b, wall, peakKB)
				})
			}
		})
	}
}

// measureFresh runs run once untimed (to warm the build cache), then once per iteration into a fresh
// output directory, and reports wall time, peak RSS and, as "files", what count finds in the last output.
func measureFresh(b *testing.B, run func(out string) (time.Duration, int64), count func(out string) int) {
	run(b.TempDir())
	var wall time.Duration
	var peakKB int64
	var files int
	b.ResetTimer()
	for b.Loop() {
		out := b.TempDir()
		w, kb := run(out)
		wall += w
		peakKB = max(peakKB, kb)
		b.StopTimer()
		files = count(out)
		b.StartTimer()
	}
	report(b, wall, peakKB)
	b.ReportMetric(float64(files), "files")
}

// report reports the wall time per iteration and the peak RSS of the largest process.
func report(b *testing.B, wall time.Duration, peakKB int64) {
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/op")
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
}

// generateSpec is one input of the generate benchmarks.
type generateSpec struct {
	dir, header string
	kgenInput   string   // kgen generate's input directory
	pattern     string   // the package pattern of code-generator's commands but client-gen
	clientInput []string // client-gen's --input-base and --input flags
	outputPkg   string
	extra       []string // flags of every command but deepcopy-gen and register-gen
}

var generateInputs = []struct {
	name string
	spec func(*testing.B) generateSpec
}{
	{"k8s-api", func(b *testing.B) generateSpec {
		return generateSpec{dir: kubeAPIModule(b), header: benchHeader(b), kgenInput: ".", pattern: "./...",
			clientInput: strings.Fields(strings.TrimSuffix(kubeAPIInput(b).inputs, " --plural-exceptions Endpoints:Endpoints")),
			outputPkg:   "k8s.io/api/generated", extra: []string{"--plural-exceptions", "Endpoints:Endpoints"}}
	}},
	{"crd", func(b *testing.B) generateSpec {
		return generateSpec{dir: crdModule(b), header: benchHeader(b), kgenInput: "./api", pattern: "./api/...",
			clientInput: []string{"--input-base", "example.com/crd/api", "--input", "stable/v1"}, outputPkg: "example.com/crd/generated"}
	}},
}

func benchHeader(b *testing.B) string {
	header := filepath.Join(b.TempDir(), "boilerplate.go.txt")
	if err := os.WriteFile(header, []byte("/* header */\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return header
}

// buildGenerateTools builds kgen and code-generator's six commands into a temporary directory.
func buildGenerateTools(b *testing.B) string {
	bin := b.TempDir()
	tools := map[string]string{"kgen": "github.com/kgen-dev/kgen/cmd/kgen"}
	for _, name := range []string{"deepcopy-gen", "register-gen", "applyconfiguration-gen", "client-gen", "lister-gen", "informer-gen"} {
		tools["cg-"+name] = "k8s.io/code-generator/cmd/" + name
	}
	for name, pkg := range tools {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, name), pkg).CombinedOutput(); err != nil {
			b.Fatal(&buildError{pkg: pkg, out: string(out), err: err})
		}
	}
	return bin
}

// generateCommands are the commands of tool generating spec's input into out.
func generateCommands(spec generateSpec, tool, out string) [][]string {
	pkg, header := spec.outputPkg, spec.header
	deepcopy := []string{"cg-deepcopy-gen", "--go-header-file", header, "--output-file", "zz_generated.deepcopy.go", spec.pattern}
	switch tool {
	case "kgen":
		return [][]string{append([]string{"kgen", "generate", "--boilerplate", header, "--output-dir", out, "--output-pkg", pkg,
			"--with-watch", "--with-applyconfig"}, append(spec.extra, spec.kgenInput)...)}
	case "code-generator-deepcopy-gen":
		return [][]string{deepcopy}
	}
	with := func(args ...string) []string { return append(append(args, spec.extra...), spec.pattern) }
	return [][]string{
		deepcopy,
		{"cg-register-gen", "--go-header-file", header, "--output-file", "zz_generated.register.go", spec.pattern},
		{"cg-applyconfiguration-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "applyconfiguration"),
			"--output-pkg", pkg + "/applyconfiguration", spec.pattern},
		append(append([]string{"cg-client-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "clientset"),
			"--output-pkg", pkg + "/clientset", "--clientset-name", "versioned",
			"--apply-configuration-package", pkg + "/applyconfiguration"}, spec.clientInput...), spec.extra...),
		with("cg-lister-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "listers"), "--output-pkg", pkg+"/listers"),
		with("cg-informer-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "informers"),
			"--output-pkg", pkg+"/informers", "--versioned-clientset-package", pkg+"/clientset/versioned",
			"--listers-package", pkg+"/listers"),
	}
}

// runGenerate runs tool's commands over spec into out with env added, appending their standard error to
// stderr if it is not nil, and returns their wall time and the peak RSS of the largest.
func runGenerate(b *testing.B, bin string, spec generateSpec, tool, out string, stderr *bytes.Buffer, env ...string) (time.Duration, int64) {
	var wall time.Duration
	var peakKB int64
	for _, args := range generateCommands(spec, tool, out) {
		cmd := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
		cmd.Dir = spec.dir
		cmd.Env = append(append(os.Environ(), "GOWORK=off"), env...)
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		took, kb, err := runMeasured(cmd)
		if err != nil {
			b.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, errOut.String())
		}
		wall += took
		peakKB = max(peakKB, kb)
		if stderr != nil {
			stderr.Write(errOut.Bytes())
		}
	}
	return wall, peakKB
}
