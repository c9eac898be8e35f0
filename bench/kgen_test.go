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
// applyconfiguration-gen, client-gen, lister-gen, informer-gen) over all of k8s.io/api, copied once into a
// writable module because the helpers write into the input packages. kgen runs everything in one process
// from one load; code-generator runs its commands one after the other, as kube_codegen.sh does. After one
// untimed warm-up run, an iteration generates everything into a fresh output
// directory; the metrics are wall seconds for the whole run and the peak RSS of its largest process.
// Run with -benchtime=1x:
//
//	go test -run '^$' -bench KgenGenerate -benchtime 1x .
func BenchmarkKgenGenerate(b *testing.B) {
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
	dir := kubeAPIModule(b)
	header := filepath.Join(b.TempDir(), "boilerplate.go.txt")
	if err := os.WriteFile(header, []byte("/* header */\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	gvs := strings.Fields(kubeAPIInput(b).inputs)
	const pkg = "k8s.io/api/generated"

	commands := map[string]func(out string) [][]string{
		"kgen": func(out string) [][]string {
			return [][]string{{"kgen", "generate", "--boilerplate", header, "--output-dir", out, "--output-pkg", pkg,
				"--with-watch", "--with-applyconfig", "--plural-exceptions", "Endpoints:Endpoints", "."}}
		},
		"code-generator": func(out string) [][]string {
			return [][]string{
				{"cg-deepcopy-gen", "--go-header-file", header, "--output-file", "zz_generated.deepcopy.go", "./..."},
				{"cg-register-gen", "--go-header-file", header, "--output-file", "zz_generated.register.go", "./..."},
				{"cg-applyconfiguration-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "applyconfiguration"),
					"--output-pkg", pkg + "/applyconfiguration", "./..."},
				append([]string{"cg-client-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "clientset"),
					"--output-pkg", pkg + "/clientset", "--clientset-name", "versioned",
					"--apply-configuration-package", pkg + "/applyconfiguration"}, gvs...),
				{"cg-lister-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "listers"),
					"--output-pkg", pkg + "/listers", "--plural-exceptions", "Endpoints:Endpoints", "./..."},
				{"cg-informer-gen", "--go-header-file", header, "--output-dir", filepath.Join(out, "informers"),
					"--output-pkg", pkg + "/informers", "--versioned-clientset-package", pkg + "/clientset/versioned",
					"--listers-package", pkg + "/listers", "--plural-exceptions", "Endpoints:Endpoints", "./..."},
			}
		},
	}
	for _, tool := range []string{"kgen", "code-generator"} {
		b.Run("k8s-api/"+tool, func(b *testing.B) {
			run := func(out string) (time.Duration, int64) {
				var wall time.Duration
				var peakKB int64
				for _, args := range commands[tool](out) {
					cmd := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
					cmd.Dir = dir
					cmd.Env = append(os.Environ(), "GOWORK=off")
					var stderr bytes.Buffer
					cmd.Stderr = &stderr
					start := time.Now()
					kb, err := runMeasured(cmd)
					if err != nil {
						b.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
					}
					wall += time.Since(start)
					peakKB = max(peakKB, kb)
				}
				return wall, peakKB
			}
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
				files, _ = countGo(b, out)
				b.StartTimer()
			}
			b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/op")
			b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
			b.ReportMetric(float64(files), "files")
		})
	}
}
