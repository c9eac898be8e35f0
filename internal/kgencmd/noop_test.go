package kgencmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain keeps the records of the runs the tests make in a cache directory of their own, so a rerun of
// the tests runs every invocation afresh. The go command keeps the build cache it had (its default lies
// under the user cache directory too).
func TestMain(m *testing.M) {
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		panic(err)
	}
	os.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	dir, err := os.MkdirTemp("", "kgencmd-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const nothingChanged = "(nothing changed since the last run; --force regenerates)"

// noopModule writes a module with one API package, which imports a local package of the same module, and
// returns the arguments that generate its deepcopy, register and client code.
func noopModule(t *testing.T) []string {
	t.Helper()
	module := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":                 "module example.com/noop\n\ngo 1.26\n",
		"common/phase.go":        "package common\n\n// Phase is a local type the API imports.\ntype Phase string\n",
		"api/things/v1/doc.go":   "// +k8s:deepcopy-gen=package\n// +groupName=things.example.com\npackage v1\n",
		"api/things/v1/types.go": "package v1\n\nimport \"example.com/noop/common\"\n\n// Thing is a test type.\ntype Thing struct {\n\tName  string\n\tPhase common.Phase\n}\n",
	} {
		write(t, filepath.Join(module, name), content)
	}
	t.Chdir(module)
	return []string{"generate", "--skip", "register", "api"}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// settle runs kgen until a rerun finds nothing changed: a run records nothing while an input is younger
// than the file system's time resolution (up to two seconds), so the first reruns may still generate.
func settle(t *testing.T, args ...string) {
	t.Helper()
	// At least three runs: on a loaded machine one run can take most of the 10 s.
	for runs, deadline := 0, time.Now().Add(10*time.Second); runs < 3 || time.Now().Before(deadline); runs++ {
		code, _, errOut := runKgen(t, args...)
		if code != 0 {
			t.Fatalf("kgen %q = %d: %s", args, code, errOut)
		}
		if strings.Contains(errOut, nothingChanged) {
			return
		}
	}
	t.Fatalf("kgen %q never found nothing changed in 10s and 3 or more reruns", args)
}

// rerun runs kgen once more and fails unless it regenerated (it did not skip the run).
func rerun(t *testing.T, why string, args ...string) string {
	t.Helper()
	code, _, errOut := runKgen(t, args...)
	if code != 0 || strings.Contains(errOut, nothingChanged) {
		t.Fatalf("after %s, kgen %q = %d, %q; want a full run", why, args, code, errOut)
	}
	return errOut
}

func TestRerunWithNothingChangedSkipsTheRun(t *testing.T) {
	args := noopModule(t)
	settle(t, args...)
	code, _, errOut := runKgen(t, args...)
	if code != 0 || !strings.HasPrefix(errOut, "generated 1 files in ") || !strings.Contains(errOut, nothingChanged) {
		t.Fatalf("rerun = %d, %q", code, errOut)
	}
	// --verify proves the same with the record.
	if code, _, errOut := runKgen(t, append(args, "--verify")...); code != 0 || !strings.HasPrefix(errOut, "verified 1 files in ") || !strings.Contains(errOut, nothingChanged) {
		t.Fatalf("--verify = %d, %q", code, errOut)
	}
	rerun(t, "--force", append(args, "--force")...)
	// Other flags are another invocation.
	rerun(t, "other flags", "generate", "api")
}

func TestRerunNoticesEveryChange(t *testing.T) {
	output := filepath.Join("api", "things", "v1", "zz_generated.deepcopy.go")
	for _, tc := range []struct {
		name   string
		change func(t *testing.T)
	}{
		{"a hand-edited output", func(t *testing.T) {
			content, _ := os.ReadFile(output)
			write(t, output, strings.Replace(string(content), "func", "func ", 1))
		}},
		{"a removed output", func(t *testing.T) { os.Remove(output) }},
		{"a changed input file", func(t *testing.T) {
			write(t, "api/things/v1/types.go", "package v1\n\nimport \"example.com/noop/common\"\n\n// Thing is a test type.\ntype Thing struct {\n\tName  string\n\tPhase common.Phase\n\tN int\n}\n")
		}},
		{"an added input file", func(t *testing.T) {
			write(t, "api/things/v1/more.go", "package v1\n\n// More is a test type.\ntype More struct{ N int }\n")
		}},
		{"a removed input file", func(t *testing.T) { os.Remove("api/things/v1/doc.go") }},
		{"a new input package", func(t *testing.T) { write(t, "api/things/v2/doc.go", "package v2\n") }},
		{"an edited local dependency", func(t *testing.T) {
			write(t, "common/phase.go", "package common\n\n// Phase is an edited local type.\ntype Phase string\n")
		}},
		{"a file added to a local dependency", func(t *testing.T) { write(t, "common/more.go", "package common\n") }},
		{"a replace directive", func(t *testing.T) {
			write(t, "go.mod", "module example.com/noop\n\ngo 1.26\n\nreplace example.com/other => ./other\n")
		}},
		{"a stale file with the generator's marker", func(t *testing.T) {
			write(t, "api/things/v1/zz_generated.old.go", "// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage v1\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := noopModule(t)
			settle(t, args...)
			tc.change(t)
			rerun(t, tc.name, args...)
		})
	}
}

func TestRerunRewritesAHandEditedOutput(t *testing.T) {
	args := noopModule(t)
	settle(t, args...)
	output := filepath.Join("api", "things", "v1", "zz_generated.deepcopy.go")
	want, _ := os.ReadFile(output)
	write(t, output, "package v1\n")
	if code, _, errOut := runKgen(t, append(args, "--verify")...); code != 1 || !strings.Contains(errOut, "1 of the generated files differ") {
		t.Fatalf("--verify after a hand edit = %d, %q", code, errOut)
	}
	if errOut := rerun(t, "a hand edit", args...); !strings.Contains(errOut, "(1 written, 0 unchanged") {
		t.Fatalf("rerun after a hand edit: %q", errOut)
	}
	if got, _ := os.ReadFile(output); string(got) != string(want) {
		t.Fatal("the hand-edited output was not restored")
	}
}
