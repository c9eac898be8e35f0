package openapigen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/openapigen"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// loadPackage writes a module with one package of the given types.go under a temporary directory and
// loads it.
func loadPackage(t *testing.T, typesGo string) *load.Program {
	t.Helper()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "api", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		filepath.Join(dir, "go.mod"):   "module example.com/bad\n\ngo 1.24\n",
		filepath.Join(pkg, "doc.go"):   "// +k8s:openapi-gen=true\npackage v1\n",
		filepath.Join(pkg, "types.go"): typesGo,
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog, err := load.Load(load.Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func generate(t *testing.T, prog *load.Program) (*output.Set, openapigen.Result, error) {
	t.Helper()
	set := output.NewSet(openapigen.Generator)
	cfg := openapigen.Config{OutputDir: t.TempDir(), OutputPkg: "example.com/bad/openapi", OutputFile: "zz_generated.openapi.go", ModelNameFile: "zz_generated.model_name.go"}
	res, err := openapigen.Generate(prog, prog.Packages, cfg, set)
	return set, res, err
}

// TestBadInputs checks that each malformed or unsupported use fails the run with the position of the
// field or type and the problem, and adds no file.
func TestBadInputs(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"optional and required": {
			"package v1\n\ntype T struct {\n\t// +optional\n\t// +required\n\tA string `json:\"a\"`\n}\n",
			"types.go:6:2: member A cannot be both optional and required"},
		"default not JSON": {
			"package v1\n\ntype T struct {\n\t// +default={x\n\tA *string `json:\"a,omitempty\"`\n}\n",
			"types.go:5:2: +default={x: failed to unmarshal default"},
		"default against the enforced zero": {
			"package v1\n\ntype T struct {\n\t// +default=3\n\tA int32 `json:\"a\"`\n}\n",
			"types.go:5:2: A: invalid default value (3) for non-pointer/non-omitempty. If specified, must be: 0"},
		"patch tags differ": {
			"package v1\n\ntype T struct {\n\t// +patchMergeKey=name\n\t// +listType=atomic\n\tA []string `json:\"a\"`\n}\n",
			"types.go:6:2: tags in comment and struct should match for member (A) of (example.com/bad/api/v1.T)"},
		"map with int keys": {
			"package v1\n\ntype T struct {\n\tA map[int]string `json:\"a\"`\n}\n",
			"types.go:4:2: A: map with non-string keys are not supported by OpenAPI"},
		"union": {
			"package v1\n\n// +union\ntype T struct {\n\tA string `json:\"a\"`\n}\n",
			"types.go:4:6: +union: unions are not supported"},
		"validation marker": {
			"package v1\n\ntype T struct {\n\t// +k8s:validation:maxLength=3\n\tA string `json:\"a\"`\n}\n",
			"types.go:5:2: +k8s:validation:maxLength: +k8s:validation: markers are not supported"},
		"empty model package": {
			"package v1\n\n// +k8s:openapi-model-package=\ntype T struct {\n\tA string `json:\"a\"`\n}\n",
			"types.go:4:6: +k8s:openapi-model-package needs a value"},
	} {
		t.Run(name, func(t *testing.T) {
			set, _, err := generate(t, loadPackage(t, tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v; want it to contain %q", err, tc.want)
			}
			if set.Len() != 0 {
				t.Errorf("a failed run added %d files", set.Len())
			}
		})
	}
}

// TestUnselectedTypesAreLeftOut checks the selection: a package tag selects every struct type but those
// tagged false; unexported types get a schema function but no map entry; non-struct types get nothing.
func TestUnselectedTypesAreLeftOut(t *testing.T) {
	prog := loadPackage(t, "package v1\n\ntype A struct{ X string `json:\"x\"` }\n\n// +k8s:openapi-gen=false\ntype B struct{}\n\ntype c struct{ Y string `json:\"y\"` }\n\ntype D string\n")
	set, res, err := generate(t, prog)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 1 {
		t.Fatalf("got %d files, want the definitions only (no model package)", set.Len())
	}
	src := string(set.Content(set.Paths()[0]))
	for _, want := range []string{`"example.com/bad/api/v1.A": schema_examplecom_bad_api_v1_A(ref),`, "func schema_examplecom_bad_api_v1_c("} {
		if !strings.Contains(src, want) {
			t.Errorf("definitions lack %q:\n%s", want, src)
		}
	}
	for _, unwanted := range []string{"v1.B", "_B(", "v1.c\"", "_D("} {
		if strings.Contains(src, unwanted) {
			t.Errorf("definitions contain %q:\n%s", unwanted, src)
		}
	}
	if len(res.Violations) != 0 {
		t.Errorf("violations: %q", res.Violations)
	}
}

// TestShadowedInlineMember checks that a property an inline member shares with its outer struct is
// written once, from the outer field, as encoding/json resolves it (kube-openapi writes both, a
// duplicate map key that does not compile), and that a tie at one depth drops the name.
func TestShadowedInlineMember(t *testing.T) {
	prog := loadPackage(t, "package v1\n\ntype Base struct {\n\tA string `json:\"a\"`\n\tB string `json:\"b\"`\n}\n\ntype Other struct {\n\tB string `json:\"b\"`\n}\n\n"+
		"type T struct {\n\t// +optional\n\tA []string `json:\"a,omitempty\"`\n\tBase `json:\",inline\"`\n\tOther `json:\",inline\"`\n}\n")
	set, _, err := generate(t, prog)
	if err != nil {
		t.Fatal(err)
	}
	src := string(set.Content(set.Paths()[0]))
	_, body, _ := strings.Cut(src, "func schema_examplecom_bad_api_v1_T(")
	body, _, _ = strings.Cut(body, "\n}\n")
	if strings.Count(body, `"a": {`) != 1 || !strings.Contains(body, `Type: []string{"array"}`) {
		t.Errorf("want one property a, the outer list:\n%s", body)
	}
	if strings.Contains(body, `"b": {`) || strings.Contains(body, "Required") {
		t.Errorf("want b (two inline members at one depth) dropped and nothing required:\n%s", body)
	}
}
