package kgencmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateLeavesItsOwnOutputOutOfTheLoad generates into an output directory inside the input tree, as
// k8s.io/api's layout does: a rerun loads the API package and the hand-written packages only (the generated
// lister package one of them imports stays an input), writes the same files, and --verify agrees.
func TestGenerateLeavesItsOwnOutputOutOfTheLoad(t *testing.T) {
	files, _ := newProjectFiles(t)
	dir, importPath := workDir(t)
	writeTree(t, dir, map[string]string{
		"api/things/v1/doc.go":   files["api/things/v1/doc.go"],
		"api/things/v1/types.go": files["api/things/v1/types.go"],
	})
	args := []string{"generate", "--output-dir", filepath.Join(dir, "generated"), "--output-pkg", importPath + "/generated",
		"--with-watch", "--with-applyconfig", "-v", "--force", dir}
	code, _, errOut := runKgen(t, args...)
	if code != 0 || !strings.Contains(errOut, "loaded 1 packages") {
		t.Fatalf("first run = %d, %q; want one package loaded", code, errOut)
	}
	written := countFiles(t, dir)

	code, _, errOut = runKgen(t, args...)
	if code != 0 || !strings.Contains(errOut, "loaded 1 packages") || !strings.Contains(errOut, "(0 written, ") {
		t.Fatalf("rerun over its own output = %d, %q; want one package loaded and nothing written", code, errOut)
	}

	writeTree(t, dir, map[string]string{
		// Hand-written code in an output directory, and a hand-written package using a generated one.
		"generated/applyconfiguration/things/v1/extra.go": "package v1\n\n// Extra is hand-written.\nconst Extra = 1\n",
		"app/app.go": "package app\n\nimport listers \"" + importPath + "/generated/listers/things/v1\"\n\nvar _ listers.ThingLister\n",
	})
	code, _, errOut = runKgen(t, args...)
	// api/things/v1, app, the lister package app imports, the apply configuration package with a
	// hand-written file, and the package of its schema that it imports.
	if code != 0 || !strings.Contains(errOut, "loaded 5 packages") || !strings.Contains(errOut, "(0 written, ") {
		t.Fatalf("run with hand-written code among the output = %d, %q; want five packages loaded and nothing written", code, errOut)
	}
	if n := countFiles(t, dir); n != written+2 {
		t.Fatalf("%d files in the tree, want %d", n, written+2)
	}
	if code, _, errOut := runKgen(t, append(args[:len(args)-1:len(args)-1], "--verify", dir)...); code != 0 {
		t.Fatalf("--verify = %d, %q", code, errOut)
	}
}

func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
