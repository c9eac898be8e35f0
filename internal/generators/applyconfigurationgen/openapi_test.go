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

// TestOpenAPISchemaFallback checks a document keyed by Go import path (sample-controller's models-schema
// output) and one lacking types: the definitions it has are used under their model names, the types it
// lacks get the schema derived from Go and still have extractors, and one warning names them.
func TestOpenAPISchemaFallback(t *testing.T) {
	for _, tc := range []struct {
		doc, input string
		lacking    []string
		fromDoc    []string
	}{
		{"testdata/openapi/gopath.json", "example", []string{"github.com/kgen-dev/kgen/testdata/apis/example/v1.ClusterTestType"},
			[]string{"elementRelationship: associative"}}, // the document's x-kubernetes-list-type: set
		{"testdata/openapi/swagger.json", "example2", []string{
			"github.com/kgen-dev/kgen/testdata/apis/example2/v1.Fish, github.com/kgen-dev/kgen/testdata/apis/example2/v1.Gadget, github.com/kgen-dev/kgen/testdata/apis/example2/v1.Marker"}, nil},
	} {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		err := cli.ApplyConfigurationGen([]string{"--output-dir", out, "--output-pkg", "example.com/ac",
			"--openapi-schema", tc.doc, "../../../testdata/apis/" + tc.input + "/v1"}, &stdout, &stderr)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.doc, err, stderr.String())
		}
		warnings := strings.Count(stderr.String(), "warning:")
		want := "applyconfiguration-gen: warning: --openapi-schema " + tc.doc + " has no definition of " + strings.Join(tc.lacking, ", ") + "; their schema is derived from the Go types\n"
		if warnings != 1 || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: stderr %q, want the one warning %q", tc.doc, stderr.String(), want)
		}
		src, err := os.ReadFile(filepath.Join(out, "internal", "internal.go"))
		if err != nil {
			t.Fatal(err)
		}
		schema := string(src)
		for _, lacking := range tc.lacking {
			for _, typ := range strings.Split(lacking, ", ") {
				dot := strings.LastIndex(typ, ".")
				name := "name: " + strings.ReplaceAll(strings.Replace(typ[:dot], "github.com", "com.github", 1), "/", ".") + typ[dot:]
				if !strings.Contains(schema, name) {
					t.Errorf("%s: schema lacks the derived %q", tc.doc, name)
				}
				file := filepath.Join(out, tc.input, "v1", strings.ToLower(typ[dot+1:])+".go")
				if ac, err := os.ReadFile(file); err != nil || !strings.Contains(string(ac), "func Extract"+typ[dot+1:]+"(") {
					t.Errorf("%s: %s has no Extract%s (%v)", tc.doc, file, typ[dot+1:], err)
				}
			}
		}
		for _, want := range append(tc.fromDoc, "name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta") {
			if !strings.Contains(schema, want) {
				t.Errorf("%s: schema lacks %q", tc.doc, want)
			}
		}
		if strings.Contains(schema, "name: k8s.io") || strings.Contains(schema, "name: github.com") {
			t.Errorf("%s: schema keeps a Go-path name:\n%s", tc.doc, schema)
		}
	}
}
