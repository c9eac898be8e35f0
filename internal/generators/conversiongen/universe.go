package conversiongen

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// kind classifies a type as code-generator's type model does, which decides what conversion code a
// field gets: a named type whose underlying type is a basic type, a map or a slice is an alias (of that
// underlying type); other named types take the kind of their underlying type.
type kind int

const (
	kindBuiltin kind = iota
	kindStruct
	kindPointer
	kindSlice
	kindMap
	kindArray
	kindAlias
	kindInterface
	kindFunc
	kindChan
	kindUnsupported
)

// typ is one type of the program in that model. Types are interned by their full name (go/types'
// unqualified TypeString: "k8s.io/api/core/v1.Pod", "[]string", "*int32"), so two typ values of the same
// name are the same pointer, as in code-generator, whichever type-checked package they came from.
type typ struct {
	// name is the full name.
	name string
	// pkg and local are a named type's package path and name within it; local is also a builtin's name.
	pkg, local string
	kind       kind
	// elem is a pointer's, slice's, array's, map's or channel's element; key a map's key.
	elem, key *typ
	// underlying is an alias' underlying type.
	underlying *typ
	members    []member
	length     int64
	// goType is the type as go/types knows it; obj a named type's declaration.
	goType types.Type
	obj    *types.TypeName
}

// member is a struct field.
type member struct {
	name string
	t    *typ
	tag  string
	v    *types.Var
}

// universe interns the types of one run.
type universe struct {
	byName map[string]*typ
}

func newUniverse() *universe { return &universe{byName: map[string]*typ{}} }

// of returns the typ of t.
func (u *universe) of(t types.Type) *typ {
	t = unaliasDeep(t)
	name := types.TypeString(t, nil)
	if x, ok := u.byName[name]; ok {
		return x
	}
	x := &typ{name: name, goType: t}
	u.byName[name] = x
	switch t := t.(type) {
	case *types.Basic:
		x.kind, x.local = kindBuiltin, t.Name()
		if t.Kind() == types.UnsafePointer || t.Kind() == types.Invalid {
			x.kind = kindUnsupported
		}
	case *types.Named:
		x.obj = t.Obj()
		x.local = t.Obj().Name()
		if t.Obj().Pkg() != nil {
			x.pkg = t.Obj().Pkg().Path()
		}
		switch t.Underlying().(type) {
		case *types.Basic, *types.Map, *types.Slice:
			x.kind = kindAlias
			x.underlying = u.of(t.Underlying())
		default:
			u.fill(x, t.Underlying())
		}
	default:
		u.fill(x, t)
	}
	return x
}

// unaliasDeep replaces type aliases by their targets, also as the elements of pointer, slice, array, map
// and channel types: code-generator names and identifies a type by what an alias stands for.
func unaliasDeep(t types.Type) types.Type {
	switch x := types.Unalias(t).(type) {
	case *types.Pointer:
		return types.NewPointer(unaliasDeep(x.Elem()))
	case *types.Slice:
		return types.NewSlice(unaliasDeep(x.Elem()))
	case *types.Array:
		return types.NewArray(unaliasDeep(x.Elem()), x.Len())
	case *types.Map:
		return types.NewMap(unaliasDeep(x.Key()), unaliasDeep(x.Elem()))
	case *types.Chan:
		return types.NewChan(x.Dir(), unaliasDeep(x.Elem()))
	default:
		return x
	}
}

// fill sets x's kind and parts from the unnamed type t.
func (u *universe) fill(x *typ, t types.Type) {
	switch t := t.(type) {
	case *types.Struct:
		x.kind = kindStruct
		for i := range t.NumFields() {
			f := t.Field(i)
			x.members = append(x.members, member{name: f.Name(), t: u.of(f.Type()), tag: t.Tag(i), v: f})
		}
	case *types.Pointer:
		x.kind, x.elem = kindPointer, u.of(t.Elem())
	case *types.Slice:
		x.kind, x.elem = kindSlice, u.of(t.Elem())
	case *types.Array:
		x.kind, x.elem, x.length = kindArray, u.of(t.Elem()), t.Len()
	case *types.Map:
		x.kind, x.key, x.elem = kindMap, u.of(t.Key()), u.of(t.Elem())
	case *types.Chan:
		x.kind, x.elem = kindChan, u.of(t.Elem())
	case *types.Interface:
		x.kind = kindInterface
	case *types.Signature:
		x.kind = kindFunc
	case *types.Basic:
		x.kind, x.local = kindBuiltin, t.Name()
	default:
		x.kind = kindUnsupported
	}
}

// unwrapAlias follows aliases down to a type that is not one.
func unwrapAlias(t *typ) *typ {
	for t.kind == kindAlias {
		t = t.underlying
	}
	return t
}

// asMember is the type a struct field of type t is converted as: an alias is replaced by a copy of its
// underlying type that keeps the alias' name, so the generated code names the alias but handles the
// value by its underlying kind. The copy is a new pointer: it is identical to no other type.
func asMember(t *typ) *typ {
	u := unwrapAlias(t)
	if u == t {
		return t
	}
	c := *u
	c.name, c.pkg, c.local, c.goType, c.obj = t.name, t.pkg, t.local, t.goType, t.obj
	return &c
}

func (t *typ) String() string { return t.name }

// isPrimitive reports a builtin or an alias of one.
func (t *typ) isPrimitive() bool {
	return t.kind == kindBuiltin || t.kind == kindAlias && t.underlying.kind == kindBuiltin
}

// isAssignable reports whether assignment copies a value of t completely: primitives, and structs of
// such members.
func (t *typ) isAssignable() bool {
	if t.isPrimitive() {
		return true
	}
	if t.kind == kindStruct {
		for _, m := range t.members {
			if !m.t.isAssignable() {
				return false
			}
		}
		return true
	}
	return false
}

// findMember returns t's member called name.
func (t *typ) findMember(name string) (member, bool) {
	if t.kind != kindStruct {
		return member{}, false
	}
	for _, m := range t.members {
		if m.name == name {
			return m, true
		}
	}
	return member{}, false
}

// pos is where a named type is declared.
func (t *typ) pos() token.Pos {
	if t.obj == nil {
		return token.NoPos
	}
	return t.obj.Pos()
}

var importPathSanitizer = strings.NewReplacer("-", "_", ".", "")

// public is the name of t in conversion function names: a named type's last package path element
// (dashes made underscores, dots dropped) and its name, joined by "_" ("v1alpha1_Flunder"); a builtin's
// name; Pointer_<elem>, Slice_<elem>, Map_<key>_To_<elem>, Array_<len>_<elem> for unnamed types.
func (t *typ) public() string {
	if t.pkg != "" {
		dirs := strings.Split(t.pkg, "/")
		return importPathSanitizer.Replace(dirs[len(dirs)-1]) + "_" + t.local
	}
	switch t.kind {
	case kindBuiltin:
		return t.local
	case kindMap:
		return "Map_" + t.key.public() + "_To_" + t.elem.public()
	case kindSlice:
		return "Slice_" + t.elem.public()
	case kindArray:
		return "Array_" + strconv.FormatInt(t.length, 10) + "_" + t.elem.public()
	case kindPointer:
		return "Pointer_" + t.elem.public()
	case kindChan:
		return "Chan_" + t.elem.public()
	case kindStruct:
		parts := []string{"Struct"}
		for _, m := range t.members {
			parts = append(parts, m.t.public())
		}
		return strings.Join(parts, "_")
	case kindInterface:
		return "Interface"
	case kindFunc:
		return "Func"
	}
	return t.name
}

// isPrivate reports a Go name that is not exported.
func isPrivate(name string) bool { return !token.IsExported(name) }

// basicOf returns the basic type a primitive is or wraps.
func basicOf(t *typ) (*types.Basic, bool) {
	b, ok := t.goType.Underlying().(*types.Basic)
	return b, ok
}

// castable reports whether a Go conversion from primitive in to primitive out keeps the value: both
// strings, both numbers or both booleans. Go also converts an integer to a string, as the character of
// that code point, which is never what a field conversion means.
func castable(in, out *typ) bool {
	a, ok1 := basicOf(in)
	b, ok2 := basicOf(out)
	if !ok1 || !ok2 {
		return true
	}
	ia, ib := a.Info(), b.Info()
	switch {
	case ia&types.IsString != 0:
		return ib&types.IsString != 0
	case ia&types.IsNumeric != 0:
		return ib&types.IsNumeric != 0
	case ia&types.IsBoolean != 0:
		return ib&types.IsBoolean != 0
	}
	return false
}
