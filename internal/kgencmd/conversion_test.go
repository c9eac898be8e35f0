package kgencmd

import (
	"os"
	"os/exec"
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

// TestGenerateExtraPeerDirOutsideTheInputs: --extra-peer-dir names a package outside the input directory
// that no input imports; kgen generate loads it (as a dependency, not an input) and converts to its types,
// named by import path or by a /... pattern.
func TestGenerateExtraPeerDirOutsideTheInputs(t *testing.T) {
	// A module of its own: go's /... patterns skip directories called testdata, where workDir is.
	work, workPkg := t.TempDir(), "example.com/peers"
	goMod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, work, map[string]string{
		"go.mod":             strings.Replace(string(goMod), "module github.com/kgen-dev/kgen", "module "+workPkg, 1),
		"go.sum":             string(goSum),
		"api/v1/doc.go":      "// +k8s:conversion-gen=" + workPkg + "/api/hub\n\npackage v1\n",
		"api/v1/register.go": "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime\"\n\nvar (\n\tSchemeBuilder      runtime.SchemeBuilder\n\tlocalSchemeBuilder = &SchemeBuilder\n)\n",
		"api/v1/types.go":    "package v1\n\ntype T struct {\n\tA string\n}\n\ntype Shared struct {\n\tN int32\n}\n",
		"api/hub/types.go":   "package hub\n\ntype T struct {\n\tA string\n}\n",
		"shared/types.go":    "// +k8s:deepcopy-gen=package\n\npackage shared\n\ntype Shared struct {\n\tN int32\n}\n",
	})
	t.Chdir(work)
	conversion := filepath.Join(work, "api", "v1", "zz_generated.conversion.go")
	var first []byte
	for _, peer := range []string{workPkg + "/shared", workPkg + "/shared/..."} {
		code, _, errOut := runKgen(t, "generate", "--force", "--extra-peer-dir", peer, "./api")
		if code != 0 {
			t.Fatalf("kgen generate --extra-peer-dir %s = %d\n%s", peer, code, errOut)
		}
		got, err := os.ReadFile(conversion)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"func Convert_v1_Shared_To_shared_Shared(in *Shared, out *shared.Shared, s conversion.Scope) error {",
			"func Convert_shared_Shared_To_v1_Shared(in *shared.Shared, out *Shared, s conversion.Scope) error {",
			"func Convert_v1_T_To_hub_T(in *T, out *hub.T, s conversion.Scope) error {",
		} {
			if !strings.Contains(string(got), want) {
				t.Errorf("--extra-peer-dir %s: %s lacks\n%s\n---\n%s", peer, conversion, want, got)
			}
		}
		if first == nil {
			first = got
		} else if string(got) != string(first) {
			t.Errorf("--extra-peer-dir %s generated other conversions than the import path", peer)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "shared", "zz_generated.deepcopy.go")); !os.IsNotExist(err) {
		t.Errorf("the peer package was generated for as an input: %v", err)
	}
	if out, err := exec.Command("go", "build", "./...").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}
