package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// versionedTypes are the types of a versioned API package: they embed TypeMeta inline.
const versionedTypes = "import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n" +
	"// +genclient\n\n// Foo is a test type.\ntype Foo struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n}\n" +
	"\n// FooList is a list of Foo.\ntype FooList struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ListMeta `json:\"metadata,omitempty\"`\n\tItems []Foo `json:\"items\"`\n}\n"

// lintModule writes a module whose API package has doc.go lines doc and types.go types.
func lintModule(t *testing.T, doc, types string) string {
	t.Helper()
	dir := writeModule(t, types)
	if err := os.WriteFile(filepath.Join(dir, "apis", "grp", "v1", "doc.go"), []byte(doc+"package v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLintKnownTagsOnly(t *testing.T) {
	doc := "// +groupName=grp.example.com\n// +k8s:deepcopy-gen=package\n// +k8s:deepcopy-gen-package=true\n// +k8s:openapi-gen=true\n// +k8s:frobnicate-gen:x=1\n// +k8s:conversion-gen-external-types=example.com/x\n" +
		"// +kubebuilder:validation:Optional\n// +kubebuilder:object:generate=true\n// +kubebuilder:validation:Optinal\n"
	dir := lintModule(t, doc, versionedTypes)
	if _, err := loadModel([]string{"./apis/..."}, dir, Options{}); err != nil {
		t.Fatalf("without lint rules unknown tags are ignored: %v", err)
	}
	_, err := loadModel([]string{"./apis/..."}, dir, Options{LintRules: []string{LintKnownTagsOnly}})
	var tagErr *TagError
	if !errors.As(err, &tagErr) {
		t.Fatalf("Load error = %v; want TagErrors", err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 {
		t.Fatalf("Load error = %v; want the three unknown tags", err)
	}
	if want := filepath.Join("grp", "v1", "doc.go:9: +kubebuilder:validation:Optinal: unknown package tag"); !strings.Contains(lines[2], want) {
		t.Errorf("error line %q; want %q", lines[2], want)
	}
	lines = lines[:2]
	for i, want := range []string{"doc.go:3: +k8s:deepcopy-gen-package=true: unknown generator tag", "doc.go:5: +k8s:frobnicate-gen:x=1: unknown generator tag"} {
		if !strings.Contains(lines[i], filepath.Join("grp", "v1", want)) || !strings.Contains(lines[i], "known: +k8s:conversion-gen,") {
			t.Errorf("error line %q; want %q and the known tags", lines[i], want)
		}
	}
}

func TestLintRequireExplicitDisablement(t *testing.T) {
	explicit := []string{LintRequireExplicitDisablement}
	for _, tc := range []struct {
		name, doc, types, want string
	}{
		{"versioned types need deepcopy-gen", "// +groupName=grp.example.com\n", versionedTypes,
			"doc.go:2: +k8s:deepcopy-gen: missing (require-explicit-disablement): this package holds versioned API types; set +k8s:deepcopy-gen=<package or false> in doc.go"},
		{"disabled explicitly", "// +groupName=grp.example.com\n// +k8s:deepcopy-gen=false\n", versionedTypes, ""},
		{"enabled", "// +groupName=grp.example.com\n// +k8s:deepcopy-gen=package\n", versionedTypes, ""},
		{"not an API package", "\n", strings.Replace(versionedTypes, "// +genclient\n\n", "", 1), ""},
		{"per-version internals need conversion, defaulter and validation", "// +groupName=grp.example.com\n// +k8s:defaulter-gen=TypeMeta\n",
			"// Foo is a test type.\ntype Foo struct{}\n",
			"doc.go:3: +k8s:conversion-gen: missing (require-explicit-disablement): this package holds per-version internals (conversion, defaulting, validation); set +k8s:conversion-gen=<peer-package or false> in doc.go\n" +
				"doc.go:3: +k8s:validation-gen: missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := lintModule(t, tc.doc, tc.types)
			_, err := loadModel([]string{"./apis/..."}, dir, Options{LintRules: explicit})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Load error = %v; want none", err)
			case tc.want != "":
				// One error per line, each containing its wanted line.
				wantLines := strings.Split(tc.want, "\n")
				gotLines := strings.Split(fmt.Sprint(err), "\n")
				if len(gotLines) != len(wantLines) {
					t.Fatalf("Load error = %v; want %d lines", err, len(wantLines))
				}
				for i, w := range wantLines {
					if !strings.Contains(gotLines[i], w) {
						t.Errorf("error line %q; want it to contain %q", gotLines[i], w)
					}
				}
			}
		})
	}
}

func TestValidateLintRules(t *testing.T) {
	if err := ValidateLintRules([]string{LintKnownTagsOnly, LintRequireExplicitDisablement}); err != nil {
		t.Fatal(err)
	}
	if err := ValidateLintRules([]string{"known-tags"}); err == nil || !strings.Contains(err.Error(), "unrecognized rule in --lint-rules: known-tags") {
		t.Fatalf("ValidateLintRules = %v", err)
	}
}
