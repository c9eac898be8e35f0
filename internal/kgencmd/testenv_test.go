package kgencmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runKgen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestTestenvPrintsTheDirectoryNamedByTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		if err := os.WriteFile(filepath.Join(dir, bin), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("KGEN_TESTENV_ASSETS", "")
	t.Setenv("KUBEBUILDER_ASSETS", dir)
	if code, out, errOut := runKgen(t, "testenv"); code != 0 || out != dir+"\n" {
		t.Fatalf("kgen testenv = %d, %q, %q; want %s", code, out, errOut, dir)
	}
	t.Setenv("KGEN_TESTENV_ASSETS", t.TempDir())
	code, _, errOut := runKgen(t, "testenv")
	if code != 1 || !strings.Contains(errOut, "$KGEN_TESTENV_ASSETS=") || !strings.Contains(errOut, "has no kube-apiserver binary") {
		t.Fatalf("kgen testenv with an empty asset directory = %d, %q", code, errOut)
	}
}

func TestTestenvListsCachedVersions(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"v1.37.2", "v1.36.3"} {
		os.MkdirAll(filepath.Join(root, v), 0o755)
		for _, name := range []string{"kube-apiserver", "etcd", "stamp"} {
			if err := os.WriteFile(filepath.Join(root, v, name), nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	if code, out, errOut := runKgen(t, "testenv", "list", "--cache-dir", root); code != 0 || out != "v1.36.3\nv1.37.2\n" {
		t.Fatalf("kgen testenv list = %d, %q, %q", code, out, errOut)
	}
}

func TestTestenvRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"testenv", "lst"},
		{"testenv", "--kubernetes-version", "1.37"},
		{"testenv", "update-deps", "v1.37.2", "--module-dir", filepath.Join(t.TempDir(), "missing")},
	} {
		t.Setenv("KGEN_TESTENV_ASSETS", "")
		t.Setenv("KUBEBUILDER_ASSETS", "")
		if code, _, errOut := runKgen(t, args...); code != 1 || !strings.HasPrefix(errOut, "kgen testenv: ") {
			t.Errorf("kgen %q = %d, %q; want exit 1 with a kgen testenv error", args, code, errOut)
		}
	}
}

func TestHelpAndUnknownSubcommands(t *testing.T) {
	if code, out, _ := runKgen(t); code != 0 || !strings.Contains(out, "testenv") {
		t.Fatalf("kgen = %d, %q; want usage listing testenv", code, out)
	}
	code, out, _ := runKgen(t, "help", "testenv")
	if code != 0 {
		t.Fatalf("kgen help testenv = %d", code)
	}
	for _, want := range []string{"go run github.com/kgen-dev/kgen/cmd/kgen testenv", "--kubernetes-version", "--cache-dir", "list"} {
		if !strings.Contains(out, want) {
			t.Errorf("kgen help testenv lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "vmodule") {
		t.Errorf("kgen help testenv shows klog's flags:\n%s", out)
	}
	if code, _, errOut := runKgen(t, "generat"); code != 2 || !strings.Contains(errOut, `unknown subcommand "generat"`) {
		t.Fatalf("kgen generat = %d, %q", code, errOut)
	}
}
