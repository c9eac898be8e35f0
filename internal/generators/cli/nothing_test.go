package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
)

// TestTagsThatGenerateNothingAreReported checks that every generator asked for that generates nothing
// although the input carries its tag says so on stderr, naming the first tag's file:line: here the tags
// are detached from the type by two blank lines, so no type carries them.
func TestTagsThatGenerateNothingAreReported(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "apis", "grp", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		filepath.Join(dir, "go.mod"):   "module example.com/m\n\ngo 1.26\n",
		filepath.Join(pkg, "doc.go"):   "// +groupName=grp.example.com\npackage v1\n",
		filepath.Join(pkg, "types.go"): "package v1\n\n// +genclient\n// +k8s:deepcopy-gen=true\n\n\n// Foo is a type without tags.\ntype Foo struct{}\n",
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		run  func(args []string, stdout, stderr *bytes.Buffer) error
		args []string
		tag  string
	}{
		{"deepcopy-gen", func(a []string, o, e *bytes.Buffer) error { return cli.DeepCopyGen(a, o, e) }, []string{"./apis/..."}, "+k8s:deepcopy-gen"},
		{"client-gen", func(a []string, o, e *bytes.Buffer) error { return cli.ClientGen(a, o, e) },
			[]string{"--output-dir", out, "--output-pkg", "example.com/m/out", "--input-base", "./apis", "--input", "grp/v1"}, "+genclient"},
		{"lister-gen", func(a []string, o, e *bytes.Buffer) error { return cli.ListerGen(a, o, e) },
			[]string{"--output-dir", out, "--output-pkg", "example.com/m/out", "./apis/..."}, "+genclient"},
		{"informer-gen", func(a []string, o, e *bytes.Buffer) error { return cli.InformerGen(a, o, e) },
			[]string{"--output-dir", out, "--output-pkg", "example.com/m/out", "--versioned-clientset-package", "example.com/m/cs", "--listers-package", "example.com/m/l", "./apis/..."}, "+genclient"},
		{"applyconfiguration-gen", func(a []string, o, e *bytes.Buffer) error { return cli.ApplyConfigurationGen(a, o, e) },
			[]string{"--output-dir", out, "--output-pkg", "example.com/m/out", "./apis/..."}, "+genclient"},
	} {
		var stdout, stderr bytes.Buffer
		if err := tc.run(tc.args, &stdout, &stderr); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		line := "4"
		if tc.tag == "+genclient" {
			line = "3"
		}
		want := tc.name + ": warning: " + filepath.Join(pkg, "types.go") + ":" + line + ": " + tc.tag + ", but " + tc.name + " generated nothing"
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: stderr %q lacks %q", tc.name, stderr.String(), want)
		}
	}
}
