package applyconfigurationgen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
	"github.com/kgen-dev/kgen/runtime/applyconfigurations"
)

// sampleController ships apply configurations code-generator made with --openapi-schema from its
// models-schema command's output (testdata/samplecontroller/models-schema.json is that output, recorded);
// code-generator v0.37.2 makes the same internal.go from it.
const sampleController = "k8s.io/sample-controller@v0.36.3"

// fooType is Foo's OpenAPI model name. models-schema keys Foo's definition by Go import path, under which
// code-generator does not look it up: Foo's schema is the empty (untyped) one.
const fooType = "io.k8s.sample-controller.pkg.apis.samplecontroller.v1alpha1.Foo"

// TestOpenAPISchemaSameAsCodeGenerator generates sample-controller's apply configurations with its
// recorded models-schema output and checks that the schema they extract with is code-generator's, and
// that extraction and the type converter's field sets agree with code-generator's on an object whose
// managedFields a real kube-apiserver wrote (testdata/samplecontroller/foo.json: alice applied spec,
// labels and a finalizer, bob force-applied replicas and a finalizer, alice applied status, carol added a
// finalizer with an update).
func TestOpenAPISchemaSameAsCodeGenerator(t *testing.T) {
	schemaFile, err := filepath.Abs("testdata/samplecontroller/models-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := os.ReadFile("testdata/samplecontroller/foo.json")
	if err != nil {
		t.Fatal(err)
	}
	src := testmodule.Download(t, sampleController)
	work := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testmodule.CopyGoFiles(t, filepath.Join(src, "pkg/apis"), filepath.Join(work, "pkg/apis"), "", "")
	t.Chdir(work)
	var stdout, stderr bytes.Buffer
	err = cli.ApplyConfigurationGen([]string{"--output-dir", "out", "--output-pkg", "k8s.io/sample-controller/pkg/generated/applyconfiguration",
		"--openapi-schema", schemaFile, "./pkg/apis/samplecontroller/v1alpha1"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "has no definition named "+fooType+" (definitions are looked up by OpenAPI model name, not by Go import path)") {
		t.Errorf("no warning about Foo's definition keyed by Go import path:\n%s", stderr.String())
	}
	ours := schemaText(t, filepath.Join(work, "out/internal/internal.go"))
	theirs := schemaText(t, filepath.Join(src, "pkg/generated/applyconfiguration/internal/internal.go"))
	if ours != theirs {
		t.Fatalf("schema differs from code-generator's:\nkgen:\n%s\ncode-generator:\n%s", ours, theirs)
	}

	ourParser, err := typed.NewParser(typed.YAMLObject(ours))
	if err != nil {
		t.Fatal(err)
	}
	theirParser, err := typed.NewParser(typed.YAMLObject(theirs))
	if err != nil {
		t.Fatal(err)
	}
	obj := &unstructured.Unstructured{}
	if err := json.Unmarshal(recorded, &obj.Object); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		manager, subresource string
		finalizers           []any
	}{
		{"alice", "", []any{"example.com/alice", "example.com/bob", "example.com/carol"}},
		{"bob", "", []any{"example.com/alice", "example.com/bob", "example.com/carol"}},
		{"alice", "status", nil},
		{"bob", "status", nil},
		{"carol", "", nil}, // an update, not an apply: nothing to extract
		{"nobody", "", nil},
	} {
		var got, want map[string]any
		if err := applyconfigurations.ExtractInto(obj, ourParser, fooType, c.manager, &got, c.subresource); err != nil {
			t.Fatal(err)
		}
		if err := managedfields.ExtractInto(obj, theirParser.Type(fooType), c.manager, &want, c.subresource); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %q: kgen extracts %v, code-generator %v", c.manager, c.subresource, got, want)
		}
		meta, _ := got["metadata"].(map[string]any)
		if f := meta["finalizers"]; !reflect.DeepEqual(f, any(c.finalizers)) && !(f == nil && c.finalizers == nil) {
			t.Errorf("%s %q: finalizers %v, want %v", c.manager, c.subresource, f, c.finalizers)
		}
	}
	ourSet, err := ourParser.Type(fooType).FromUnstructured(obj.Object)
	if err != nil {
		t.Fatal(err)
	}
	theirSet, err := theirParser.Type(fooType).FromUnstructured(obj.Object)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ourSet.ToFieldSet()
	if err != nil {
		t.Fatal(err)
	}
	b, err := theirSet.ToFieldSet()
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equals(b) {
		t.Errorf("type converter field sets differ:\nkgen:\n%s\ncode-generator:\n%s", a, b)
	}
}

// schemaText is the schema YAML of a generated internal.go.
func schemaText(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "YAMLObject(`")
	text, _, ok2 := strings.Cut(rest, "`)")
	if !ok || !ok2 {
		t.Fatalf("%s has no schema literal", file)
	}
	return text
}
