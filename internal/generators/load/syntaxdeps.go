package load

import (
	"errors"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Syntax dependencies are packages a generator reads the comments of (openapi-gen's descriptions of
// apimachinery's types) while every other generator must see them as the dependencies they are, their
// generated declarations included. Load lists them with the patterns, keeps them out of the input
// packages, reads their types as it reads any dependency's, and parses their hand-written files besides.

// listPatterns are the patterns Load lists: cfg's syntax dependencies after the patterns.
func (cfg Config) listPatterns(patterns []string) []string {
	out := slices.Clone(patterns)
	for _, p := range cfg.SyntaxDeps {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// shape is the listing all as the load uses it: without the run's own output packages (see
// dropOwnOutput), and with the packages the syntax dependencies' patterns match that no input pattern
// matches turned into dependencies.
// A package turned is a copy, so that the listing memo keeps what go list reported.
func (cfg Config) shape(all []*listed) []*listed {
	all = dropOwnOutput(all, cfg.OutputDirs)
	if len(cfg.SyntaxDeps) == 0 {
		return all
	}
	wd, err := filepath.Abs(cfg.Dir)
	if err != nil {
		wd = cfg.Dir
	}
	out := make([]*listed, len(all))
	for i, l := range all {
		out[i] = l
		if !slices.ContainsFunc(cfg.SyntaxDeps, func(p string) bool { return patternMatches(p, wd, l) }) {
			continue
		}
		c := *l
		c.syntax = true
		if !l.DepOnly && !slices.ContainsFunc(cfg.inputs, func(p string) bool { return patternMatches(p, wd, l) }) {
			c.DepOnly = true
		}
		out[i] = &c
	}
	return out
}

// patternMatches reports whether the go package pattern p, resolved from directory wd, matches l: a
// file-system pattern (".", "..", or starting with "./", "../" or "/") by l's directory, any other by its
// import path, "..." standing for any string and "x/..." matching x too; "all", "std" and "cmd" match
// anything, so that nothing they name is taken out of the inputs.
func patternMatches(p, wd string, l *listed) bool {
	switch p {
	case "all", "std", "cmd":
		return true
	}
	subject := l.ImportPath
	if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		p, subject = filepath.ToSlash(filepath.Clean(p)), filepath.ToSlash(l.Dir)
	}
	re := regexp.QuoteMeta(p)
	if strings.HasSuffix(re, `/\.\.\.`) {
		re = strings.TrimSuffix(re, `/\.\.\.`) + `(/\.\.\.)?`
	}
	re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
	ok, _ := regexp.MatchString("^"+re+"$", subject)
	return ok
}

// parseSyntaxDeps parses the hand-written files of the syntax dependencies in all, comments included.
func parseSyntaxDeps(fset *token.FileSet, all []*listed) (map[*listed]*Package, error) {
	type job struct {
		pkg  *Package
		name string
	}
	pkgs := map[*listed]*Package{}
	var jobs []job
	for _, l := range all {
		if !l.syntax || !l.DepOnly {
			continue
		}
		p := &Package{Path: l.ImportPath, Name: l.Name, Dir: l.Dir}
		pkgs[l] = p
		for _, f := range l.GoFiles {
			jobs = append(jobs, job{p, filepath.Join(l.Dir, f)})
		}
	}
	parsed := make([]parsedFile, len(jobs))
	inParallel(len(jobs), func(i int) { parsed[i] = parseFile(fset, jobs[i].name) })
	var errs []error
	for i, j := range jobs {
		switch p := parsed[i]; {
		case p.err != nil:
			errs = append(errs, p.err)
		case p.skipped:
			j.pkg.Skipped = append(j.pkg.Skipped, filepath.Base(j.name))
		default:
			j.pkg.Files = append(j.pkg.Files, p.file)
		}
	}
	return pkgs, errors.Join(errs...)
}

// syntaxDeps completes the parsed syntax dependencies with their types, as the input packages see them,
// and returns them sorted by import path.
func (prog *Program) syntaxDeps(parsed map[*listed]*Package) ([]*Package, error) {
	var out []*Package
	for l, p := range parsed {
		if l.source != nil {
			p.Types = l.source.Types
		} else {
			t, err := prog.imp.importPath(l.ImportPath)
			if err != nil {
				return nil, err
			}
			p.Types = t
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
