package fidelity

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// API maps each exported declaration of a package tree to its signature. Keys are "<dir>.<Name>" for
// package-level names, "<dir>.<Type>.<Member>" for methods, interface methods and struct fields, and
// "<dir>.<Type>.embeds <T>" for embedded types; <dir> is the package directory relative to the tree's root.
type API map[string]string

// Load reads the exported API of every non-test Go package under root. mapImport rewrites each import
// path before it qualifies a name in a signature, so trees that import equivalent packages under
// different paths compare equal.
func Load(root string, mapImport func(string) string) (API, error) {
	api, unexported := API{}, API{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".go" || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		addFile(api, unexported, filepath.ToSlash(rel), f, qualifiers(f, mapImport))
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, v := range api {
		unexported[k] = v
	}
	flatten(api, unexported, func(string) string { return "" })
	return api, nil
}

// FlattenInterfaces replaces each embedding of an interface the API declares by that interface's methods,
// so an interface that lists methods and one that embeds an interface listing them compare equal. An
// embedded name without qualifier is looked up in the embedding package; dirOf returns the directory key
// of a qualifier's (mapped) import path, or "" for packages outside the API.
func (api API) FlattenInterfaces(dirOf func(importPath string) string) { flatten(api, api, dirOf) }

// flatten is FlattenInterfaces looking embedded interfaces up in all, which may hold unexported ones.
func flatten(api, all API, dirOf func(importPath string) string) {
	for changed := true; changed; {
		changed = false
		for k := range api {
			iface, embedded, ok := strings.Cut(k, ".embeds ")
			if !ok || !strings.HasSuffix(api[iface], " interface") {
				continue
			}
			target := iface[:strings.LastIndex(iface, ".")] + "." + embedded
			if m := qualified.FindStringSubmatch(embedded); m != nil {
				if dir := dirOf(m[1]); dir != "" {
					target = dir + "." + m[2]
				}
			}
			if !strings.HasSuffix(all[target], " interface") {
				continue
			}
			for m, sig := range all {
				if rest, ok := strings.CutPrefix(m, target+"."); ok {
					api[iface+"."+rest] = sig
				}
			}
			delete(api, k)
			changed = true
		}
	}
}

var qualified = regexp.MustCompile(`^"([^"]+)"\.([A-Za-z_][A-Za-z0-9_]*)$`)

// qualifiers returns a function that renders an expression with each package qualifier replaced by the
// mapped import path in quotes.
func qualifiers(f *ast.File, mapImport func(string) string) func(ast.Expr) string {
	names := map[string]string{}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		local := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		names[local] = strconv.Quote(mapImport(p))
	}
	return func(e ast.Expr) string {
		return qualifier.ReplaceAllStringFunc(types.ExprString(e), func(m string) string {
			if p, ok := names[strings.TrimSuffix(m, ".")]; ok {
				return p + "."
			}
			return m
		})
	}
}

var qualifier = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*\.`)

// addFile adds f's exported declarations to api and its unexported interfaces, which exported ones may
// embed, to unexported.
func addFile(api, unexported API, dir string, f *ast.File, expr func(ast.Expr) string) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				api[dir+"."+d.Name.Name] = expr(d.Type)
				continue
			}
			recv, ptr := receiver(d.Recv.List[0].Type)
			if ast.IsExported(recv) {
				api[dir+"."+recv+"."+d.Name.Name] = ptr + expr(d.Type)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						addType(api, dir+"."+s.Name.Name, s, expr)
					} else if _, ok := s.Type.(*ast.InterfaceType); ok {
						addType(unexported, dir+"."+s.Name.Name, s, expr)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						sig := d.Tok.String()
						if s.Type != nil {
							sig += " " + expr(s.Type)
						}
						api[dir+"."+n.Name] = sig
					}
				}
			}
		}
	}
}

// receiver returns a method receiver's base type name and "(*)" for pointer receivers.
func receiver(e ast.Expr) (string, string) {
	ptr := ""
	if s, ok := e.(*ast.StarExpr); ok {
		e, ptr = s.X, "(*) "
	}
	switch t := e.(type) {
	case *ast.IndexExpr:
		e = t.X
	case *ast.IndexListExpr:
		e = t.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name, ptr
	}
	return "", ptr
}

func addType(api API, key string, s *ast.TypeSpec, expr func(ast.Expr) string) {
	head := "type"
	if s.TypeParams != nil {
		var params []string
		for _, f := range s.TypeParams.List {
			for _, n := range f.Names {
				params = append(params, n.Name+" "+expr(f.Type))
			}
		}
		head += "[" + strings.Join(params, ", ") + "]"
	}
	if s.Assign.IsValid() {
		head += " ="
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		api[key] = head + " struct"
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 {
				api[key+".embeds "+expr(f.Type)] = ""
			}
			for _, n := range f.Names {
				if n.IsExported() {
					api[key+"."+n.Name] = expr(f.Type)
				}
			}
		}
	case *ast.InterfaceType:
		api[key] = head + " interface"
		for _, m := range t.Methods.List {
			if len(m.Names) == 0 {
				api[key+".embeds "+expr(m.Type)] = ""
			}
			for _, n := range m.Names {
				api[key+"."+n.Name] = expr(m.Type)
			}
		}
	default:
		api[key] = head + " " + expr(s.Type)
	}
}

// Comparison is how one API (got) matches another (want).
type Comparison struct {
	// Matched counts want's declarations that got has with the same signature; Total is len(want).
	Matched, Total int
	// Deviations describe each declaration of want that got lacks or declares differently, and each extra
	// declaration of got, sorted.
	Deviations []string
}

// Percent is the share of want's declarations that got matches.
func (c Comparison) Percent() float64 {
	if c.Total == 0 {
		return 100
	}
	return 100 * float64(c.Matched) / float64(c.Total)
}

// Compare compares got with want.
func Compare(want, got API) Comparison {
	c := Comparison{Total: len(want)}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			c.Deviations = append(c.Deviations, fmt.Sprintf("missing %s %s", k, w))
		case g != w:
			c.Deviations = append(c.Deviations, fmt.Sprintf("differs %s: %s, want %s", k, g, w))
		default:
			c.Matched++
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			c.Deviations = append(c.Deviations, fmt.Sprintf("extra %s %s", k, g))
		}
	}
	sort.Strings(c.Deviations)
	return c
}

// ResolveAliases replaces each non-generic alias of a type declared in decls by that declaration and its
// members, so an alias compares equal to a declaration of the same type. dirOf returns the directory key in
// decls of an alias target's (mapped) import path, or "" for packages decls does not hold.
func (api API) ResolveAliases(decls API, dirOf func(importPath string) string) {
	for k, v := range api {
		m := alias.FindStringSubmatch(v)
		if m == nil {
			continue
		}
		dir := dirOf(m[1])
		target, ok := decls[dir+"."+m[2]]
		if dir == "" || !ok {
			continue
		}
		api[k] = target
		for member, sig := range decls {
			if rest, ok := strings.CutPrefix(member, dir+"."+m[2]+"."); ok {
				api[k+"."+rest] = sig
			}
		}
	}
}

var alias = regexp.MustCompile(`^type = "([^"]+)"\.([A-Za-z_][A-Za-z0-9_]*)$`)
