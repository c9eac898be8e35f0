package bench

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// deepcopy-gen side by side: kgen's against code-generator v0.37.2's, each built with go build, on (a) the
// example CRD API (one small package) and (b) all of k8s.io/api. deepcopy-gen writes into the input
// packages, so each input is copied once into a writable module first. After one untimed warm-up run,
// one iteration runs the command once; the metrics are its wall seconds, its peak RSS (the largest of the
// process and its children, such as go list) and the files written. Run with -benchtime=1x:
//
//	go test -run '^$' -bench DeepCopyGen -benchtime 1x .

func BenchmarkDeepCopyGen(b *testing.B) {
	bin := b.TempDir()
	for prefix, pkg := range map[string]string{
		"kgen-": "github.com/kgen-dev/kgen/cmd/deepcopy-gen",
		"cg-":   "k8s.io/code-generator/cmd/deepcopy-gen",
	} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, prefix+"deepcopy-gen"), pkg).CombinedOutput(); err != nil {
			b.Fatal(&buildError{pkg: pkg, out: string(out), err: err})
		}
	}
	for _, input := range []struct {
		name string
		copy func(*testing.B) string
	}{{"crd", crdModule}, {"k8s-api", kubeAPIModule}} {
		b.Run(input.name, func(b *testing.B) {
			dir := input.copy(b)
			for tool, prefix := range map[string]string{"kgen": "kgen-", "code-generator": "cg-"} {
				b.Run(tool, func(b *testing.B) { runDeepCopyGen(b, filepath.Join(bin, prefix+"deepcopy-gen"), dir) })
			}
		})
	}
}

func runDeepCopyGen(b *testing.B, bin, dir string) {
	run := func() (peakKB int64) {
		cmd := exec.Command(bin, "--output-file", "zz_generated.deepcopy.go", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		_, peakKB, err := runMeasured(cmd)
		if err != nil {
			b.Fatalf("%s: %v\n%s", bin, err, stderr.String())
		}
		return peakKB
	}
	// One untimed run first, so that both tools see a warm build cache (kgen reads the dependencies'
	// export data from it) and warm page cache.
	run()
	var wall time.Duration
	var peakKB int64
	var files int
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		kb := run()
		wall += time.Since(start)
		peakKB = max(peakKB, kb)
		b.StopTimer()
		files = countFiles(b, dir, "zz_generated.deepcopy.go")
		b.StartTimer()
	}
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/op")
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
	b.ReportMetric(float64(files), "files")
}

// kubeAPIModule copies the k8s.io/api module from the module cache into a writable directory.
func kubeAPIModule(b *testing.B) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/api").Output()
	if err != nil {
		b.Fatal(err)
	}
	dst := filepath.Join(b.TempDir(), "api")
	copyTree(b, strings.TrimSpace(string(out)), dst, func(string) bool { return true })
	return dst
}

// crdModule copies the example CRD API into a module of its own that needs only apimachinery.
func crdModule(b *testing.B) string {
	dst := filepath.Join(b.TempDir(), "crd")
	copyTree(b, "../examples/crd/api", filepath.Join(dst, "api"), func(string) bool { return true })
	gomod, err := os.ReadFile("../examples/crd/go.mod")
	if err != nil {
		b.Fatal(err)
	}
	// Drop kgen itself (a replace of a relative path) and the tool directives.
	gomod = regexp.MustCompile(`(?m)^\s*github.com/kgen-dev/kgen .*\n|(?ms)^tool \(.*?\)\n|(?m)^replace .*\n`).ReplaceAll(gomod, nil)
	sum, err := os.ReadFile("../examples/crd/go.sum")
	if err != nil {
		b.Fatal(err)
	}
	for name, content := range map[string][]byte{"go.mod": gomod, "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(dst, name), content, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dst
}

// copyTree copies the files under src that keep accepts into dst, writable.
func copyTree(b *testing.B, src, dst string, keep func(string) bool) {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !keep(rel) {
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
}

func countFiles(b *testing.B, root, name string) int {
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name {
			n++
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}
