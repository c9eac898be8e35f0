package kgencmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateRejectsBadOpenAPIArguments(t *testing.T) {
	t.Chdir("../../testdata")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--openapi-output-dir", "x", "apis"}, "--openapi-output-dir and --openapi-output-pkg go together"},
		{[]string{"generate", "--openapi-report-filename", "r.list", "apis"}, "the --openapi-* flags need --openapi-output-dir and --openapi-output-pkg"},
		{[]string{"generate", "--openapi-output-dir", "x", "--openapi-output-pkg", "example.com/x", "--openapi-update-report", "apis"},
			"--openapi-update-report needs --openapi-report-filename"},
		{[]string{"generate", "--skip", "openapi,bogus", "apis"}, `--skip: unknown generator "bogus"`},
	} {
		if code, _, errOut := runKgen(t, tc.args...); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("kgen %q = %d, %q; want an error containing %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestGenerateHelpNamesTheOpenAPIStep(t *testing.T) {
	code, out, _ := runKgen(t, "help", "generate")
	if code != 0 {
		t.Fatalf("kgen help generate = %d", code)
	}
	for _, want := range []string{"openapi ", "gen_openapi", "--openapi-output-dir", "--openapi-output-pkg", "--openapi-model-name-file", "--openapi-report-filename", "--openapi-update-report", "--openapi-extra-pkgs"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

// TestGenerateOpenAPIExtraPackageFromTheOneLoad: a package of --openapi-extra-pkgs outside the input tree
// gets definitions with its comments as descriptions, yet is no input (its deepcopy tag writes nothing
// there), and an edit of it is noticed by the rerun's record.
func TestGenerateOpenAPIExtraPackageFromTheOneLoad(t *testing.T) {
	work, workPkg := workDir(t)
	writeTree(t, filepath.Join(work, "api", "shop", "v1beta1"), shopV1beta1)
	gadget := func(doc string) map[string]string {
		return map[string]string{"doc.go": `// +k8s:openapi-gen=true
// +k8s:deepcopy-gen=package

// Package extra holds types API packages share.
package extra
`, "gadget.go": `package extra

// Gadget is shared.
type Gadget struct {
	// ` + doc + `
	Size int32 ` + "`json:\"size\"`" + `
}
`}
	}
	extraDir := filepath.Join(work, "extra")
	writeTree(t, extraDir, gadget("Size is big."))
	t.Chdir(work)
	args := []string{"generate", "--openapi-output-dir", "./openapi", "--openapi-output-pkg", workPkg + "/openapi",
		"--openapi-extra-pkgs", workPkg + "/extra", "./api"}
	if code, _, errOut := runKgen(t, args...); code != 0 {
		t.Fatalf("kgen generate = %d\n%s", code, errOut)
	}
	settle(t, args...)
	definitions := func() string {
		b, err := os.ReadFile(filepath.Join(work, "openapi", "zz_generated.openapi.go"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := definitions(); !strings.Contains(got, `"`+workPkg+`/extra.Gadget":`) || !strings.Contains(got, `Description: "Size is big.",`) {
		t.Errorf("definitions lack the extra package's Gadget with its description:\n%s", got)
	}
	if entries, err := os.ReadDir(extraDir); err != nil || len(entries) != 2 {
		t.Errorf("the extra package got files: %v %v", entries, err)
	}
	writeTree(t, extraDir, gadget("Size is huge."))
	rerun(t, "editing the extra package", args...)
	if got := definitions(); !strings.Contains(got, `Description: "Size is huge.",`) {
		t.Errorf("the rerun kept the old description:\n%s", got)
	}
}
