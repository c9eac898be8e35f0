package kgencmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/output"
)

func TestUnrequiredImportsNamesWhatGoModLacks(t *testing.T) {
	root := t.TempDir()
	goMod := "module example.com/crd\n\ngo 1.26\n\nrequire k8s.io/apimachinery v0.37.2\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	set := output.NewSet("client-gen", root)
	set.Add(filepath.Join(root, "generated", "clientset", "versioned", "clientset.go"), []byte(`package versioned

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/gentype"
	v1 "example.com/crd/api/v1"
)
`))
	set.Add(filepath.Join(root, "config", "crd", "example.com_widgets.yaml"), []byte("not go"))
	got := unrequiredImports([]*output.Set{set})
	want := []string{"github.com/kgen-dev/kgen/runtime/gentype", "github.com/kgen-dev/kgen/runtime/rest"}
	if !slices.Equal(got, want) {
		t.Fatalf("unrequiredImports = %q, want %q (the standard library, the module itself and required modules are provided)", got, want)
	}

	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(goMod+"require github.com/kgen-dev/kgen v0.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := unrequiredImports([]*output.Set{set}); len(got) != 0 {
		t.Fatalf("unrequiredImports = %q once go.mod requires kgen, want none", got)
	}
}

func TestUnrequiredImportsIgnoresFilesOutsideAModule(t *testing.T) {
	root := t.TempDir()
	set := output.NewSet("deepcopy-gen", root)
	set.Add(filepath.Join(root, "zz_generated.deepcopy.go"), []byte("package v1\n\nimport \"example.com/elsewhere\"\n"))
	if got := unrequiredImports([]*output.Set{set}); len(got) != 0 {
		t.Fatalf("unrequiredImports = %q for a file in no module, want none", got)
	}
}

func TestModHintNamesImportsAndTheCommand(t *testing.T) {
	got := modHint([]string{"a.io/x", "b.io/y", "c.io/z", "d.io/w", "e.io/v"})
	for _, want := range []string{"a.io/x, b.io/y, c.io/z and 2 more", "go mod tidy"} {
		if !strings.Contains(got, want) {
			t.Errorf("modHint = %q, want it to contain %q", got, want)
		}
	}
}
