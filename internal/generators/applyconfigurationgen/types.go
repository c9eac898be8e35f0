package applyconfigurationgen

import (
	"fmt"
	"go/ast"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/gengo/v2/codetags"
)

// kind classifies a resolved Go type expression.
type kind int

const (
	builtinKind kind = iota
	namedKind
	pointerKind
	sliceKind
	arrayKind
	mapKind
	interfaceKind
	structKind
)

// goType is a Go type expression resolved against its package: named types carry their import path.
type goType struct {
	kind kind
	// name is the builtin's or the named type's name; pkg the named type's import path.
	name, pkg string
	// elem is the element of pointers, slices, arrays and maps; key the key of maps.
	elem, key *goType
	// length is an array's length expression.
	length string
}

// id is the named type's "import/path.Name".
func (t *goType) id() string { return t.pkg + "." + t.name }

// resolve turns the type expression e of file f in package p into a goType; aliases (type A = B)
// resolve to what they stand for.
func (u *universe) resolve(p *pkgInfo, f *ast.File, e ast.Expr) (*goType, error) {
	return u.resolveDepth(p, f, e, 0)
}

func (u *universe) resolveDepth(p *pkgInfo, f *ast.File, e ast.Expr, depth int) (*goType, error) {
	t, err := u.resolveExpr(p, f, e)
	if err != nil || t.kind != namedKind || depth > 10 {
		return t, err
	}
	d, err := u.lookup(t.pkg, t.name)
	if err != nil || d == nil || !d.spec.Assign.IsValid() {
		return t, err
	}
	return u.resolveDepth(d.pkg, d.file, d.spec.Type, depth+1)
}

func (u *universe) resolveExpr(p *pkgInfo, f *ast.File, e ast.Expr) (*goType, error) {
	switch e := e.(type) {
	case *ast.Ident:
		if _, ok := p.decls[e.Name]; ok {
			return &goType{kind: namedKind, name: e.Name, pkg: p.path}, nil
		}
		if e.Name == "any" {
			return &goType{kind: interfaceKind}, nil
		}
		return &goType{kind: builtinKind, name: e.Name}, nil
	case *ast.SelectorExpr:
		local, ok := e.X.(*ast.Ident)
		if !ok {
			return nil, fmt.Errorf("unsupported type expression")
		}
		path, err := u.importPath(p, f, local.Name)
		if err != nil {
			return nil, err
		}
		return &goType{kind: namedKind, name: e.Sel.Name, pkg: path}, nil
	case *ast.StarExpr:
		elem, err := u.resolve(p, f, e.X)
		return &goType{kind: pointerKind, elem: elem}, err
	case *ast.ArrayType:
		elem, err := u.resolve(p, f, e.Elt)
		if e.Len == nil {
			return &goType{kind: sliceKind, elem: elem}, err
		}
		lit, _ := e.Len.(*ast.BasicLit)
		if lit == nil {
			return nil, fmt.Errorf("unsupported array length")
		}
		return &goType{kind: arrayKind, elem: elem, length: lit.Value}, err
	case *ast.MapType:
		key, err := u.resolve(p, f, e.Key)
		if err != nil {
			return nil, err
		}
		elem, err := u.resolve(p, f, e.Value)
		return &goType{kind: mapKind, key: key, elem: elem}, err
	case *ast.InterfaceType:
		return &goType{kind: interfaceKind}, nil
	case *ast.StructType:
		return &goType{kind: structKind}, nil
	case *ast.ParenExpr:
		return u.resolve(p, f, e.X)
	}
	return nil, fmt.Errorf("unsupported type expression %T", e)
}

// member is one field of a struct declaration.
type member struct {
	// name is the Go field name (the type name for embedded fields).
	name string
	typ  *goType
	// embedded is true for anonymous fields.
	embedded bool
	// jsonName is the name in the json tag; hasJSON is false without a json tag; omitempty and inline
	// record the tag options.
	jsonName           string
	hasJSON            bool
	omitempty, inline  bool
	patchStrategy, key string
	// comment holds the field's comment lines.
	comment []string
	pos     string
}

// skipped reports whether the member has no place in JSON.
func (m *member) skipped() bool {
	return !m.hasJSON || m.jsonName == "-" || strings.HasPrefix(m.name, "ZZZ_")
}

// structDecl returns the declaration of the struct d declares: d itself, or for `type A B` and
// `type A pkg.B` the struct declaration that chain ends at; nil when d is not a struct.
func (u *universe) structDecl(d *typeDecl) *typeDecl {
	for depth := 0; d != nil && depth < 10; depth++ {
		switch e := d.spec.Type.(type) {
		case *ast.StructType:
			return d
		case *ast.Ident, *ast.SelectorExpr:
			t, err := u.resolve(d.pkg, d.file, e)
			if err != nil || t.kind != namedKind {
				return nil
			}
			if d, err = u.lookup(t.pkg, t.name); err != nil {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// members returns the fields of the struct declared by d, in declaration order.
func (u *universe) members(d *typeDecl) ([]*member, error) {
	if d = u.structDecl(d); d == nil {
		return nil, nil
	}
	st := d.spec.Type.(*ast.StructType)
	var out []*member
	for _, field := range st.Fields.List {
		typ, err := u.resolve(d.pkg, d.file, field.Type)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.pkg.fset.Position(field.Pos()), err)
		}
		var tag reflect.StructTag
		if field.Tag != nil {
			raw, _ := strconv.Unquote(field.Tag.Value)
			tag = reflect.StructTag(raw)
		}
		base := member{typ: typ, pos: d.pkg.fset.Position(field.Pos()).String(),
			patchStrategy: tag.Get("patchStrategy"), key: tag.Get("patchMergeKey")}
		if field.Doc != nil {
			base.comment = commentLines(field.Doc)
		}
		if js, ok := tag.Lookup("json"); ok {
			base.hasJSON = true
			parts := strings.Split(js, ",")
			base.jsonName = parts[0]
			for _, opt := range parts[1:] {
				base.omitempty = base.omitempty || opt == "omitempty"
				base.inline = base.inline || opt == "inline"
			}
		}
		if len(field.Names) == 0 {
			m := base
			m.embedded = true
			named := typ
			if named.kind == pointerKind {
				named = named.elem
			}
			m.name = named.name
			out = append(out, &m)
			continue
		}
		for _, n := range field.Names {
			if !n.IsExported() {
				continue
			}
			m := base
			m.name = n.Name
			out = append(out, &m)
		}
	}
	return out, nil
}

// tagValues returns the values of every comment tag +name in lines, in order, read with codetags; a
// malformed tag is an error naming pos.
func tagValues(lines []string, name, pos string) ([]string, error) {
	var out []string
	for _, raw := range codetags.Extract("+", lines)[name] {
		tag, err := codetags.Parse(raw, codetags.RawValues(true))
		if err != nil {
			return nil, fmt.Errorf("%s: tag +%s: %w", pos, raw, err)
		}
		out = append(out, tag.Value)
	}
	return out, nil
}

// tagValue returns the value of the comment tag +name, which may be given once.
func tagValue(lines []string, name, pos string) (string, bool, error) {
	values, err := tagValues(lines, name, pos)
	switch {
	case err != nil:
		return "", false, err
	case len(values) > 1:
		return "", false, fmt.Errorf("%s: tag +%s: given %d times", pos, name, len(values))
	case len(values) == 0:
		return "", false, nil
	}
	return values[0], true, nil
}

// lastTagValue returns the last value of +name: for lines joining a type's comment and a member's,
// the member's tag wins.
func lastTagValue(lines []string, name, pos string) (string, bool, error) {
	values, err := tagValues(lines, name, pos)
	if err != nil || len(values) == 0 {
		return "", false, err
	}
	return values[len(values)-1], true, nil
}
