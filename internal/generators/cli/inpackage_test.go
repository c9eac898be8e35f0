package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
)

func TestInPackageFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--output-file", "", "./apis/..."}, "--output-file must be specified"},
		{[]string{"--output-file", "zz.go"}, "no input packages"},
		{[]string{"--lint-rules", "nope", "./apis/..."}, "unrecognized rule in --lint-rules: nope"},
		{[]string{"--go-header-file", "/nonexistent", "./apis/..."}, "loading boilerplate"},
	} {
		for name, cmd := range map[string]func([]string, *bytes.Buffer, *bytes.Buffer) error{
			"deepcopy-gen":   func(a []string, o, e *bytes.Buffer) error { return cli.DeepCopyGen(a, o, e) },
			"register-gen":   func(a []string, o, e *bytes.Buffer) error { return cli.RegisterGen(a, o, e) },
			"conversion-gen": func(a []string, o, e *bytes.Buffer) error { return cli.ConversionGen(a, o, e) },
		} {
			var stdout, stderr bytes.Buffer
			if err := cmd(tc.args, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %v: %v, want %q", name, tc.args, err, tc.want)
			}
		}
	}
}

// TestDeepCopyGenWritesAndLints runs deepcopy-gen on a fresh module: --lint-rules failures write nothing,
// a clean run writes zz_generated.deepcopy.go, and --verify then passes.
func TestDeepCopyGenWritesAndLints(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "apis", "grp", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26\n")
	write(filepath.Join(pkg, "doc.go"), "// +k8s:deepcopy-gen=package\n// +k8s:deepcopy-gen-typo=true\n\npackage v1\n")
	write(filepath.Join(pkg, "types.go"), "package v1\n\ntype T struct{ S []string }\n")
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	args := []string{"--output-file", "zz_generated.deepcopy.go", "./apis/..."}
	err := cli.DeepCopyGen(append([]string{"--lint-rules", "known-tags-only"}, args...), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "doc.go:2") {
		t.Fatalf("lint: %v", err)
	}
	out := filepath.Join(pkg, "zz_generated.deepcopy.go")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a failed run wrote %s", out)
	}
	if err := cli.DeepCopyGen(args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "func (in *T) DeepCopyInto(out *T) {") {
		t.Fatalf("%v\n%s", err, b)
	}
	if err := cli.DeepCopyGen(append([]string{"--verify"}, args...), &stdout, &stderr); err != nil {
		t.Fatalf("--verify after a run: %v", err)
	}
}
