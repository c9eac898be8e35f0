package applyconfigurationgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/load"
)

// universe holds the parsed syntax of the input packages and of every package their types lead to,
// parsed on first use from the load's listing. Types are resolved from syntax alone: nothing is
// type-checked.
type universe struct {
	prog *load.Program
	pkgs map[string]*pkgInfo
}

// pkgInfo is one parsed package.
type pkgInfo struct {
	path, name, dir string
	fset            *token.FileSet
	files           []*ast.File
	docFile         *ast.File
	decls           map[string]*typeDecl
	// methods records the names of the methods declared on each type ("Quantity": {"OpenAPISchemaType"}).
	methods map[string][]*ast.FuncDecl
	// consts maps constant names to their value expressions.
	consts map[string]ast.Expr
	// importNames maps each import path of the package's files to its package name, filled on first use.
	importNames map[string]string
}

// typeDecl is one named type declaration.
type typeDecl struct {
	pkg  *pkgInfo
	file *ast.File
	spec *ast.TypeSpec
	// comment holds the type's comment lines (closest block plus the block one blank line above it).
	comment []string
	// doc holds only the closest comment block's lines, for documentation.
	doc []string
}

func (d *typeDecl) name() string        { return d.spec.Name.Name }
func (d *typeDecl) pos() token.Position { return d.pkg.fset.Position(d.spec.Name.Pos()) }

func newUniverse(prog *load.Program) *universe {
	return &universe{prog: prog, pkgs: map[string]*pkgInfo{}}
}

func newPkgInfo(path, name string, fset *token.FileSet) *pkgInfo {
	return &pkgInfo{path: path, name: name, fset: fset, decls: map[string]*typeDecl{},
		methods: map[string][]*ast.FuncDecl{}, consts: map[string]ast.Expr{}}
}

// addFile adds a parsed file of the package, noting doc.go, where package tags live.
func (p *pkgInfo) addFile(f *ast.File) {
	p.files = append(p.files, f)
	if filepath.Base(p.fset.Position(f.Package).Filename) == "doc.go" {
		p.docFile = f
	}
	p.index(f)
}

// parse parses the package l lists, without the files generators wrote.
func parse(l *load.Listing) (*pkgInfo, error) {
	pi := newPkgInfo(l.Path, l.Name, token.NewFileSet())
	for _, name := range l.GoFiles {
		pi.dir = filepath.Dir(name)
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if load.IsGenerated(name, src) {
			// Generated files (deepcopy, protobuf, ...) declare no API types; skipping them halves the
			// source read from k8s.io/api.
			continue
		}
		f, err := parser.ParseFile(pi.fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pi.addFile(f)
	}
	return pi, nil
}

// index records the file's type declarations with their comments, and its methods.
func (p *pkgInfo) index(f *ast.File) {
	ends := make(map[int]*ast.CommentGroup, len(f.Comments))
	for _, cg := range f.Comments {
		ends[p.fset.Position(cg.End()).Line] = cg
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				if recv := receiverName(d.Recv.List[0].Type); recv != "" {
					p.methods[recv] = append(p.methods[recv], d)
				}
			}
		case *ast.GenDecl:
			if d.Tok == token.CONST {
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							p.consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
			if d.Tok != token.TYPE {
				continue
			}
			for _, spec := range d.Specs {
				ts := spec.(*ast.TypeSpec)
				line := p.fset.Position(ts.Name.Pos()).Line
				if len(d.Specs) == 1 {
					line = p.fset.Position(d.Pos()).Line
				}
				td := &typeDecl{pkg: p, file: f, spec: ts}
				if c1 := ends[line-1]; c1 != nil {
					td.doc = commentLines(c1)
					if c2 := ends[p.fset.Position(c1.Pos()).Line-2]; c2 != nil {
						td.comment = append(td.comment, commentLines(c2)...)
					}
					td.comment = append(td.comment, td.doc...)
				} else if c2 := ends[line-2]; c2 != nil {
					td.comment = commentLines(c2)
				}
				p.decls[ts.Name.Name] = td
			}
		}
	}
}

func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// commentLines returns the text lines of a comment group without comment markers.
func commentLines(cg *ast.CommentGroup) []string {
	var out []string
	for _, c := range cg.List {
		if text, ok := strings.CutPrefix(c.Text, "//"); ok {
			out = append(out, strings.TrimPrefix(text, " "))
			continue
		}
		for _, l := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/"), "\n") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// hasMethod reports whether the package declares the method on the named type.
func (p *pkgInfo) method(typeName, method string) *ast.FuncDecl {
	for _, m := range p.methods[typeName] {
		if m.Name.Name == method {
			return m
		}
	}
	return nil
}

// lookup returns the declaration of pkg.name, loading pkg if needed; nil if there is none.
func (u *universe) lookup(pkg, name string) (*typeDecl, error) {
	p := u.pkgs[pkg]
	if p == nil {
		listed, err := u.prog.Listings(pkg)
		if err != nil {
			return nil, err
		}
		if p, err = parse(listed[0]); err != nil {
			return nil, err
		}
		u.pkgs[pkg] = p
	}
	return p.decls[name], nil
}

// importPath resolves the package name local in file f of package p to an import path.
func (u *universe) importPath(p *pkgInfo, f *ast.File, local string) (string, error) {
	var candidates []string
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		if imp.Name != nil {
			if imp.Name.Name == local {
				return path, nil
			}
			continue
		}
		candidates = append(candidates, path)
	}
	// The package name is nearly always the last path element; only when no import matches that way
	// are the imports' real names listed.
	for _, exact := range []bool{true, false} {
		for _, path := range candidates {
			if guessName(path, exact) == local {
				return path, nil
			}
		}
	}
	if p.importNames == nil {
		p.importNames = map[string]string{}
	}
	var unknown []string
	for _, path := range candidates {
		if _, ok := p.importNames[path]; !ok {
			unknown = append(unknown, path)
		}
	}
	if len(unknown) > 0 {
		listed, err := u.prog.Listings(unknown...)
		if err != nil {
			return "", err
		}
		for _, l := range listed {
			p.importNames[l.Path] = l.Name
		}
	}
	for _, path := range candidates {
		if p.importNames[path] == local {
			return path, nil
		}
	}
	return "", fmt.Errorf("%s: no import named %s", p.fset.Position(f.Package).Filename, local)
}

// guessName is the conventional package name of an import path: its last element (exact), or else
// that without a major version suffix ("example.com/x/v2" is x), a "go-" prefix or a dotted suffix.
func guessName(path string, exact bool) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if exact {
		return last
	}
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	last = strings.TrimPrefix(last, "go-")
	if i := strings.IndexAny(last, ".-"); i >= 0 {
		last = last[:i]
	}
	return last
}
