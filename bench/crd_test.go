package bench

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// CRD generation side by side with controller-tools v0.23.0's `controller-gen crd`, on gateway-api
// v1.6.3's apis/ and apisx/ (13 CRDs, a large, heavily tagged API), and the cost CRDs add to kgen
// generate on the example CRD project:
//
//   - BenchmarkCRDGen: warm build cache (the module's packages are built first); an iteration runs
//     crd-gen or controller-gen crd into a fresh output directory. Both load the packages, derive the
//     schemas and write the YAML.
//   - BenchmarkKgenGenerateCRDs: kgen generate over examples/crd with and without --crd-dir, each
//     iteration into fresh output directories.
//
// Run with -benchtime=5x:
//
//	go test -run '^$' -bench 'CRDGen|KgenGenerateCRDs' -benchtime 5x .
func BenchmarkCRDGen(b *testing.B) {
	bin := b.TempDir()
	for name, pkg := range map[string]string{
		"crd-gen":        "github.com/kgen-dev/kgen/cmd/crd-gen",
		"controller-gen": "sigs.k8s.io/controller-tools/cmd/controller-gen",
	} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, name), pkg).CombinedOutput(); err != nil {
			b.Fatal(&buildError{pkg: pkg, out: string(out), err: err})
		}
	}
	dir := gatewayAPIModule(b)
	commands := map[string]func(out string) []string{
		"kgen-crd-gen": func(out string) []string {
			return []string{"crd-gen", "--output-dir", out, "./apis/...", "./apisx/..."}
		},
		"controller-gen": func(out string) []string {
			return []string{"controller-gen", "crd", "paths=./apis/...", "paths=./apisx/...", "output:crd:dir=" + out}
		},
	}
	for _, tool := range []string{"kgen-crd-gen", "controller-gen"} {
		b.Run(tool, func(b *testing.B) {
			run := func(out string) (time.Duration, int64) {
				args := commands[tool](out)
				cmd := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				took, kb, err := runMeasured(cmd)
				if err != nil {
					b.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
				}
				return took, kb
			}
			measureFresh(b, run, func(out string) int {
				yamls, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
				return len(yamls)
			})
		})
	}
}

// BenchmarkKgenGenerateCRDs measures what --crd-dir adds to kgen generate on the example project.
func BenchmarkKgenGenerateCRDs(b *testing.B) {
	tools := buildGenerateTools(b)
	spec := generateInputs[1].spec(b) // the example CRD project
	for _, withCRDs := range []bool{false, true} {
		name := map[bool]string{false: "without-crds", true: "with-crds"}[withCRDs]
		b.Run(name, func(b *testing.B) {
			run := func() (time.Duration, int64) {
				s := spec
				if withCRDs {
					// As the example's go:generate line: its two CronTab versions differ, so the CRD needs its
					// conversion webhook.
					s.extra = append([]string{"--crd-dir", b.TempDir(), "--crd-conversion-service", "system/webhook-service"}, s.extra...)
				}
				var stderr bytes.Buffer
				w, kb := runGenerate(b, tools, s, "kgen", b.TempDir(), &stderr)
				if strings.Contains(stderr.String(), "nothing changed") {
					b.Fatalf("kgen skipped the run: %s", stderr.String())
				}
				return w, kb
			}
			run()
			var wall time.Duration
			var peakKB int64
			b.ResetTimer()
			for b.Loop() {
				w, kb := run()
				wall += w
				peakKB = max(peakKB, kb)
			}
			report(b, wall, peakKB)
		})
	}
}

// gatewayAPIModule returns a writable copy of sigs.k8s.io/gateway-api v1.6.3 from the module cache
// (downloaded through the Go module proxy if needed).
func gatewayAPIModule(b *testing.B) string {
	cmd := exec.Command("go", "mod", "download", "-json", "sigs.k8s.io/gateway-api@v1.6.3")
	cmd.Dir = b.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("go mod download: %v\n%s", err, out)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		b.Fatalf("go mod download: %v %s", err, out)
	}
	dir := b.TempDir()
	err = filepath.WalkDir(info.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(info.Dir, p)
		target := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if rel != "go.mod" && rel != "go.sum" && !strings.HasPrefix(rel, "apis") {
			return nil
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, content, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	// A warm build cache, as in a project that builds its API: compile the dependencies once.
	build := exec.Command("go", "build", "./apis/...", "./apisx/...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}
