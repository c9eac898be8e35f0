package kgencmd

import (
	"errors"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/kgen-dev/kgen/internal/generators/output"
)

// unrequiredImports returns, sorted, the imports of the generated Go files in sets that the go.mod of their
// module neither provides nor requires: what `go build` would refuse with "updates to go.mod needed" until
// `go mod tidy` runs. Files outside any module, and go.mod files that do not parse, are left to the go command.
func unrequiredImports(sets []*output.Set) []string {
	mods := map[string]*modfile.File{} // directory -> its module's go.mod; nil when none
	missing := map[string]bool{}
	fset := token.NewFileSet()
	for _, s := range sets {
		for _, p := range s.Paths() {
			if !strings.HasSuffix(p, ".go") {
				continue
			}
			mod := moduleOf(filepath.Dir(p), mods)
			if mod == nil {
				continue
			}
			f, err := parser.ParseFile(fset, p, s.Content(p), parser.ImportsOnly)
			if err != nil {
				continue // generated code that does not parse has failed generation already
			}
			for _, spec := range f.Imports {
				path, err := strconv.Unquote(spec.Path.Value)
				if err == nil && !provided(mod, path) {
					missing[path] = true
				}
			}
		}
	}
	paths := make([]string, 0, len(missing))
	for p := range missing {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// moduleOf returns the parsed go.mod of the module holding dir, memoised in mods for dir and its parents.
func moduleOf(dir string, mods map[string]*modfile.File) *modfile.File {
	if mod, ok := mods[dir]; ok {
		return mod
	}
	var mod *modfile.File
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	switch {
	case err == nil:
		mod, _ = modfile.ParseLax("go.mod", data, nil)
	case errors.Is(err, fs.ErrNotExist) && filepath.Dir(dir) != dir:
		mod = moduleOf(filepath.Dir(dir), mods)
	}
	mods[dir] = mod
	return mod
}

// provided reports whether the import path is in the standard library, in mod's own module, or in a module
// mod requires.
func provided(mod *modfile.File, path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if !strings.Contains(first, ".") {
		return true // the standard library
	}
	within := func(modPath string) bool { return path == modPath || strings.HasPrefix(path, modPath+"/") }
	if mod.Module != nil && within(mod.Module.Mod.Path) {
		return true
	}
	for _, r := range mod.Require {
		if within(r.Mod.Path) {
			return true
		}
	}
	return false
}

// modHint is the advice printed when generated code imports packages go.mod does not require.
func modHint(imports []string) string {
	const shown = 3
	list := imports
	if len(list) > shown {
		list = list[:shown]
	}
	more := ""
	if n := len(imports) - shown; n > 0 {
		more = " and " + strconv.Itoa(n) + " more"
	}
	return "the generated code imports " + strings.Join(list, ", ") + more +
		", which go.mod does not require yet: run `go mod tidy` before building"
}
