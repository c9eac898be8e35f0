package kgencmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateReportsGenclientTagsThatYieldNothing checks that kgen generate, asked for clients, warns
// once, naming the generators and the first +genclient line, when no type carries the tag (here two
// blank lines detach it), and exits 0 having written no client.
func TestGenerateReportsGenclientTagsThatYieldNothing(t *testing.T) {
	module := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":                 "module example.com/nothing\n\ngo 1.26\n",
		"api/things/v1/doc.go":   "// +groupName=things.example.com\npackage v1\n",
		"api/things/v1/types.go": "package v1\n\n// +genclient\n\n\n// Thing is a test type.\ntype Thing struct{ Name string }\n",
	} {
		path := filepath.Join(module, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(module)
	code, _, errOut := runKgen(t, "generate", "--output-dir", "generated", "--output-pkg", "example.com/nothing/generated", "--with-watch", "--with-applyconfig", "api")
	want := "kgen generate: client: warning: " + filepath.Join(module, "api", "things", "v1", "types.go") +
		":3: +genclient, but applyconfiguration-gen, client-gen, lister-gen, informer-gen generated nothing"
	if code != 0 || strings.Count(errOut, "+genclient,") != 1 || !strings.Contains(errOut, want) {
		t.Fatalf("kgen generate = %d, stderr:\n%s\nwant one warning %q", code, errOut, want)
	}
	if _, err := os.Stat(filepath.Join("generated", "clientset", "versioned", "typed")); !os.IsNotExist(err) {
		t.Errorf("typed clients were generated: %v", err)
	}
}
