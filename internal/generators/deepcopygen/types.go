package deepcopygen

import (
	"go/types"
	"strconv"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/model"
)

// kindOf classifies t as model.KindOf does, but for the invalid and untyped nil basic types, which nothing
// copies.
func kindOf(t types.Type) model.Kind {
	if b, ok := types.Unalias(t).(*types.Basic); ok && (b.Kind() == types.Invalid || b.Kind() == types.UntypedNil) {
		return model.KindOther
	}
	return model.KindOf(t)
}

// underlyingOf is the type a named basic, map or slice type stands for; other types are themselves.
func underlyingOf(t types.Type) types.Type {
	t = types.Unalias(t)
	if kindOf(t) == model.KindAlias {
		return t.Underlying()
	}
	return t
}

// isReference reports pointers, maps, slices and named types over them.
func isReference(t types.Type) bool {
	switch kindOf(underlyingOf(t)) {
	case model.KindPointer, model.KindMap, model.KindSlice:
		return true
	}
	return false
}

// isPrimitive reports basic types, named or not.
func isPrimitive(t types.Type) bool {
	k := kindOf(t)
	return k == model.KindBuiltin || k == model.KindAlias && kindOf(t.Underlying()) == model.KindBuiltin
}

// isAssignable reports whether plain assignment copies t deeply: basic types, and structs whose fields
// all are.
func isAssignable(t types.Type) bool {
	if isPrimitive(t) {
		return true
	}
	if kindOf(t) != model.KindStruct {
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
