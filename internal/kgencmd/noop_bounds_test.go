package kgencmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// boundsModule writes a module whose API package reads files through symbolic links, imports a local
// package of the main module and one of a local module the main module replaces, and holds a nested
// module; it returns the arguments that generate its deepcopy code.
func boundsModule(t *testing.T) []string {
	t.Helper()
	module := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":               "module example.com/bounds\n\ngo 1.26\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ./lib\n",
		"lib/go.mod":           "module example.com/lib\n\ngo 1.26\n",
		"lib/kinds/kinds.go":   "package kinds\n\n// Kind is a type of a replaced local module.\ntype Kind string\n",
		"deps/common/phase.go": "package common\n\n// Phase is a local type the API imports.\ntype Phase string\n",
		"shared/common_more":   "package common\n\n// Reason is a type the dependency reads through a link.\ntype Reason string\n",
		"shared/things_linked": "package v1\n\n// Linked is a type the API reads through a link.\ntype Linked struct {\n\tName string\n}\n",
		"api/things/v1/doc.go": "// +k8s:deepcopy-gen=package\n// +groupName=things.example.com\npackage v1\n",
		"api/things/v1/types.go": "package v1\n\nimport (\n\t\"example.com/bounds/deps/common\"\n\t\"example.com/lib/kinds\"\n)\n\n" +
			"// Thing is a test type.\ntype Thing struct {\n\tPhase  common.Phase\n\tReason common.Reason\n\tKind   kinds.Kind\n\tLinked Linked\n}\n",
		"api/things/v2/go.mod":   "module example.com/nested\n\ngo 1.26\n",
		"api/things/v2/doc.go":   "// +k8s:deepcopy-gen=package\npackage v2\n",
		"api/things/v2/types.go": "package v2\n\n// Other is a type of the nested module.\ntype Other struct{ Names []string }\n",
	} {
		write(t, filepath.Join(module, name), content)
	}
	for link, target := range map[string]string{
		"api/things/v1/linked.go": "../../../shared/things_linked",
		"deps/common/more.go":     "../../shared/common_more",
	} {
		if err := os.Symlink(target, filepath.Join(module, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(module)
	return []string{"generate", "--skip", "register", "api"}
}

// TestRerunNoticesLinksAndModuleBounds changes what decides a fresh run's output without changing the
// files a run lists: the target of a linked input or dependency file, which module a package belongs to,
// and a replaced module's go.mod. Neither a rerun nor --verify may trust the record then, and the rerun
// must do what a fresh run does.
func TestRerunNoticesLinksAndModuleBounds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T)
		fails  bool // a fresh run fails after the change
	}{
		{"an edited target of a linked input file", func(t *testing.T) {
			write(t, "shared/things_linked", "package v1\n\n// Linked is a type the API reads through a link.\ntype Linked struct {\n\tName  string\n\tNames []string\n}\n")
		}, false},
		{"an edited target of a linked dependency file", func(t *testing.T) {
			write(t, "shared/common_more", "package common\n\n// Reason is now a number.\ntype Reason int\n")
		}, false},
		{"a relinked input file", func(t *testing.T) {
			write(t, "shared/things_other", "package v1\n\n// Linked is another type.\ntype Linked struct{ N *int }\n")
			os.Remove("api/things/v1/linked.go")
			if err := os.Symlink("../../../shared/things_other", "api/things/v1/linked.go"); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a nested module joining the input tree", func(t *testing.T) { os.Remove("api/things/v2/go.mod") }, false},
		{"a go.mod above a local dependency", func(t *testing.T) {
			write(t, "deps/go.mod", "module example.com/deps\n\ngo 1.26\n")
		}, true},
		{"a replaced module requiring a newer Go", func(t *testing.T) {
			t.Setenv("GOTOOLCHAIN", "local") // no toolchain download: the requirement fails the build
			write(t, "lib/go.mod", "module example.com/lib\n\ngo 1.99\n")
		}, true},
		{"a replaced module renamed", func(t *testing.T) {
			write(t, "lib/go.mod", "module example.com/renamed\n\ngo 1.26\n")
		}, false},
		{"a go.sum added to a replaced module", func(t *testing.T) { write(t, "lib/go.sum", "") }, false},
	} {
		// The first run after the change is a --verify or a plain rerun; either may record what it finds.
		for _, first := range [][]string{{"--verify"}, nil} {
			t.Run(strings.Join(append([]string{tc.name}, first...), " "), func(t *testing.T) {
				gen := boundsModule(t)
				settle(t, gen...) // --verify shares the record of the run it verifies
				args := append(gen, first...)
				tc.change(t)
				code, _, errOut := runKgen(t, args...)
				if strings.Contains(errOut, nothingChanged) {
					t.Fatalf("after %s, %q trusted the record: %q", tc.name, args, errOut)
				}
				if failed := code != 0 && !strings.Contains(errOut, "files differ from the disk"); failed != tc.fails {
					t.Fatalf("after %s, kgen %q = %d (%q); want a failure: %v", tc.name, args, code, errOut, tc.fails)
				}
				// What the run wrote, or found, is what a run without the record writes or finds.
				forced, _, forcedErr := runKgen(t, append(append([]string(nil), args...), "--force", "--verify")...)
				if first == nil && !tc.fails && forced != 0 || first != nil && forced != code {
					t.Fatalf("--force --verify after %q = %d (%q); %q was %d", args, forced, forcedErr, args, code)
				}
			})
		}
	}
}

// TestRerunSkipsAfterUnrelatedFilesBesideTheModule adds files the go command does not read beside the
// local packages (at the module root, in the replaced module): only a go.mod there would move a package.
func TestRerunSkipsAfterUnrelatedFilesBesideTheModule(t *testing.T) {
	args := boundsModule(t)
	settle(t, args...)
	write(t, "notes.txt", "not Go\n")
	write(t, "deps/README.md", "not Go\n")
	write(t, "lib/notes.txt", "not Go\n")
	if code, _, errOut := runKgen(t, args...); code != 0 || !strings.Contains(errOut, nothingChanged) {
		t.Fatalf("after unrelated files were added, kgen = %d: %q; want the run skipped", code, errOut)
	}
}
