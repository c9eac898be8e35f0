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
//     output directory, with the build cache warm. On k8s.io/api the output directory is inside the input
//     tree (its generated/ directory, where --output-pkg k8s.io/api/generated points), as in a project that
//     keeps its clientset beside its API: each tool gets its own copy of the module, whose go.mod first
//     requires what the generated code imports, and every iteration after an untimed one regenerates
//     over the last one's output (kgen with --force, which otherwise finds nothing changed).
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
					if spec.inTree {
						measureInTree(b, tools, spec, tool)
						return
					}
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
		if in.warmOnly {
			continue
		}
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
		if in.warmOnly {
			continue
		}
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

// measureInTree runs tool over its own copy of spec's module into the module's generated/ directory once
// untimed, then once per iteration over the last run's output, and reports wall time, peak RSS and the Go
// files under generated/. The copy's go.mod first gets what the generated code of both tools imports
// (each tool lists ./..., the other's earlier commands' output included), tidied without the network.
func measureInTree(b *testing.B, tools string, spec generateSpec, tool string) {
	module := filepath.Join(b.TempDir(), "module")
	copyTree(b, spec.dir, module, func(string) bool { return true })
	requireGeneratedImports(b, module)
	spec.dir, spec.force = module, true
	out := filepath.Join(module, "generated")
	runGenerate(b, tools, spec, tool, out, nil)
	var wall time.Duration
	var peakKB int64
	b.ResetTimer()
	for b.Loop() {
		w, kb := runGenerate(b, tools, spec, tool, out, nil)
		wall += w
		peakKB = max(peakKB, kb)
	}
	b.StopTimer()
	report(b, wall, peakKB)
	files, _ := countGo(b, out)
	b.ReportMetric(float64(files), "files")
}

// generatedImports are the packages kgen's and code-generator's generated clientsets, listers, informers
// and apply configurations import, beyond the API packages.
var generatedImports = []string{
	"github.com/kgen-dev/kgen/runtime/applyconfigurations", "github.com/kgen-dev/kgen/runtime/applyconfigurations/meta/v1",
	"github.com/kgen-dev/kgen/runtime/cache", "github.com/kgen-dev/kgen/runtime/discovery",
	"github.com/kgen-dev/kgen/runtime/discovery/fake", "github.com/kgen-dev/kgen/runtime/gentype",
	"github.com/kgen-dev/kgen/runtime/gentype/fake", "github.com/kgen-dev/kgen/runtime/informers",
	"github.com/kgen-dev/kgen/runtime/listers", "github.com/kgen-dev/kgen/runtime/rest", "github.com/kgen-dev/kgen/runtime/testing",
	"k8s.io/client-go/applyconfigurations", "k8s.io/client-go/informers", "k8s.io/client-go/kubernetes/fake",
}

// requireGeneratedImports makes module's go.mod require what generatedImports need (kgen as this checkout):
// it tidies the module with a file importing them, which it then removes.
func requireGeneratedImports(b *testing.B, module string) {
	kgenRoot, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	src := "package benchdeps\n\nimport (\n"
	for _, p := range generatedImports {
		src += "\t_ \"" + p + "\"\n"
	}
	src += ")\n"
	deps := filepath.Join(module, "benchdeps")
	if err := os.MkdirAll(deps, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deps, "deps.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{
		{"mod", "edit", "-require", "github.com/kgen-dev/kgen@v0.0.0", "-replace", "github.com/kgen-dev/kgen=" + kgenRoot,
			"-require", "k8s.io/client-go@v0.37.2"},
		{"mod", "tidy"},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = module
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
		}
	}
	if err := os.RemoveAll(deps); err != nil {
		b.Fatal(err)
	}
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
	// inTree puts the output directory inside the input tree, at dir/generated (outputPkg's directory);
	// force makes kgen regenerate when its record says nothing changed.
	inTree, force bool
	// helpers adds code-generator's defaulter-gen and conversion-gen (gen_helpers) and kube-openapi's
	// openapi-gen (gen_openapi) over openAPIPkgs, as an aggregated API server's update-codegen.sh runs them.
	helpers     bool
	openAPIPkgs []string
}

var generateInputs = []struct {
	name     string
	spec     func(*testing.B) generateSpec
	warmOnly bool // in BenchmarkKgenGenerate only
}{
	{"k8s-api", func(b *testing.B) generateSpec {
		return generateSpec{dir: kubeAPIModule(b), header: benchHeader(b), kgenInput: ".", pattern: "./...",
			clientInput: strings.Fields(strings.TrimSuffix(kubeAPIInput(b).inputs, " --plural-exceptions Endpoints:Endpoints")),
			outputPkg:   "k8s.io/api/generated", extra: []string{"--plural-exceptions", "Endpoints:Endpoints"}, inTree: true}
	}, false},
	{"crd", func(b *testing.B) generateSpec {
		return generateSpec{dir: crdModule(b), header: benchHeader(b), kgenInput: "./api", pattern: "./api/...",
			clientInput: []string{"--input-base", "example.com/crd/api", "--input", "stable/v1"}, outputPkg: "example.com/crd/generated"}
	}, false},
	// k8s.io/sample-apiserver as its hack/update-codegen.sh generates it (kube_codegen.sh's gen_helpers,
	// gen_openapi and gen_client; gen_register finds its hand-written register.go). Its gen_client also runs
	// `go run .../models-schema` for --applyconfig-openapi-schema; neither side does here (kgen derives the
	// schema from the types), which leaves code-generator's side that compile and run shorter. kgen's
	// openapi step records its API rule violations (--openapi-update-report), as openapi-gen writes its report.
	{"sample-apiserver", func(b *testing.B) generateSpec {
		return generateSpec{dir: sampleAPIServerModule(b), header: benchHeader(b), kgenInput: "./pkg/apis", pattern: "./pkg/apis/...",
			clientInput: []string{"--input-base", "k8s.io/sample-apiserver/pkg/apis", "--input", "wardle/v1alpha1", "--input", "wardle/v1beta1"},
			outputPkg:   "k8s.io/sample-apiserver/pkg/generated", helpers: true,
			openAPIPkgs: []string{"./pkg/apis/wardle/v1alpha1", "./pkg/apis/wardle/v1beta1"}}
	}, true},
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
	for _, name := range []string{"deepcopy-gen", "register-gen", "applyconfiguration-gen", "client-gen", "lister-gen", "informer-gen",
		"defaulter-gen", "conversion-gen"} {
		tools["cg-"+name] = "k8s.io/code-generator/cmd/" + name
	}
	tools["cg-openapi-gen"] = "k8s.io/kube-openapi/cmd/openapi-gen" // at the version code-generator v0.37.2 requires
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
		args := []string{"kgen", "generate", "--boilerplate", header, "--output-dir", out, "--output-pkg", pkg, "--with-watch", "--with-applyconfig"}
		if spec.force {
			args = append(args, "--force")
		}
		if spec.helpers {
			args = append(args, "--openapi-output-dir", filepath.Join(out, "openapi"), "--openapi-output-pkg", pkg+"/openapi",
				"--openapi-model-name-file", "zz_generated.model_name.go",
				"--openapi-report-filename", filepath.Join(out, "api-violations.list"), "--openapi-update-report")
		}
		return [][]string{append(args, append(spec.extra, spec.kgenInput)...)}
	case "code-generator-deepcopy-gen":
		return [][]string{deepcopy}
	}
	with := func(args ...string) []string { return append(append(args, spec.extra...), spec.pattern) }
	helpers := [][]string{deepcopy}
	if spec.helpers {
		openAPI := append([]string{"cg-openapi-gen", "--output-file", "zz_generated.openapi.go", "--go-header-file", header,
			"--output-dir", filepath.Join(out, "openapi"), "--output-pkg", pkg + "/openapi",
			"--report-filename", filepath.Join(out, "api-violations.list"), "--output-model-name-file", "zz_generated.model_name.go"},
			openAPIReadOnly...)
		for i := 1; i < len(openAPIReadOnly); i += 2 {
			openAPI = append(openAPI, openAPIReadOnly[i])
		}
		helpers = append(helpers,
			[]string{"cg-defaulter-gen", "--output-file", "zz_generated.defaults.go", "--go-header-file", header, spec.pattern},
			[]string{"cg-conversion-gen", "--output-file", "zz_generated.conversion.go", "--go-header-file", header, spec.pattern},
			append(openAPI, spec.openAPIPkgs...))
	}
	return append(helpers, [][]string{
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
	}...)
}

// openAPIReadOnly are the --readonly-pkg flags kube_codegen.sh's gen_openapi passes openapi-gen; it also
// passes those packages as inputs.
var openAPIReadOnly = []string{
	"--readonly-pkg", "k8s.io/apimachinery/pkg/apis/meta/v1", "--readonly-pkg", "k8s.io/apimachinery/pkg/runtime",
	"--readonly-pkg", "k8s.io/apimachinery/pkg/version", "--readonly-pkg", "k8s.io/apimachinery/pkg/api/resource",
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
