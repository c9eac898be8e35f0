package crdgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/markers"
	"github.com/kgen-dev/kgen/internal/generators/goenv"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
)

// comments are what a declaration's comments say: the lines tags are read from (the doc comment plus
// the block one blank line above it, as gengo and controller-gen read them) and the doc comment alone,
// for descriptions.
type comments struct {
	tags []markers.Line
	doc  []string
}

// sourceIndex finds the comments of type and field declarations from their type-checker objects. Input
// packages are already parsed by the load; the declarations of dependencies (k8s.io/api, apimachinery)
// are found by reparsing the source file their export data positions name, once per file.
type sourceIndex struct {
	prog  *load.Program
	fset  *token.FileSet // positions of files parsed here
	files map[string]*fileIndex
}

// fileIndex is one parsed file with its declarations by line.
type fileIndex struct {
	fset     *token.FileSet
	file     *ast.File
	typeDecl map[int]typeSpec
	fields   map[int][]*ast.Field
	groups   map[int]*ast.CommentGroup // comment groups by end line
}

type typeSpec struct {
	spec *ast.TypeSpec
	decl *ast.GenDecl
}

func newSourceIndex(prog *load.Program) *sourceIndex {
	s := &sourceIndex{prog: prog, fset: token.NewFileSet(), files: map[string]*fileIndex{}}
	for _, p := range prog.Packages {
		for _, f := range p.Files {
			name := prog.Fset.Position(f.Package).Filename
			s.files[name] = indexFile(prog.Fset, f)
		}
	}
	return s
}

func indexFile(fset *token.FileSet, f *ast.File) *fileIndex {
	fi := &fileIndex{fset: fset, file: f, typeDecl: map[int]typeSpec{}, fields: map[int][]*ast.Field{}, groups: map[int]*ast.CommentGroup{}}
	for _, cg := range f.Comments {
		fi.groups[fset.Position(cg.End()).Line] = cg
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			fi.typeDecl[fset.Position(ts.Name.Pos()).Line] = typeSpec{ts, gd}
			ast.Inspect(ts.Type, func(n ast.Node) bool {
				if st, ok := n.(*ast.StructType); ok {
					for _, fld := range st.Fields.List {
						line := fset.Position(fld.Pos()).Line
						if len(fld.Names) > 0 {
							line = fset.Position(fld.Names[0].Pos()).Line
						}
						fi.fields[line] = append(fi.fields[line], fld)
					}
				}
				return true
			})
		}
	}
	return fi
}

// file returns the index of the named file, parsing it on first use.
func (s *sourceIndex) file(name string) (*fileIndex, error) {
	if fi, ok := s.files[name]; ok {
		return fi, nil
	}
	f, err := parser.ParseFile(s.fset, goenv.SourcePath(name), nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("reading the declarations of %s: %w", name, err)
	}
	fi := indexFile(s.fset, f)
	s.files[name] = fi
	return fi, nil
}

// typeComments returns the comments of a named type's declaration; ok is false when the source is not
// available (types without a position).
func (s *sourceIndex) typeComments(obj *types.TypeName) (comments, bool, error) {
	pos := s.prog.Fset.Position(obj.Pos())
	if !pos.IsValid() {
		return comments{}, false, nil
	}
	fi, err := s.file(pos.Filename)
	if err != nil {
		return comments{}, false, err
	}
	ts, ok := fi.typeDecl[pos.Line]
	if !ok || ts.spec.Name.Name != obj.Name() {
		return comments{}, false, nil
	}
	doc := ts.spec.Doc
	if doc == nil && len(ts.decl.Specs) == 1 {
		doc = ts.decl.Doc
	}
	anchor := fi.fset.Position(ts.spec.Pos()).Line
	if len(ts.decl.Specs) == 1 {
		anchor = fi.fset.Position(ts.decl.Pos()).Line
	}
	return fi.comments(doc, anchor), true, nil
}

// complete returns pkg with all its declarations. A package known only through the export data of a
// package importing it (k8s.io/api/core/v1 seen through batch/v1) holds just the declarations that
// importer refers to; its own export data holds the rest.
func (s *sourceIndex) complete(pkg *types.Package) (*types.Package, error) {
	if pkg.Complete() {
		return pkg, nil
	}
	return s.prog.Import(pkg.Path())
}

// definedFrom returns the named type a type declaration is defined from ("type A B" or "type A pkg.B"),
// which go/types flattens to B's underlying type; nil when the declaration spells out a type literal.
func (s *sourceIndex) definedFrom(obj *types.TypeName) *types.TypeName {
	pos := s.prog.Fset.Position(obj.Pos())
	fi, err := s.file(pos.Filename)
	if err != nil || obj.Pkg() == nil {
		return nil
	}
	ts, ok := fi.typeDecl[pos.Line]
	if !ok || ts.spec.Name.Name != obj.Name() || ts.spec.Assign.IsValid() {
		return nil
	}
	var scope *types.Scope
	var name string
	switch e := ts.spec.Type.(type) {
	case *ast.Ident:
		if pkg, err := s.complete(obj.Pkg()); err == nil {
			scope = pkg.Scope()
		}
		name = e.Name
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return nil
		}
		path := importPathOf(fi.file, x.Name)
		if path == "" {
			return nil
		}
		for _, imp := range obj.Pkg().Imports() {
			if imp.Path() != path {
				continue
			}
			if imp, err := s.complete(imp); err == nil {
				scope = imp.Scope()
			}
		}
		name = e.Sel.Name
	}
	if scope == nil {
		return nil
	}
	tn, _ := scope.Lookup(name).(*types.TypeName)
	if tn == nil {
		return nil
	}
	if _, ok := types.Unalias(tn.Type()).(*types.Named); !ok {
		return nil
	}
	return tn
}

// importPathOf returns the import path a file refers to by name (its last element, or its explicit name).
func importPathOf(f *ast.File, name string) string {
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if imp.Name != nil {
			if imp.Name.Name == name {
				return path
			}
			continue
		}
		last := path[strings.LastIndex(path, "/")+1:]
		if last == name || strings.TrimPrefix(strings.SplitN(last, ".", 2)[0], "go-") == name {
			return path
		}
	}
	return ""
}

// fieldComments returns the comments of a struct field's declaration.
func (s *sourceIndex) fieldComments(v *types.Var) (comments, error) {
	pos := s.prog.Fset.Position(v.Pos())
	if !pos.IsValid() {
		return comments{}, nil
	}
	fi, err := s.file(pos.Filename)
	if err != nil {
		return comments{}, err
	}
	for _, f := range fi.fields[pos.Line] {
		if fieldNamed(f, v.Name()) {
			return fi.fieldComments(f.Doc), nil
		}
	}
	return comments{}, nil
}

func fieldNamed(f *ast.Field, name string) bool {
	if len(f.Names) == 0 {
		t := f.Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		switch x := t.(type) {
		case *ast.Ident:
			return x.Name == name
		case *ast.SelectorExpr:
			return x.Sel.Name == name
		case *ast.IndexExpr:
			return true
		}
		return false
	}
	for _, n := range f.Names {
		if n.Name == name {
			return true
		}
	}
	return false
}

// fieldComments collects a field's doc comment: fields take tags from their doc comment only.
func (fi *fileIndex) fieldComments(doc *ast.CommentGroup) comments {
	var c comments
	if doc != nil {
		c.tags = fi.lines(doc)
		for _, l := range c.tags {
			c.doc = append(c.doc, l.Text)
		}
	}
	return c
}

// comments collects the tag lines of doc and of the block ending one blank line above it (or above the
// declaration at line anchor when there is no doc), and doc's text lines.
func (fi *fileIndex) comments(doc *ast.CommentGroup, anchor int) comments {
	var c comments
	if doc != nil {
		anchor = fi.fset.Position(doc.Pos()).Line
	}
	if above := fi.groups[anchor-2]; above != nil && above != doc {
		c.tags = append(c.tags, fi.lines(above)...)
	}
	if doc != nil {
		lines := fi.lines(doc)
		c.tags = append(c.tags, lines...)
		for _, l := range lines {
			c.doc = append(c.doc, l.Text)
		}
	}
	return c
}

// lines returns a comment group's lines without their comment markers (as model.CommentLines reads
// them), each with its position, looking up the group's file once.
func (fi *fileIndex) lines(cg *ast.CommentGroup) []markers.Line {
	tf := fi.fset.File(cg.Pos())
	if tf == nil {
		var out []markers.Line
		for _, l := range model.CommentLines(fi.fset, cg) {
			out = append(out, markers.Line{Text: l.Text, Pos: l.Pos})
		}
		return out
	}
	out := make([]markers.Line, 0, len(cg.List))
	for _, c := range cg.List {
		at := tf.Position(c.Slash)
		if text, ok := strings.CutPrefix(c.Text, "//"); ok {
			out = append(out, markers.Line{Text: strings.TrimPrefix(text, " "), Pos: at})
			continue
		}
		// A /* */ comment: each of its lines, trimmed, on the lines from its start.
		body := strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/")
		for i, l := range strings.Split(body, "\n") {
			lineAt := at
			lineAt.Line += i
			out = append(out, markers.Line{Text: strings.TrimSpace(l), Pos: lineAt})
		}
	}
	return out
}

// description turns doc comment lines into a schema description: tag lines removed, outside fenced code
// blocks lines starting with TODO dropped and a line starting with --- ending the text, trailing spaces
// and surrounding blank lines trimmed, runs of blank lines collapsed into one.
func description(doc []string) string {
	var out []string
	fenced := false
	for _, l := range doc {
		l = strings.TrimRight(l, " \t")
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "+") {
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
		}
		if !fenced {
			if strings.HasPrefix(l, "TODO") {
				continue
			}
			if strings.HasPrefix(l, "---") {
				break
			}
		}
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// packageMarkers returns the package-level markers of an input package (from every file's package
// comment).
func packageMarkers(prog *load.Program, p *load.Package) ([]*markers.Marker, error) {
	var out []*markers.Marker
	for _, f := range p.Files {
		var lines []markers.Line
		for _, cg := range f.Comments {
			if cg.End() > f.Package {
				break
			}
			fi := &fileIndex{fset: prog.Fset}
			lines = append(lines, fi.lines(cg)...)
		}
		ms, err := parseMarkers(lines, markers.OnPackage, true)
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	return out, nil
}
