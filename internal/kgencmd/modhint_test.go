package kgencmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeModule lays out a module of the given files in a new directory and makes it the working directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	module := t.TempDir()
	for name, content := range files {
		path := filepath.Join(module, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(module)
	return module
}

// newProjectFiles is a new CRD project as a user starts it: one +genclient type, and a go.mod that requires
// kgen (replaced by this checkout) and what the API types need, with go.sum, but lacks golang.org/x/time,
// which only kgen's runtime needs. goMod returns that go.mod with the extra requirement lines given.
func newProjectFiles(t *testing.T) (files map[string]string, goMod func(extra string) string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	kgenMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var requires strings.Builder
	for _, m := range regexp.MustCompile(`(?m)^\t(\S+) (v\S+)`).FindAllStringSubmatch(string(kgenMod), -1) {
		if m[1] != "golang.org/x/time" {
			requires.WriteString("require " + m[1] + " " + m[2] + "\n")
		}
	}
	goMod = func(extra string) string {
		return "module example.com/tidy\n\ngo 1.26.0\n\nrequire github.com/kgen-dev/kgen v0.0.0\n\nreplace github.com/kgen-dev/kgen => " +
			root + "\n\n" + requires.String() + extra
	}
	files = map[string]string{
		"go.sum":               string(sum),
		"api/things/v1/doc.go": "// +k8s:deepcopy-gen=package\n// +groupName=things.example.com\n\npackage v1\n",
		"api/things/v1/types.go": `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Thing is a test type.
type Thing struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ThingList is a list of Things.
type ThingList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitempty\"`" + `
	Items           []Thing ` + "`json:\"items\"`" + `
}
`,
	}
	return files, goMod
}

func TestGenerateSaysToTidyWhenGoModLacksWhatTheGeneratedCodeNeeds(t *testing.T) {
	files, goMod := newProjectFiles(t)
	files["go.mod"] = goMod("")
	module := writeModule(t, files)
	args := []string{"generate", "--output-dir", "./generated", "--output-pkg", "example.com/tidy/generated", "--with-watch", "api"}
	code, _, errOut := runKgen(t, args...)
	want := "kgen generate: the generated code needs modules " + filepath.Join(module, "go.mod") + " does not list yet ("
	if code != 0 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "run `go mod tidy` in "+module) {
		t.Fatalf("kgen generate = %d, stderr lacks the go mod tidy hint %q:\n%s", code, want, errOut)
	}

	// A rerun creates no package, so it asks nothing of the go command (go build names go mod tidy itself).
	if code, _, errOut = runKgen(t, args...); code != 0 || strings.Contains(errOut, "go mod tidy") {
		t.Fatalf("rerun = %d, stderr:\n%s\nwant no hint when no package is new", code, errOut)
	}

	// Once go.mod lists it, as go mod tidy would make it, the same run gives no hint.
	if err := os.WriteFile("go.mod", []byte(goMod("require golang.org/x/time v0.16.0\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll("generated")
	code, _, errOut = runKgen(t, args...)
	if code != 0 || strings.Contains(errOut, "go mod tidy") {
		t.Fatalf("kgen generate = %d with a complete go.mod, stderr:\n%s\nwant no go mod tidy hint", code, errOut)
	}
}
