package applyconfigurationgen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
)

// TestOpenAPISchemaFlag checks that --openapi-schema replaces the derived schema with the document's
// definitions that the +genclient types reach, converted to structured-merge-diff.
func TestOpenAPISchemaFlag(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := cli.ApplyConfigurationGen([]string{"--output-dir", out, "--output-pkg", "example.com/ac",
		"--openapi-schema", "testdata/openapi/swagger.json", "../../../testdata/apis/example/v1"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	src, err := os.ReadFile(filepath.Join(out, "internal", "internal.go"))
	if err != nil {
		t.Fatal(err)
	}
	schema := string(src)
	for _, want := range []string{
		"name: com.github.kgen-dev.kgen.testdata.apis.example.v1.TestTypeSpec",
		"name: ports",
		"elementRelationship: associative", // x-kubernetes-list-type: set
		"name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
	} {
		if !strings.Contains(schema, want) {
			t.Errorf("schema lacks %q:\n%s", want, schema)
		}
	}
	for _, unwanted := range []string{"com.example.Unreferenced", "ManagedFieldsEntry"} {
		if strings.Contains(schema, unwanted) {
			t.Errorf("schema has %q, which no +genclient type reaches in the document", unwanted)
		}
	}
}

func TestOpenAPISchemaFlagErrors(t *testing.T) {
	for file, want := range map[string]string{
		"testdata/openapi/missing.json": "no such file",
		"testdata/bad/v1/doc.go":        "invalid character",
	} {
		var stdout, stderr bytes.Buffer
		err := cli.ApplyConfigurationGen([]string{"--output-dir", t.TempDir(), "--output-pkg", "example.com/ac",
			"--openapi-schema", file, "../../../testdata/apis/example/v1"}, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--openapi-schema") {
			t.Errorf("--openapi-schema %s: error %v, want one saying %q", file, err, want)
		}
	}
}

// TestOpenAPISchemaMissing checks documents lacking definitions under the types' OpenAPI model names,
// among them one keyed by Go import path (sample-controller's models-schema writes them so): as
// code-generator does, those types get the empty, untyped definition (and still an extractor), nothing
// is looked up by Go import path, and one warning names them.
func TestOpenAPISchemaMissing(t *testing.T) {
	for _, tc := range []struct {
		doc, input string
		lacking    []string
	}{
		{"testdata/openapi/gopath.json", "example", []string{
			"com.github.kgen-dev.kgen.testdata.apis.example.v1.ClusterTestType", "com.github.kgen-dev.kgen.testdata.apis.example.v1.TestType"}},
		{"testdata/openapi/swagger.json", "example2", []string{
			"com.github.kgen-dev.kgen.testdata.apis.example2.v1.Fish", "com.github.kgen-dev.kgen.testdata.apis.example2.v1.Gadget", "com.github.kgen-dev.kgen.testdata.apis.example2.v1.Marker"}},
	} {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		err := cli.ApplyConfigurationGen([]string{"--output-dir", out, "--output-pkg", "example.com/ac",
			"--openapi-schema", tc.doc, "../../../testdata/apis/" + tc.input + "/v1"}, &stdout, &stderr)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.doc, err, stderr.String())
		}
		warnings := strings.Count(stderr.String(), "warning:")
		want := "applyconfiguration-gen: warning: --openapi-schema " + tc.doc + " has no definition named " + strings.Join(tc.lacking, ", ") +
			" (definitions are looked up by OpenAPI model name, not by Go import path); their extractors and type converter treat them as untyped, as code-generator's do\n"
		if warnings != 1 || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: stderr %q, want the one warning %q", tc.doc, stderr.String(), want)
		}
		src, err := os.ReadFile(filepath.Join(out, "internal", "internal.go"))
		if err != nil {
			t.Fatal(err)
		}
		schema := string(src)
		for _, name := range tc.lacking {
			if !strings.Contains(schema, "- name: "+name+"\n  scalar: untyped\n") {
				t.Errorf("%s: schema lacks the untyped %s:\n%s", tc.doc, name, schema)
			}
			typ := name[strings.LastIndex(name, ".")+1:]
			file := filepath.Join(out, tc.input, "v1", strings.ToLower(typ)+".go")
			if ac, err := os.ReadFile(file); err != nil || !strings.Contains(string(ac), "func Extract"+typ+"(") {
				t.Errorf("%s: %s has no Extract%s (%v)", tc.doc, file, typ, err)
			}
		}
		if strings.Contains(schema, "name: k8s.io") || strings.Contains(schema, "name: github.com") || strings.Contains(schema, "ObjectMeta") {
			t.Errorf("%s: schema has definitions no model name reaches:\n%s", tc.doc, schema)
		}
	}
}
