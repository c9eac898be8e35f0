package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/gcexportdata"
)

// Config controls Load.
type Config struct {
	// Dir is the directory the go command runs in and package patterns resolve from; empty means the
	// current directory.
	Dir string
	// Deps chooses where the dependencies' types come from; the zero value chooses per package.
	Deps DepsMode
	// OutputDirs are the absolute directories the run writes client, lister, informer and apply
	// configuration packages into. A package there that the patterns match, whose every Go file carries
	// one of those generators' markers and that no other input imports is not loaded (see dropOwnOutput).
	OutputDirs []string
	// SyntaxDeps are import paths (or import path patterns, "x/...") of packages loaded as dependencies,
	// whether the input packages import them or not, whose hand-written files are parsed too
	// (Program.SyntaxDeps): a generator that reads their comments or looks their declarations up gets them
	// from the same load as every other generator, which sees them as the dependencies they are. A
	// package the patterns match stays an input package.
	SyntaxDeps []string

	inputs []string // the patterns naming the input packages, set by Load
}

// Program is the result of one Load: the input packages, type-checked without the files IsGenerated
// reports, and everything they reference.
type Program struct {
	// Fset holds the positions of every file and object of the program.
	Fset *token.FileSet
	// Packages are the packages matching the patterns, sorted by import path.
	Packages []*Package
	// Deps tells where the dependencies' types came from.
	Deps DepsReport
	// SyntaxDeps are the packages Config.SyntaxDeps matches that are not input packages, sorted by import
	// path: their Types as the input packages see them (WithGenerated tells whether with their generated
	// declarations; export data holds the exported ones and what they reach), their Files the hand-written
	// ones, parsed with comments.
	SyntaxDeps []*Package

	byPath    map[string]*Package
	imp       *exportImporter
	generated sync.Map // file name -> bool, for files Load did not read itself
	listings  listings // packages listed after the load, for generators that follow tags beyond it
}

// Package is one input package.
type Package struct {
	// Path is the import path, Name the package name and Dir the directory holding its files.
	Path, Name, Dir string
	// Files are the parsed hand-written files (comments included), in file-name order; files that kgen's
	// generators or the tools they replace wrote (see IsGenerated) are left out, while files other tools
	// generated count as hand-written.
	Files []*ast.File
	// Skipped are the base names of the files left out as generated, in file-name order.
	Skipped []string
	// Types is the package type-checked from Files alone.
	Types *types.Package
	// TypeErrors are the type-checking errors, in source order. Hand-written code may refer to
	// declarations of the skipped generated files, so errors do not stop the load; a generator reports
	// those that affect what it generates.
	TypeErrors []types.Error
}

// Package returns the input package with import path path, or nil.
func (p *Program) Package(path string) *Package { return p.byPath[path] }

// Import returns the type-checked package path, which must be an input package or one of their
// dependencies (direct or not).
func (p *Program) Import(path string) (*types.Package, error) { return p.imp.importPath(path) }

// Editable reports whether package path is one the user edits: an input package, or a dependency of
// the main (or a workspace) module or of a module replaced by a local directory. Published modules, such
// as k8s.io/api, and the standard library are not.
func (p *Program) Editable(path string) bool {
	l := p.imp.byPath[path]
	return l != nil && (!l.DepOnly || l.editable())
}

// WithGenerated reports whether the types of package path include the declarations of its generated
// files: true for dependencies read from export data, false for packages type-checked from their
// hand-written files (the input packages and the fallbacks) and for unknown paths.
func (p *Program) WithGenerated(path string) bool {
	l := p.imp.byPath[path]
	return l != nil && (l.source == nil && l.Export != "" || l.complete)
}

// HandWritten reports whether obj is declared in a hand-written file, as opposed to one IsGenerated
// recognises (in dependencies, whose export data includes their generated declarations too). Objects
// without a position (universe, unsafe) count as hand-written.
func (p *Program) HandWritten(obj types.Object) bool {
	if !obj.Pos().IsValid() {
		return true
	}
	name := p.Fset.File(obj.Pos()).Name()
	if v, ok := p.generated.Load(name); ok {
		return !v.(bool)
	}
	gen := fileGenerated(name)
	p.generated.Store(name, gen)
	return !gen
}

// fileGenerated tells by its name, or else by its header, whether the file called name is generated. A
// file that cannot be read (export data built with -trimpath names files relative to their module) counts
// as hand-written unless its name says otherwise.
func fileGenerated(name string) bool {
	if IsGenerated(name, nil) {
		return true
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	return IsGenerated(name, head[:n])
}

// IsGenerated reports whether the Go file called name with content src is code that kgen's generators, or
// the code-generator and controller-gen commands they replace, write, and so a run may replace: its base
// name starts with "zz_generated", or a comment before its package clause is a "//go:build" line that
// excludes ignore_autogenerated (deepcopy-gen's constraint) or a "// Code generated by <tool>. DO NOT
// EDIT." line naming one of ownGenerators. Files other tools generated (kubetype-gen's types.gen.go,
// protoc-gen-go's messages) are inputs like hand-written ones.
func IsGenerated(name string, src []byte) bool {
	if strings.HasPrefix(filepath.Base(name), "zz_generated") {
		return true
	}
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(line, []byte("package ")):
			return false
		case bytes.HasPrefix(line, []byte("//go:build")) && bytes.Contains(line, []byte("!ignore_autogenerated")):
			return true
		}
		if tool, ok := generatedBy(line); ok && ownGenerator(tool, name) {
			return true
		}
	}
	return false
}

// ownGenerators are the tools whose "Code generated by" marker makes a file one IsGenerated skips: kgen's
// generators, which carry code-generator's names, code-generator's other generators, and controller-gen.
// go-to-protobuf's generated.pb.go, marked by the protoc-gen-gogo plugin it runs, counts by that name only.
var ownGenerators = []string{
	"deepcopy-gen", "register-gen", "applyconfiguration-gen", "client-gen", "lister-gen", "informer-gen",
	"conversion-gen", "defaulter-gen", "openapi-gen", "prerelease-lifecycle-gen", "validation-gen",
	"go-to-protobuf", "controller-gen",
}

// ownGenerator reports whether tool's marker on the file called name makes it one of ours.
func ownGenerator(tool, name string) bool {
	if tool == "protoc-gen-gogo" {
		return filepath.Base(name) == "generated.pb.go"
	}
	for _, g := range ownGenerators {
		if tool == g {
			return true
		}
	}
	return false
}

// generatedBy returns the tool a "// Code generated by <tool>. DO NOT EDIT." line names (the first word
// after "by", without its trailing period), and whether line is such a marker at all.
func generatedBy(line []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(line, []byte("// Code generated "))
	if !ok || !bytes.HasSuffix(rest, []byte(" DO NOT EDIT.")) {
		return "", false
	}
	rest, ok = bytes.CutPrefix(rest, []byte("by "))
	if !ok {
		return "", true
	}
	tool, _, _ := bytes.Cut(rest, []byte(" "))
	return string(bytes.TrimSuffix(tool, []byte("."))), true
}

// listed is what `go list` reports about one package.
type listed struct {
	ImportPath, Name, Dir, Export string
	GoFiles, CgoFiles             []string
	Imports                       []string
	ImportMap                     map[string]string
	DepOnly, Stale, Standard      bool
	Module                        *struct {
		Main         bool
		Version, Dir string
		Replace      *struct{ Version string }
	}
	Error *struct{ Err string }

	// fromSource marks packages type-checked from source: the input packages, and dependencies without
	// export data or importing such a package; source is their result.
	fromSource bool
	source     *Package
	done       chan struct{}

	// complete marks dependencies type-checked from all their files (all, with generatedFile telling
	// which are generated) because the build cache holds no export data for them; fellBack those that
	// did not type-check and were checked from their hand-written files instead.
	complete, fellBack bool
	all                []*ast.File
	generatedFile      []bool

	// waitFor lists the packages checked from source that the files l is checked from import.
	waitFor []*listed

	// syntax marks the packages Config.SyntaxDeps names.
	syntax bool
}

// linkSourceImports sets each package's waitFor from the imports of the files it is checked from, not
// from the go command's listing: a file the load leaves out (a stale generated one) may import a package
// that imports this one, and waiting for it would never end. A cycle among the files checked is an error.
func linkSourceImports(checked []*listed, byPath map[string]*listed) error {
	for _, l := range checked {
		files := l.all
		if !l.complete {
			files = l.source.Files
		}
		seen := map[*listed]bool{}
		for _, f := range files {
			if f == nil {
				continue
			}
			for _, spec := range f.Imports {
				path, err := strconv.Unquote(spec.Path.Value)
				if err != nil {
					continue
				}
				if dep := byPath[l.resolve(path)]; dep != nil && dep.source != nil && !seen[dep] {
					seen[dep] = true
					l.waitFor = append(l.waitFor, dep)
				}
			}
		}
	}
	const (
		visiting = 1
		visited  = 2
	)
	state := map[*listed]int{}
	var visit func(l *listed, path []string) error
	visit = func(l *listed, path []string) error {
		switch state[l] {
		case visiting:
			cycle := append(path[slices.Index(path, l.ImportPath):], l.ImportPath)
			return fmt.Errorf("import cycle: %s", strings.Join(cycle, " -> "))
		case visited:
			return nil
		}
		state[l] = visiting
		for _, dep := range l.waitFor {
			if err := visit(dep, append(path, l.ImportPath)); err != nil {
				return err
			}
		}
		state[l] = visited
		return nil
	}
	for _, l := range checked {
		if err := visit(l, nil); err != nil {
			return err
		}
	}
	return nil
}

// Load loads the packages matching patterns. The input packages are type-checked without the files
// IsGenerated reports (what kgen's generators or the tools they replace wrote), so a stale or broken
// earlier output does not matter; files other tools generated are inputs. With DepsAuto, a dependency the build
// cache holds export data for is read from it (`go list -export`, which then compiles nothing, and never
// the input packages), and one it lacks is type-checked from all its files without function bodies, as a
// fresh CI runner needs; DepsExport and DepsSource choose one path for all. A dependency that does not
// compile or type-check (typically because its own generated files are stale), or one that imports an
// input package, is type-checked from its hand-written files. Load fails when the go command does, when a pattern names
// no package, or when a file does not parse.
func Load(cfg Config, patterns ...string) (*Program, error) {
	if len(patterns) == 0 {
		return nil, errors.New("no package patterns")
	}
	cfg.inputs, patterns = patterns, cfg.listPatterns(patterns)
	settingsc := make(chan *settings, 1)
	go func() { settingsc <- readSettings(cfg.Dir) }()
	if spec := speculate(cfg, patterns); spec != nil {
		s := <-settingsc
		if spec.confirm(s) {
			speculationsUsed.Add(1)
			r := <-spec.done
			return r.prog, r.err
		}
		settingsc <- s // the listing is read again: the speculative load owns its copy
	}
	fset := token.NewFileSet()
	res, err := listPackages(cfg, patterns, fset, settingsc)
	if err != nil {
		return nil, err
	}
	return build(cfg, res, fset)
}

// build loads the packages res lists.
func build(cfg Config, res *listing, fset *token.FileSet) (*Program, error) {
	if res.record != nil {
		recorded := make(chan struct{})
		go func() {
			defer close(recorded)
			res.record()
		}()
		defer func() { <-recorded }()
	}
	all, memo, remembered := res.all, res.memo, res.remembered
	byPath := make(map[string]*listed, len(all))
	for _, l := range all {
		byPath[l.ImportPath] = l
	}
	// Export data is needed for the dependencies that do not import an input package; asking for it
	// compiles them (or finds them in the build cache), but never the input packages. Dependencies the
	// build cache holds no export data for (Stale) are type-checked from all their files instead, unless
	// the configuration insists on export data; `go list -deps` lists a stale package's importers as
	// stale too.
	var exported []string
	var complete []*listed
	for _, l := range all {
		switch {
		case l.ImportPath == "unsafe" || l.ImportPath == "C":
		case l.DepOnly && !importsSource(l, byPath):
			if remembered {
				break // its export data file is known
			}
			if cfg.Deps == DepsSource || cfg.Deps == DepsAuto && l.Stale {
				l.complete = true
				complete = append(complete, l)
			} else {
				exported = append(exported, l.ImportPath)
			}
		default:
			l.fromSource = true
		}
	}
	// The input packages, the dependencies importing them and the dependencies checked from source are
	// parsed while `go list -export` runs; the dependencies it finds no export data for (and their
	// importers) after.
	prog := &Program{Fset: fset, byPath: map[string]*Package{}, listings: listings{dir: cfg.Dir}}
	addSource := func(l *listed) error {
		if !l.DepOnly && l.Error != nil && len(l.GoFiles) == 0 {
			return fmt.Errorf("loading %s: %s", l.ImportPath, strings.TrimSpace(l.Error.Err))
		}
		l.source = &Package{Path: l.ImportPath, Name: l.Name, Dir: l.Dir}
		l.done = make(chan struct{})
		if !l.DepOnly {
			prog.Packages = append(prog.Packages, l.source)
			prog.byPath[l.ImportPath] = l.source
		}
		return nil
	}
	var early []*listed
	for _, l := range all {
		switch {
		case l.complete:
			l.source = &Package{Path: l.ImportPath, Name: l.Name, Dir: l.Dir}
			l.done = make(chan struct{})
		case l.fromSource:
			if err := addSource(l); err != nil {
				return nil, err
			}
			early = append(early, l)
		}
	}
	exportDone := make(chan error, 1)
	go func() { exportDone <- readExport(cfg.Dir, exported, byPath) }()
	parseErr := parseAll(prog.Fset, early, res.pre)
	if parseErr == nil {
		parseErr = parseComplete(prog.Fset, complete)
	}
	var syntax map[*listed]*Package
	if parseErr == nil {
		syntax, parseErr = parseSyntaxDeps(prog.Fset, all)
	}
	if err := <-exportDone; err != nil {
		return nil, err
	}
	if parseErr != nil {
		return nil, parseErr
	}
	var late []*listed
	for _, l := range all {
		if l.ImportPath == "unsafe" || l.ImportPath == "C" || l.complete || l.fromSource {
			continue
		}
		// A dependency without export data is checked from source, and so is everything importing it.
		if l.Export == "" || importsSource(l, byPath) {
			l.fromSource = true
			addSource(l)
			late = append(late, l)
		}
	}
	if err := parseAll(prog.Fset, late, nil); err != nil {
		return nil, err
	}
	sources := append(early, late...)

	if err := linkSourceImports(append(complete, sources...), byPath); err != nil {
		return nil, err
	}
	imp := &exportImporter{fset: prog.Fset, byPath: byPath, packages: map[string]*types.Package{}, sizes: targetSizes()}
	prog.imp = imp
	var wg sync.WaitGroup
	for _, l := range complete {
		wg.Go(func() { imp.check(l) })
	}
	for _, l := range sources {
		wg.Go(func() { imp.check(l) })
	}
	wg.Wait()
	var err error
	if prog.SyntaxDeps, err = prog.syntaxDeps(syntax); err != nil {
		return nil, err
	}
	for _, l := range all {
		switch {
		case !l.DepOnly || l.ImportPath == "unsafe" || l.ImportPath == "C":
		case l.complete:
			prog.Deps.Source++
		case l.source != nil:
			prog.Deps.HandWritten++
		default:
			prog.Deps.Export++
		}
	}
	prog.Deps.Remembered = remembered
	prog.Deps.Listed = res.fromMemo
	if memo != nil && !remembered {
		memo.save(all)
	}
	sort.Slice(prog.Packages, func(i, j int) bool { return prog.Packages[i].Path < prog.Packages[j].Path })
	return prog, nil
}

// listing is what listPackages found.
type listing struct {
	all []*listed
	// memo is the export data memo (nil if there is none) and remembered tells that it held the export
	// data file of every dependency needing one.
	memo       *exportMemo
	remembered bool
	// fromMemo tells that the listing came from the listing memo; record, if not nil, records it there.
	fromMemo bool
	record   func()
	// pre holds the input packages' files, parsed while go env ran, when the listing came from the memo.
	pre *preparse
}

// listPackages lists the packages matching patterns and their dependencies: from the listing memo if
// nothing it depends on changed, else with go list. Unless cfg asks for source, it then looks for their
// export data in the memo of earlier loads; if that does not find all of it, it lists them again asking
// which ones the build cache lacks, with cfg's Deps DepsAuto.
func listPackages(cfg Config, patterns []string, fset *token.FileSet, settingsc <-chan *settings) (*listing, error) {
	// go env runs (settingsc delivers its result) while the listing memo's record is checked against the
	// disk.
	res := &listing{}
	var lm *listMemo
	if wd, err := filepath.Abs(cfg.Dir); err == nil {
		lm = newListMemo(wd, patterns)
	}
	var recordedKey []byte
	var pre *preparse
	if lm != nil {
		if res.all, recordedKey = lm.lookup(); res.all != nil {
			res.all = cfg.shape(res.all)
			pre = startPreparse(fset, res.all)
		}
	}
	s := <-settingsc
	if lm != nil && !lm.bind(s) {
		lm = nil
	}
	if lm != nil && res.all != nil && bytes.Equal(recordedKey, lm.key) {
		res.fromMemo, res.pre = true, pre
	} else {
		res.all = nil
	}
	if res.all == nil {
		start := time.Now()
		all, err := goList(cfg.Dir, patterns, false, false)
		if err != nil {
			return nil, err
		}
		res.all = cfg.shape(all)
		if lm != nil {
			res.record = lm.prepare(all, start)
		}
	}
	if cfg.Deps == DepsSource {
		return res, nil
	}
	res.memo = openExportMemo(s)
	if res.memo != nil && res.memo.apply(res.all) {
		res.remembered = true
		if lm != nil {
			lm.pointTo(res.memo)
		}
		return res, nil
	}
	if cfg.Deps == DepsAuto {
		all, err := goList(cfg.Dir, patterns, false, true)
		if err != nil {
			return nil, err
		}
		res.all = cfg.shape(all)
	}
	return res, nil
}

// readExport runs `go list -export` on the packages exported and records their export data files.
func readExport(dir string, exported []string, byPath map[string]*listed) error {
	if len(exported) == 0 {
		return nil
	}
	withExport, err := goList(dir, exported, true, false)
	if err != nil {
		return err
	}
	for _, e := range withExport {
		if l := byPath[e.ImportPath]; l != nil {
			l.Export = e.Export
		}
	}
	return nil
}

// importsSource reports whether l imports a package that is type-checked from source. `go list -deps`
// lists dependencies before the packages importing them, so the imports have been classified already.
func importsSource(l *listed, byPath map[string]*listed) bool {
	for _, imp := range l.Imports {
		if dep := byPath[l.resolve(imp)]; dep != nil && dep.fromSource {
			return true
		}
	}
	return false
}

func (l *listed) resolve(path string) string {
	if p, ok := l.ImportMap[path]; ok {
		return p
	}
	return path
}

// goList runs `go list -deps` on patterns (reporting whether each package is stale, that is not in the
// build cache, if stale is set), or with export, `go list -export` on the given packages.
func goList(dir string, patterns []string, export, stale bool) ([]*listed, error) {
	fields := "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Imports,ImportMap,DepOnly,Standard,Module,Error"
	if stale {
		fields += ",Stale"
	}
	args := []string{"list", "-e", "-deps", fields, "--"}
	if export {
		args = []string{"list", "-e", "-export", "-json=ImportPath,Export", "--"}
	}
	args = append(args, patterns...)
	goListRuns.Add(1)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if export {
			return nil, fmt.Errorf("go list -export (%d dependencies): %v\n%s", len(patterns), err, stderr.Bytes())
		}
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(patterns, " "), err, stderr.Bytes())
	}
	// `go list` warns on stderr about a pattern that matches no package.
	if msg := strings.TrimSpace(stderr.String()); strings.Contains(msg, "matched no packages") {
		return nil, fmt.Errorf("go list: %s", msg)
	}
	var all []*listed
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		l := new(listed)
		if err := dec.Decode(l); err != nil {
			return nil, fmt.Errorf("reading go list output: %w", err)
		}
		all = append(all, l)
	}
	return all, nil
}

// parsedFile is one file parseFile read: skipped as generated, parsed, or failed.
type parsedFile struct {
	file    *ast.File
	skipped bool
	err     error
}

// parseFile reads and parses the file called name unless it is generated.
func parseFile(fset *token.FileSet, name string) parsedFile {
	src, err := os.ReadFile(name)
	if err != nil {
		return parsedFile{err: err}
	}
	if IsGenerated(name, src) {
		return parsedFile{skipped: true}
	}
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	return parsedFile{file: f, err: err}
}

// preparse parses the files of the input packages of a remembered listing while `go env` runs, before
// the listing is known to hold; parseAll takes the results once it does.
type preparse struct {
	done  chan struct{}
	files map[string]parsedFile
}

func startPreparse(fset *token.FileSet, all []*listed) *preparse {
	var names []string
	for _, l := range all {
		if !l.DepOnly {
			for _, f := range l.GoFiles {
				names = append(names, filepath.Join(l.Dir, f))
			}
		}
	}
	p := &preparse{done: make(chan struct{}), files: make(map[string]parsedFile, len(names))}
	go func() {
		defer close(p.done)
		results := make([]parsedFile, len(names))
		inParallel(len(names), func(i int) { results[i] = parseFile(fset, names[i]) })
		for i, name := range names {
			p.files[name] = results[i]
		}
	}()
	return p
}

// parseAll parses the hand-written files of the source packages, using every CPU, taking those pre has
// parsed already.
func parseAll(fset *token.FileSet, sources []*listed, pre *preparse) error {
	if pre != nil {
		<-pre.done
	}
	type job struct {
		pkg  *listed
		i    int
		name string
	}
	var jobs []job
	files := make(map[*listed][]*ast.File, len(sources))
	for _, l := range sources {
		files[l] = make([]*ast.File, len(l.GoFiles))
		for i, f := range l.GoFiles {
			jobs = append(jobs, job{l, i, filepath.Join(l.Dir, f)})
		}
	}
	errs := make([]error, len(jobs))
	skipped := make([]bool, len(jobs))
	inParallel(len(jobs), func(i int) {
		j := jobs[i]
		p, ok := parsedFile{}, false
		if pre != nil {
			p, ok = pre.files[j.name]
		}
		if !ok {
			p = parseFile(fset, j.name)
		}
		files[j.pkg][j.i], skipped[i], errs[i] = p.file, p.skipped, p.err
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, l := range sources {
		for _, f := range files[l] {
			if f != nil {
				l.source.Files = append(l.source.Files, f)
			}
		}
	}
	for i, j := range jobs {
		if skipped[i] {
			j.pkg.source.Skipped = append(j.pkg.source.Skipped, filepath.Base(j.name))
		}
	}
	return nil
}

// exportImporter type-checks source packages and reads export data for the rest.
type exportImporter struct {
	fset   *token.FileSet
	byPath map[string]*listed
	sizes  types.Sizes

	mu       sync.Mutex // guards packages, shared by every export data read
	packages map[string]*types.Package
}

// check type-checks a source package once the source packages it imports are done.
func (imp *exportImporter) check(l *listed) {
	defer close(l.done)
	for _, dep := range l.waitFor {
		<-dep.done
	}
	if l.complete {
		imp.checkComplete(l)
		return
	}
	conf := imp.config(l, func(err error) { l.source.TypeErrors = append(l.source.TypeErrors, err.(types.Error)) })
	pkg, _ := conf.Check(l.ImportPath, imp.fset, l.source.Files, nil)
	l.source.Types = pkg
}

func (imp *exportImporter) importPath(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	l := imp.byPath[path]
	if l == nil {
		return nil, fmt.Errorf("package %s is not a dependency of the input packages", path)
	}
	if l.source != nil {
		if l.source.Types == nil {
			return nil, fmt.Errorf("import cycle through %s", path)
		}
		return l.source.Types, nil
	}
	imp.mu.Lock()
	defer imp.mu.Unlock()
	if p := imp.packages[path]; p != nil && p.Complete() {
		return p, nil
	}
	p, err := imp.read(path, l.Export)
	if err != nil {
		return nil, err
	}
	// Reading a package leaves the packages it refers to as incomplete placeholders, and reading one of
	// those later sets its imports, while another checker may be walking them to qualify an error
	// message. So every placeholder with export data is read now, before any checker can see it.
	tried := map[string]bool{path: true}
	for {
		var pending []string
		for q, pkg := range imp.packages {
			if dep := imp.byPath[q]; !pkg.Complete() && !tried[q] && dep != nil && dep.source == nil && dep.Export != "" {
				tried[q] = true
				pending = append(pending, q)
			}
		}
		if len(pending) == 0 {
			return p, nil
		}
		for _, q := range pending {
			if _, err := imp.read(q, imp.byPath[q].Export); err != nil {
				return nil, err
			}
		}
	}
}

// read reads the export data file of package path into imp.packages; imp.mu must be held.
func (imp *exportImporter) read(path, file string) (*types.Package, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// go list -export names compiler archives up to Go 1.26 and cmd/export files from Go 1.27; NewReader
	// reads both (it is deprecated only for the archives Go 1.29 stops reading).
	//lint:ignore SA1019 kgen supports Go 1.26, whose export files are compiler archives.
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading export data of %s: %w", path, err)
	}
	return gcexportdata.Read(r, imp.fset, imp.packages, path)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// inParallel calls f(i) for every i in [0, n) on GOMAXPROCS goroutines and returns when all calls have.
func inParallel(n int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
