package load

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// DepsMode chooses where the types of the dependencies come from.
type DepsMode int

const (
	// DepsAuto reads the export data of every dependency the build cache holds and type-checks the rest
	// from source: a warm cache costs nothing to read, and an empty one (a fresh CI runner) costs no
	// compilation.
	DepsAuto DepsMode = iota
	// DepsExport reads the export data of every dependency, compiling those the build cache lacks.
	DepsExport
	// DepsSource type-checks every dependency from source, without function bodies.
	DepsSource
)

// String is the mode's name, as kgen generate's -v output shows it.
func (m DepsMode) String() string {
	switch m {
	case DepsAuto:
		return "auto"
	case DepsExport:
		return "export"
	case DepsSource:
		return "source"
	}
	return fmt.Sprintf("DepsMode(%d)", int(m))
}

// ParseDepsMode returns the mode String names.
func ParseDepsMode(name string) (DepsMode, error) {
	for _, m := range []DepsMode{DepsAuto, DepsExport, DepsSource} {
		if m.String() == name {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (known: auto, export, source)", name)
}

// DepsReport counts where the types of a load's dependencies came from.
type DepsReport struct {
	// Export counts dependencies read from the compiler's export data.
	Export int
	// Source counts dependencies type-checked from all their files because the build cache held no
	// export data for them (or DepsSource asked for it).
	Source int
	// HandWritten counts dependencies type-checked from their hand-written files only: those importing an
	// input package, and those that do not compile.
	HandWritten int
	// Remembered reports that the export data files came from the memo of an earlier load, without asking
	// the go command about the build cache.
	Remembered bool
	// Listed reports that the packages' listing came from the memo of an earlier load, without running go
	// list: nothing that decides it changed.
	Listed bool
}

// String summarises the report for kgen generate's -v output.
func (r DepsReport) String() string {
	path := "export data"
	switch {
	case r.Source > 0 && r.Export > 0:
		path = "mixed: export data where the build cache has it, source for the rest"
	case r.Source > 0:
		path = "source (no export data in the build cache)"
	case r.Remembered:
		path = "export data (its files located by an earlier run)"
	}
	return fmt.Sprintf("dependencies from %s: %d from export data, %d type-checked from source, %d from hand-written files",
		path, r.Export, r.Source, r.HandWritten)
}

// parseComplete parses every file of the complete source dependencies, without comments: they stand in
// for export data, which carries none. It records which files are generated, for the fallback to the
// hand-written files of a dependency that does not type-check.
func parseComplete(fset *token.FileSet, deps []*listed) error {
	type job struct {
		pkg  *listed
		i    int
		name string
	}
	var jobs []job
	for _, l := range deps {
		names := append(append([]string(nil), l.GoFiles...), l.CgoFiles...)
		l.all = make([]*ast.File, len(names))
		l.generatedFile = make([]bool, len(names))
		for i, f := range names {
			jobs = append(jobs, job{l, i, filepath.Join(l.Dir, f)})
		}
	}
	errs := make([]error, len(jobs))
	inParallel(len(jobs), func(i int) {
		j := jobs[i]
		src, err := os.ReadFile(j.name)
		if err != nil {
			errs[i] = err
			return
		}
		j.pkg.generatedFile[j.i] = IsGenerated(j.name, src)
		// A dependency that does not parse is one the compiler would reject: check its parseable
		// files, as with a dependency without export data, rather than fail the load.
		f, _ := parser.ParseFile(fset, j.name, src, parser.SkipObjectResolution|parser.AllErrors)
		j.pkg.all[j.i] = f
	})
	return errors.Join(errs...)
}

// checkComplete type-checks a complete source dependency from all its files. Like the compiler, it fails a
// dependency that does not type-check and every package importing one: those are checked from their
// hand-written files alone, as the export data path does with a dependency that does not compile.
func (imp *exportImporter) checkComplete(l *listed) {
	fallBack := false
	for _, path := range l.Imports {
		if dep := imp.byPath[l.resolve(path)]; dep != nil && dep.fellBack {
			fallBack = true
		}
	}
	var files []*ast.File
	for _, f := range l.all {
		if f == nil {
			fallBack = true
		} else {
			files = append(files, f)
		}
	}
	if !fallBack {
		var hard bool
		conf := imp.config(l, func(err error) { hard = hard || !err.(types.Error).Soft })
		// The bodies of a dependency the user may edit are checked, since a stale generated file breaks
		// one there; published modules and the standard library compile as released.
		conf.IgnoreFuncBodies = !l.editable()
		conf.DisableUnusedImportCheck = conf.IgnoreFuncBodies // imports used only in bodies look unused
		pkg, _ := conf.Check(l.ImportPath, imp.fset, files, nil)
		if !hard {
			l.source.Types = pkg
			return
		}
	}
	l.complete, l.fellBack = false, true
	files = files[:0]
	for i, f := range l.all {
		if f != nil && !l.generatedFile[i] {
			files = append(files, f)
		}
	}
	l.source.Files = files
	conf := imp.config(l, func(err error) { l.source.TypeErrors = append(l.source.TypeErrors, err.(types.Error)) })
	l.source.Types, _ = conf.Check(l.ImportPath, imp.fset, files, nil)
}

// editable reports whether l belongs to a module the user edits: the main module (or a workspace module),
// or one replaced by a local directory.
func (l *listed) editable() bool {
	if l.Standard || l.Module == nil {
		return false
	}
	return l.Module.Main || l.Module.Replace != nil && l.Module.Replace.Version == ""
}

// config is the type-checker configuration of source package l, reporting errors to onError.
func (imp *exportImporter) config(l *listed, onError func(error)) *types.Config {
	return &types.Config{
		Importer:         importerFunc(func(path string) (*types.Package, error) { return imp.importPath(l.resolve(path)) }),
		Error:            onError,
		FakeImportC:      true,
		IgnoreFuncBodies: true,
		Sizes:            imp.sizes,
	}
}

// targetSizes are the sizes of the target architecture, for constants such as unsafe.Sizeof in
// dependencies type-checked from source.
func targetSizes() types.Sizes {
	arch := os.Getenv("GOARCH")
	if arch == "" {
		arch = runtime.GOARCH
	}
	if s := types.SizesFor("gc", arch); s != nil {
		return s
	}
	return types.SizesFor("gc", "amd64")
}

// LocalDirs returns the directories of the dependencies a user may edit without changing go.mod or
// go.sum, sorted: those of the main (or a workspace) module, of modules replaced by a local directory, of
// vendored modules and of packages outside any module. The standard library changes only with the Go
// version, and the module cache is read-only and checked against go.sum.
func (p *Program) LocalDirs() []string {
	var dirs []string
	for _, l := range p.imp.byPath {
		if l.DepOnly && !l.Standard && l.Dir != "" && (l.Module == nil || l.editable() || l.Module.Version == "" ||
			strings.Contains(l.Dir, string(filepath.Separator)+"vendor"+string(filepath.Separator))) {
			dirs = append(dirs, l.Dir)
		}
	}
	sort.Strings(dirs)
	return dirs
}

// ModuleBounds returns, sorted, the directories that decide which module each local package belongs to:
// every directory from an input package's or a LocalDirs dependency's up to its module's root. A go.mod
// added to or removed from one of them moves the package to another module (or to none), which neither
// the package's files nor the module files show.
func (p *Program) ModuleBounds() []string {
	seen := map[string]bool{}
	for _, l := range p.imp.byPath {
		if l.Standard || l.Dir == "" || l.Module == nil || l.Module.Dir == "" || l.DepOnly && !(l.editable() || l.Module.Version == "") {
			continue
		}
		rel, err := filepath.Rel(l.Module.Dir, l.Dir)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		for d := l.Dir; !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			if d == l.Module.Dir || d == filepath.Dir(d) {
				break
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
