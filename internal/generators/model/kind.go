package model

import "go/types"

// Kind classifies a Go type as code-generator's type model (gengo) does, which decides how the code a
// generator writes treats it: a named builtin, map or slice is an alias of its underlying type; a named
// struct, pointer or array is that kind, carrying its name.
type Kind int

// The kinds KindOf tells apart.
const (
	// KindOther is any type the generators do not handle by kind: functions, channels, type parameters.
	KindOther Kind = iota
	// KindBuiltin is an unnamed basic type.
	KindBuiltin
	// KindAlias is a defined type over a basic type, a map or a slice (gengo's "Alias").
	KindAlias
	KindStruct
	KindPointer
	KindMap
	KindSlice
	KindArray
	KindInterface
)

// KindOf classifies t. Type aliases (type A = B) are B.
func KindOf(t types.Type) Kind {
	t = types.Unalias(t)
	if _, named := t.(*types.Named); named {
		switch t.Underlying().(type) {
		case *types.Basic, *types.Map, *types.Slice:
			return KindAlias
		}
	}
	switch t.Underlying().(type) {
	case *types.Basic:
		return KindBuiltin
	case *types.Struct:
		return KindStruct
	case *types.Pointer:
		return KindPointer
	case *types.Map:
		return KindMap
	case *types.Slice:
		return KindSlice
	case *types.Array:
		return KindArray
	case *types.Interface:
		return KindInterface
	}
	return KindOther
}

// ElemOf is the element type of a pointer, slice, map or array (named or not), or nil.
func ElemOf(t types.Type) types.Type {
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
