package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// applyconfiguration-gen side by side over every package of k8s.io/api: kgen's against code-generator
// v0.37.2's, each built with go build into a temporary directory. code-generator runs without
// --openapi-schema (its fastest mode: no extractors and an empty schema), while kgen always derives the
// schema and writes the extractors. The metrics are wall seconds, peak RSS, files and lines. Run with
// -benchtime=1x:
//
//	go test -run '^$' -bench ApplyConfigurationGen -benchtime 1x .
func BenchmarkApplyConfigurationGen(b *testing.B) {
	bin := b.TempDir()
	for prefix, pkg := range map[string]string{
		"kgen-": "github.com/kgen-dev/kgen/cmd/applyconfiguration-gen",
		"cg-":   "k8s.io/code-generator/cmd/applyconfiguration-gen",
	} {
		out, err := exec.Command("go", "build", "-o", filepath.Join(bin, prefix+"applyconfiguration-gen"), pkg).CombinedOutput()
		if err != nil {
			b.Fatal(&buildError{pkg: pkg, out: string(out), err: err})
		}
	}
	header := filepath.Join(b.TempDir(), "boilerplate.go.txt")
	if err := os.WriteFile(header, []byte("/* header */\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, tool := range []string{"kgen", "code-generator"} {
		prefix := map[string]string{"kgen": "kgen-", "code-generator": "cg-"}[tool]
		b.Run("k8s-api/"+tool, func(b *testing.B) {
			var wall time.Duration
			var peakKB int64
			var files, lines int
			for b.Loop() {
				out := b.TempDir()
				cmd := exec.Command(filepath.Join(bin, prefix+"applyconfiguration-gen"), "--go-header-file", header,
					"--output-dir", out, "--output-pkg", "example.com/gen/applyconfigurations", "k8s.io/api/...")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				took, kb, err := runMeasured(cmd)
				if err != nil {
					b.Fatalf("%s: %v\n%s", tool, err, stderr.String())
				}
				wall += took
				peakKB = max(peakKB, kb)
				b.StopTimer()
				files, lines = countGo(b, out)
				b.StartTimer()
			}
			b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/op")
			b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
			b.ReportMetric(float64(files), "files")
			b.ReportMetric(float64(lines), "lines")
		})
	}
}
