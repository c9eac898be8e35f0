// Package e2e proves that testenv works from a module that requires a published kgen: the module is zipped
// as the module proxy serves it, and a temporary module outside the repository builds (or finds) the
// binaries with `go run …/cmd/kgen testenv` and starts an environment.
package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"

	"github.com/kgen-dev/kgen/internal/testenvbuild"
)

const kgenModule = "github.com/kgen-dev/kgen"

func TestMain(m *testing.M) {
	versions, err := testenvbuild.Cached("")
	if err != nil || !contains(versions, testenvbuild.KubernetesVersion) {
		fmt.Fprintf(os.Stderr, "the testenv binaries for %s are not built: run `go run ./cmd/kgen testenv` (make testenv) first\n",
			testenvbuild.KubernetesVersion)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestTestenvFromAModuleThatRequiresKgen(t *testing.T) {
	work := t.TempDir()
	version := module.Version{Path: kgenModule, Version: "v0.0.1"}

	// The module as the proxy would serve it: nested modules (bench/, examples/) are left out.
	var zipped bytes.Buffer
	if err := zip.CreateFromDir(&zipped, version, "../../.."); err != nil {
		t.Fatal(err)
	}
	zipFile := filepath.Join(work, "kgen.zip")
	if err := os.WriteFile(zipFile, zipped.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	kgen := filepath.Join(work, "kgen")
	if err := zip.Unzip(kgen, version, zipFile); err != nil {
		t.Fatal(err)
	}

	user := filepath.Join(work, "user")
	writeFiles(t, user, map[string]string{
		"go.mod": fmt.Sprintf("module example.com/user\n\ngo 1.26.0\n\nrequire %s %s\n\nreplace %s => %s\n",
			kgenModule, version.Version, kgenModule, kgen),
		"env_test.go": `package user

import (
	"context"
	"testing"

	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

func TestServerAnswers(t *testing.T) {
	env, err := testenv.Start(context.Background(), testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Stop()
	client, err := rest.HTTPClientFor(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Get(env.Config().Host + "/version")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /version: %s", resp.Status)
	}
}
`,
	})
	goCmd(t, user, "mod", "tidy")
	dir := strings.TrimSpace(goCmd(t, user, "run", kgenModule+"/cmd/kgen", "testenv"))
	if want := filepath.Join(testenvbuild.DefaultCacheRoot(), testenvbuild.KubernetesVersion); dir != want {
		t.Fatalf("kgen testenv printed %q, want %q", dir, want)
	}
	goCmd(t, user, "test", "-count=1", "./...")
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goCmd runs the go command in dir outside any workspace and with neither asset variable set, and returns
// its standard output.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "KGEN_TESTENV_ASSETS=", "KUBEBUILDER_ASSETS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go %s in %s: %v\n%s%s", strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}
