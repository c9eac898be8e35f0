package deepcopygen

import (
	"go/types"
	"strconv"
	"strings"
)

// kind classifies a type the way code-generator's type model does, which decides how it is copied.
type kind int

const (
	kindUnsupported kind = iota
	// kindBuiltin is an unnamed basic type.
	kindBuiltin
	// kindNamed is a defined type over a basic type, a map or a slice (gengo's "Alias").
	kindNamed
	kindStruct
	kindPointer
	kindMap
	kindSlice
	kindArray
	kindInterface
)

// kindOf classifies t. Type aliases (type A = B) are B.
func kindOf(t types.Type) kind {
	t = types.Unalias(t)
	u := t.Underlying()
	if _, named := t.(*types.Named); named {
		switch u.(type) {
		case *types.Basic, *types.Map, *types.Slice:
			return kindNamed
		}
	}
	switch u := u.(type) {
	case *types.Basic:
		if u.Kind() == types.Invalid || u.Kind() == types.UntypedNil {
			return kindUnsupported
		}
		return kindBuiltin
	case *types.Struct:
		return kindStruct
	case *types.Pointer:
		return kindPointer
	case *types.Map:
		return kindMap
	case *types.Slice:
		return kindSlice
	case *types.Array:
		return kindArray
	case *types.Interface:
		return kindInterface
	}
	return kindUnsupported
}

// underlyingOf is the type a named basic, map or slice type stands for; other types are themselves.
func underlyingOf(t types.Type) types.Type {
	t = types.Unalias(t)
	if kindOf(t) == kindNamed {
		return t.Underlying()
	}
	return t
}

// elemOf is the element type of a pointer, slice, map or array (named or not).
func elemOf(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return nil
}

// isReference reports pointers, maps, slices and named types over them.
func isReference(t types.Type) bool {
	switch kindOf(underlyingOf(t)) {
	case kindPointer, kindMap, kindSlice:
		return true
	}
	return false
}

// isPrimitive reports basic types, named or not.
func isPrimitive(t types.Type) bool {
	k := kindOf(t)
	return k == kindBuiltin || k == kindNamed && kindOf(t.Underlying()) == kindBuiltin
}

// isAssignable reports whether plain assignment copies t deeply: basic types, and structs whose fields
// all are.
func isAssignable(t types.Type) bool {
	if isPrimitive(t) {
		return true
	}
	if kindOf(t) != kindStruct {
		return false
	}
	s := types.Unalias(t).Underlying().(*types.Struct)
	for i := range s.NumFields() {
		if !isAssignable(s.Field(i).Type()) {
			return false
		}
	}
	return true
}

// isEmptyAnonymousStruct reports struct{}.
func isEmptyAnonymousStruct(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Struct)
	return ok && s.NumFields() == 0
}

// interfaceName is the name deepcopy-gen's DeepCopy<Name> method takes for an interface type: its own
// name (the alias's name for an alias of a named interface), or "" when it has none.
func interfaceName(t types.Type) string {
	switch t := t.(type) {
	case *types.Alias:
		if _, ok := types.Unalias(t).(*types.Named); ok {
			return t.Obj().Name()
		}
	case *types.Named:
		return t.Obj().Name()
	}
	return ""
}

// typeExpr renders t as Go source in the generated file, qualifying (and importing) other packages' types.
func (g *pkgGen) typeExpr(t types.Type) string {
	t = types.Unalias(t)
	switch t := t.(type) {
	case *types.Named:
		obj := t.Obj()
		name := obj.Name()
		if obj.Pkg() != nil && obj.Pkg().Path() != g.pkg.Path {
			name = g.file.Ref(obj.Pkg().Path(), obj.Name())
		}
		if args := t.TypeArgs(); args.Len() > 0 {
			list := make([]string, args.Len())
			for i := range list {
				list[i] = g.typeExpr(args.At(i))
			}
			name += "[" + strings.Join(list, ", ") + "]"
		}
		return name
	case *types.Basic:
		return t.Name()
	case *types.Pointer:
		return "*" + g.typeExpr(t.Elem())
	case *types.Slice:
		return "[]" + g.typeExpr(t.Elem())
	case *types.Array:
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + g.typeExpr(t.Elem())
	case *types.Map:
		return "map[" + g.typeExpr(t.Key()) + "]" + g.typeExpr(t.Elem())
	case *types.Struct:
		fields := make([]string, t.NumFields())
		for i := range fields {
			f := t.Field(i)
			if f.Embedded() {
				fields[i] = g.typeExpr(f.Type())
			} else {
				fields[i] = f.Name() + " " + g.typeExpr(f.Type())
			}
		}
		return "struct{" + strings.Join(fields, "; ") + "}"
	case *types.Interface:
		if t.Empty() {
			return "any"
		}
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == g.pkg.Path {
			return ""
		}
		return p.Name()
	})
}
