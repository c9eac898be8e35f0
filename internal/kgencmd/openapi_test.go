package kgencmd

import (
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
