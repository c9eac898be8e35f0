package applyconfigurationgen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/applyconfigurationgen"
	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// TestMetaApplyConfigurationsAreCurrent regenerates runtime/applyconfigurations/meta/v1 in memory and
// fails with a diff if the committed files differ.
func TestMetaApplyConfigurationsAreCurrent(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "runtime", "applyconfigurations", "meta", "v1")
	common := run.Common{GoHeaderFile: filepath.Join("..", "..", "..", "hack", "boilerplate.go.txt")}
	header, err := common.Header()
	if err != nil {
		t.Fatal(err)
	}
	set := output.NewSet(applyconfigurationgen.Generator, dir)
	cfg := applyconfigurationgen.Config{OutputDir: dir, OutputPkg: applyconfigurationgen.MetaPkg, Header: header,
		Externals: map[string]string{}, Roots: applyconfigurationgen.MetaTypes}
	if err := applyconfigurationgen.Generate([]string{"k8s.io/apimachinery/pkg/apis/meta/v1"}, cfg, set); err != nil {
		t.Fatal(err)
	}
	if set.Len() != len(applyconfigurationgen.MetaTypes) {
		t.Errorf("generated %d files for %d meta types", set.Len(), len(applyconfigurationgen.MetaTypes))
	}
	var diff bytes.Buffer
	if differing, err := set.Verify(&diff); err != nil || differing != 0 {
		t.Fatalf("runtime/applyconfigurations/meta/v1 is not current (go generate it): %v\n%s", err, diff.String())
	}
}

// TestBadTagWritesNothing checks that a malformed tag fails the run with its file:line and the tag,
// and that nothing is written.
func TestBadTagWritesNothing(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := cli.ApplyConfigurationGen([]string{"--output-dir", out, "--output-pkg", "example.com/ac", "./testdata/bad/v1"}, &stdout, &stderr)
	if err == nil {
		t.Fatal("generation succeeded")
	}
	if !strings.Contains(err.Error(), filepath.Join("testdata", "bad", "v1", "types.go")+":18") || !strings.Contains(err.Error(), "+listType=bogus") {
		t.Errorf("error %q does not name types.go:18 and the tag", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a failed run wrote %d entries", len(entries))
	}
}

func TestExternalApplyConfigurationsFlag(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"k8s.io/api/core/v1.PodSpec", "form"},
		{"PodSpec:example.com/ac", "form"},
		{"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta:example.com/ac", "duplicate"},
		{"k8s.io/api/core/v1.PodSpec:example.com/ac,k8s.io/api/core/v1.PodSpec:example.com/other", "duplicate"},
	} {
		var stdout, stderr bytes.Buffer
		err := cli.ApplyConfigurationGen([]string{"--output-dir", t.TempDir(), "--output-pkg", "example.com/ac",
			"--external-applyconfigurations", tc.value, "./testdata/bad/v1"}, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--external-applyconfigurations %s: error %v, want one saying %q", tc.value, err, tc.want)
		}
	}
}

// TestPackageOptOut checks that +k8s:applyconfiguration-gen=false in doc.go leaves a package out.
func TestPackageOptOut(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := cli.ApplyConfigurationGen([]string{"--output-dir", out, "--output-pkg", "example.com/ac", "./testdata/optout/v1"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "optout", "v1")); !os.IsNotExist(err) {
		t.Errorf("the opted-out package got apply configurations (%v)", err)
	}
	utils, err := os.ReadFile(filepath.Join(out, "utils.go"))
	if err != nil || strings.Contains(string(utils), "Skipped") {
		t.Errorf("utils.go mentions the opted-out type or is missing: %v", err)
	}
}
