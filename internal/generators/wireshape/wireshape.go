// Package wireshape is the wire-shape model of API packages: what a Go type looks like in JSON, derived
// once from the load (go/types and the comment tags). Fields carry their JSON names, inline embedding,
// optionality, list/map/struct semantics, scalar formats and doc comments; schema emitters (OpenAPI
// definitions, CRD schemas, apply-configuration schemas) are projections of it.
//
// Comments are attached as gengo attaches them, which the code-generator tools read: a declaration's
// comment lines are the comment group ending on the line before it, and its detached comment lines the
// group ending one blank line above that.
package wireshape

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"sync"

	"github.com/kgen-dev/kgen/internal/generators/load"
)

// Model is the wire shape of a set of packages.
type Model struct {
	// Fset positions every declaration.
	Fset *token.FileSet
	// Packages are the modelled packages, sorted by import path.
	Packages []*Package

	byPath   map[string]*Package
	mu       sync.Mutex // guards comments and indexed, which grow as files outside the packages are read
	comments map[fileLine]block
	indexed  map[string]bool
	byObj    map[*types.TypeName]*Type
	byStruct map[*types.Struct]*Type
}

// Package is one modelled package.
type Package struct {
	// Path, Name and Dir are the import path, package name and directory.
	Path, Name, Dir string
	// DocComments are the comment lines of the package's doc.go (all its comments, as gengo reads package
	// tags), in file order.
	DocComments []string
	// DocPos is the position of doc.go's package clause (the zero value without doc.go).
	DocPos token.Position
	// Types are the package's named types, sorted by name.
	Types []*Type
	// Types is the type-checked package.
	TypesPkg *types.Package
}

// Type is one named type.
type Type struct {
	// Pkg is the declaring package, Name the type name and Obj its type-checker object.
	Pkg  *Package
	Name string
	Obj  *types.TypeName
	// Pos is the declaration's position.
	Pos token.Position
	// Comments are the comment lines touching the declaration; Detached those of the block above them,
	// separated by a blank line.
	Comments, Detached []string
	// Struct tells whether the type's underlying type is a struct; Fields are then its fields, in
	// declaration order.
	Struct bool
	Fields []*Field
}

// Field is one struct field.
type Field struct {
	// Name is the Go name (the type name for an embedded field).
	Name string
	// Embedded tells an embedded field.
	Embedded bool
	// Var is the field's type-checker object; Type its type.
	Var  *types.Var
	Type types.Type
	// Tag is the raw struct tag.
	Tag string
	// JSON is the parsed json key of Tag.
	JSON JSONTag
	// Comments are the comment lines touching the field.
	Comments []string
	// Pos is the field's position.
	Pos token.Position
}

// block is a comment group: its first line and its text's lines.
type block struct {
	start int
	lines []string
}

type fileLine struct {
	file string
	line int
}

// Build models the packages pkgs of a load, sharing fset.
func Build(fset *token.FileSet, pkgs []*load.Package) *Model {
	m := &Model{Fset: fset, byPath: map[string]*Package{}, comments: map[fileLine]block{}, indexed: map[string]bool{}, byObj: map[*types.TypeName]*Type{}, byStruct: map[*types.Struct]*Type{}}
	for _, lp := range pkgs {
		for _, f := range lp.Files {
			m.index(fset, f)
		}
	}
	for _, lp := range pkgs {
		if lp.Types == nil {
			continue
		}
		p := &Package{Path: lp.Path, Name: lp.Name, Dir: lp.Dir, TypesPkg: lp.Types}
		for _, f := range lp.Files {
			pos := fset.Position(f.Package)
			if baseName(pos.Filename) != "doc.go" {
				continue
			}
			p.DocPos = pos
			for _, c := range f.Comments {
				p.DocComments = append(p.DocComments, splitLines(c.Text())...)
			}
		}
		scope := lp.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			t := &Type{Pkg: p, Name: name, Obj: tn, Pos: fset.Position(tn.Pos())}
			t.Comments, t.Detached = m.commentsAt(tn.Pos())
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				t.Struct = true
				t.Fields = m.fields(st)
			}
			p.Types = append(p.Types, t)
			m.byObj[tn] = t
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				m.byStruct[st] = t
			}
		}
		m.Packages = append(m.Packages, p)
		m.byPath[p.Path] = p
	}
	sort.Slice(m.Packages, func(i, j int) bool { return m.Packages[i].Path < m.Packages[j].Path })
	return m
}

// fields models the fields of st, with their comments when st's package is modelled.
func (m *Model) fields(st *types.Struct) []*Field {
	out := make([]*Field, st.NumFields())
	for i := range out {
		v := st.Field(i)
		f := &Field{Name: v.Name(), Embedded: v.Embedded(), Var: v, Type: v.Type(), Tag: st.Tag(i), Pos: m.Fset.Position(v.Pos())}
		f.JSON = parseJSONTag(f.Tag)
		f.Comments, _ = m.commentsAt(v.Pos())
		out[i] = f
	}
	return out
}

// FieldsOf returns the fields of struct type st: the modelled ones when st is the underlying type of a
// modelled named type, else fields modelled on the spot (with comments only if their package is
// modelled).
func (m *Model) FieldsOf(st *types.Struct) []*Field {
	if t := m.byStruct[st]; t != nil {
		return t.Fields
	}
	return m.fields(st)
}

// Package returns the modelled package path, or nil.
func (m *Model) Package(path string) *Package { return m.byPath[path] }

// TypeOf returns the modelled declaration of named type n, or nil when its package is not modelled.
func (m *Model) TypeOf(n *types.Named) *Type { return m.byObj[n.Origin().Obj()] }

// Comments returns the comment lines of t's declaration when t is a modelled named type, else nil.
func (m *Model) Comments(t types.Type) []string {
	if n, ok := t.(*types.Named); ok {
		if d := m.TypeOf(n); d != nil {
			return d.Comments
		}
	}
	return nil
}

// CommentsAt returns the comment lines touching the declaration at pos and those of the detached block
// above them.
func (m *Model) CommentsAt(pos token.Pos) (touching, detached []string) { return m.commentsAt(pos) }

// index records the comment groups of file f.
func (m *Model) index(fset *token.FileSet, f *ast.File) {
	name := fset.Position(f.Package).Filename
	m.indexed[name] = true
	for _, c := range f.Comments {
		start, end := fset.Position(c.Pos()), fset.Position(c.End())
		m.comments[fileLine{name, end.Line}] = block{start: start.Line, lines: splitLines(c.Text())}
	}
}

// commentsAt returns the comment lines of the group ending on the line before pos and of the detached
// group ending one blank line above that. A declaration outside the modelled packages (a dependency's,
// read from export data) has its file parsed for comments on first use.
func (m *Model) commentsAt(pos token.Pos) (touching, detached []string) {
	p := m.Fset.Position(pos)
	if !p.IsValid() {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.indexed[p.Filename] {
		m.indexed[p.Filename] = true
		fset := token.NewFileSet()
		if f, err := parser.ParseFile(fset, p.Filename, nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
			m.index(fset, f)
		}
	}
	c1, ok := m.comments[fileLine{p.Filename, p.Line - 1}]
	above := p.Line
	if ok {
		above = c1.start
	}
	c2 := m.comments[fileLine{p.Filename, above - 2}]
	return c1.lines, c2.lines
}

func splitLines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
