package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The README's workflow, go generate over an API package and the generated packages, succeeds on the first
// run after a type loses +genclient: go generate has already listed the stale client file when client-gen
// runs, so client-gen leaves a build-ignored tombstone there, which the next run removes.
func TestGoGenerateSurvivesATypeLosingGenclient(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(wd, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	work, err := os.MkdirTemp(filepath.Join(wd, "testdata"), "gen-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	pkg := "github.com/kgen-dev/kgen/internal/generators/cli/testdata/" + filepath.Base(work)
	bin := filepath.Join(t.TempDir(), "client-gen")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/kgen-dev/kgen/cmd/client-gen").CombinedOutput(); err != nil {
		t.Fatalf("building client-gen: %v\n%s", err, out)
	}
	api := filepath.Join(work, "api", "widgets", "v1")
	types := func(gizmoTag string) string {
		return `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
import "k8s.io/apimachinery/pkg/runtime"

// +genclient

// Widget is a test type.
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitempty\"`" + `
	Items           []Widget
}

` + gizmoTag + `

// Gizmo is a test type.
type Gizmo struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
}

// GizmoList is a list of Gizmos.
type GizmoList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitempty\"`" + `
	Items           []Gizmo
}

func (in *Widget) DeepCopyObject() runtime.Object     { out := *in; return &out }
func (in *WidgetList) DeepCopyObject() runtime.Object { out := *in; return &out }
func (in *Gizmo) DeepCopyObject() runtime.Object      { out := *in; return &out }
func (in *GizmoList) DeepCopyObject() runtime.Object  { out := *in; return &out }

// SchemeGroupVersion is the group version of this package.
var SchemeGroupVersion = metav1.SchemeGroupVersion

// AddToScheme registers nothing; the clientset only needs it to exist.
func AddToScheme(*runtime.Scheme) error { return nil }
`
	}
	doc := "//go:generate " + bin + " --output-dir ../../../generated --output-pkg " + pkg + "/generated --clientset-name versioned --input-base ../.. --input widgets/v1 --fake-clientset=false\n\n" +
		"// +groupName=widgets.example.com\n\npackage v1\n"
	for name, content := range map[string]string{"doc.go": doc, "types.go": types("// +genclient")} {
		if err := os.MkdirAll(api, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(api, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	typed := filepath.Join(work, "generated", "versioned", "typed", "widgets", "v1")
	gizmo := filepath.Join(typed, "gizmo.go")
	// go generate's ./... skips testdata, so name the packages, the API package first as ./... would.
	goGenerate := func() string {
		t.Helper()
		args := []string{"generate", "./" + filepath.ToSlash(mustRel(t, wd, api))}
		if _, err := os.Stat(typed); err == nil {
			args = append(args, "./"+filepath.ToSlash(mustRel(t, wd, typed)))
		}
		out, err := exec.Command("go", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("go generate: %v\n%s", err, out)
		}
		return string(out)
	}
	goGenerate()
	if _, err := os.Stat(gizmo); err != nil {
		t.Fatal(err)
	}

	if err := os.WriteFile(filepath.Join(api, "types.go"), []byte(types("// No client for Gizmo any more.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := goGenerate(); !strings.Contains(out, "emptied stale ../../../generated/versioned/typed/widgets/v1/gizmo.go") {
		t.Fatalf("go generate did not report the tombstone:\n%s", out)
	}
	if out, err := exec.Command("go", "build", "./"+filepath.ToSlash(mustRel(t, wd, typed))).CombinedOutput(); err != nil {
		t.Fatalf("the typed client package does not build with the tombstone: %v\n%s", err, out)
	}
	if out := goGenerate(); !strings.Contains(out, "removed stale ../../../generated/versioned/typed/widgets/v1/gizmo.go") {
		t.Fatalf("the next run did not remove the tombstone:\n%s", out)
	}
	if _, err := os.Stat(gizmo); !os.IsNotExist(err) {
		t.Fatalf("tombstone %s still there: %v", gizmo, err)
	}
}

func mustRel(t *testing.T, base, target string) string {
	t.Helper()
	rel, err := filepath.Rel(base, target)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
