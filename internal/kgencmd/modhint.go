package kgencmd

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/output"
)

// newPackageDirs returns, as absolute paths, the directories of the generated Go files in sets that do not
// exist yet: the packages this run creates.
func newPackageDirs(sets []*output.Set) []string {
	var dirs []string
	for _, s := range sets {
		for _, p := range s.Paths() {
			if !strings.HasSuffix(p, ".go") {
				continue
			}
			dir, err := filepath.Abs(filepath.Dir(p))
			if err != nil || slices.Contains(dirs, dir) {
				continue
			}
			if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
				dirs = append(dirs, dir)
			}
		}
	}
	return dirs
}

// goModHint asks the go command whether the packages in dirs, new generated packages, build with their
// modules' go.mod as it is, and returns the advice to run `go mod tidy` (with the go command's reason) when
// they do not: generated clients import kgen's runtime, whose modules a new project's go.mod does not list
// yet. It returns "" when nothing needs doing or the go command cannot tell.
func goModHint(dirs []string) string {
	dirsByModule := map[string][]string{} // module root -> package directories
	roots := map[string]string{}          // directory -> its module root, "" outside any
	for _, dir := range dirs {
		if root := moduleRoot(dir, roots); root != "" {
			dirsByModule[root] = append(dirsByModule[root], dir)
		}
	}
	for _, root := range slices.Sorted(maps.Keys(dirsByModule)) {
		cmd := exec.Command("go", append([]string{"list", "-e", "-deps", "-f", "{{if false}}{{end}}"}, dirsByModule[root]...)...)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil && strings.Contains(stderr.String(), "go mod tidy") {
			reason, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
			return "the generated code needs modules " + filepath.Join(root, "go.mod") + " does not list yet (" +
				strings.TrimPrefix(reason, "go: ") + "): run `go mod tidy` in " + root + " before building"
		}
	}
	return ""
}

// moduleRoot returns the directory of the go.mod governing dir, or "" outside any module, memoised in roots.
func moduleRoot(dir string, roots map[string]string) string {
	if root, ok := roots[dir]; ok {
		return root
	}
	root := ""
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		root = dir
	} else if errors.Is(err, fs.ErrNotExist) && filepath.Dir(dir) != dir {
		root = moduleRoot(filepath.Dir(dir), roots)
	}
	roots[dir] = root
	return root
}
