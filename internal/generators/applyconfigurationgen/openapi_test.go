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
	// A document without the +genclient types' definitions is refused.
	var stdout, stderr bytes.Buffer
	err := cli.ApplyConfigurationGen([]string{"--output-dir", t.TempDir(), "--output-pkg", "example.com/ac",
		"--openapi-schema", "testdata/openapi/swagger.json", "../../../testdata/apis/example2/v1"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "no definition") {
		t.Errorf("a document without the types' definitions: error %v", err)
	}
}
