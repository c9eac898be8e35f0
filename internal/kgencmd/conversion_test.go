package kgencmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateConversionErrorWritesNothing: a conversion-gen tag naming a peer package that does not
// exist fails kgen generate with the tag's file:line, and no generator writes anything.
func TestGenerateConversionErrorWritesNothing(t *testing.T) {
	module := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":                 "module example.com/bad\n\ngo 1.26\n",
		"api/things/v1/doc.go":   "// +k8s:deepcopy-gen=package\n// +k8s:conversion-gen=example.com/bad/api/nothere\n\npackage v1\n",
		"api/things/v1/types.go": "package v1\n\ntype Thing struct{ Names []string }\n",
		"api/other/types.go":     "package other\n\ntype Thing struct{ Names []string }\n",
		"api/other/doc.go":       "// +k8s:deepcopy-gen=package\n\npackage other\n",
	} {
		path := filepath.Join(module, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(module)
	code, _, stderr := runKgen(t, "generate", "--force", "./api")
	want := filepath.Join(module, "api/things/v1/doc.go") + ":2: +k8s:conversion-gen=example.com/bad/api/nothere: the peer package does not exist"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("kgen generate = %d, %q; want 1 and %q", code, stderr, want)
	}
	matches, err := filepath.Glob(filepath.Join(module, "api", "*", "zz_generated.*"))
	more, _ := filepath.Glob(filepath.Join(module, "api", "*", "*", "zz_generated.*"))
	if err != nil || len(matches)+len(more) > 0 {
		t.Fatalf("a failed run wrote %v %v (%v)", matches, more, err)
	}
}
