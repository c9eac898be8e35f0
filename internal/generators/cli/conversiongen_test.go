package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
)

// TestConversionGenLoadsUnimportedPeer: conversion-gen given only a version package that does not import
// its peer (no hand-written conversions) loads the peer too, and writes the file of the given package only.
func TestConversionGenLoadsUnimportedPeer(t *testing.T) {
	dir, pkg := testmodule.WorkDir(t, "github.com/kgen-dev/kgen/internal/generators/cli")
	for name, content := range map[string]string{
		"hub/types.go":   "package hub\n\ntype T struct{ A string }\n",
		"v1/doc.go":      "// +k8s:conversion-gen=" + pkg + "/hub\n\npackage v1\n",
		"v1/types.go":    "package v1\n\ntype T struct{ A string }\n",
		"v1/register.go": "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime\"\n\nvar (\n\tSchemeBuilder      runtime.SchemeBuilder\n\tlocalSchemeBuilder = &SchemeBuilder\n)\n",
		"v2/doc.go":      "// +k8s:conversion-gen=" + pkg + "/hub\n\npackage v2\n",
		"v2/types.go":    "package v2\n\ntype T struct{ A string }\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := cli.ConversionGen([]string{"--output-file", "zz_generated.conversion.go", filepath.Join(dir, "v1")}, &stdout, &stderr); err != nil {
		t.Fatalf("conversion-gen: %v\n%s", err, stderr.String())
	}
	code := read(t, filepath.Join(dir, "v1", "zz_generated.conversion.go"))
	if !strings.Contains(code, "func Convert_v1_T_To_hub_T(in *T, out *hub.T, s conversion.Scope) error {") {
		t.Errorf("no conversion to the hub:\n%s", code)
	}
	if exists(filepath.Join(dir, "v2", "zz_generated.conversion.go")) || exists(filepath.Join(dir, "hub", "zz_generated.conversion.go")) {
		t.Error("wrote files for packages that were not given")
	}
}
