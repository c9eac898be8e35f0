package defaultergen

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// defaulters are the hand-written defaulting functions of one type T, all func(*T).
type defaulters struct {
	// object is SetObjectDefaults_T: T gets no generated object defaulter, and callers use this one.
	object *types.Func
	// base is SetDefaults_T; additional are SetDefaults_T_<suffix>, called after it in name order.
	base       *types.Func
	additional []*types.Func
}

// funcs are the hand-written defaulters found, by type key.
type funcs map[string]*defaulters

// scan adds the hand-written defaulting functions of pkg: package-level functions without receiver or
// results that take one pointer, named SetDefaults_<T>, SetDefaults_<T>_<suffix> or SetObjectDefaults_<T>
// after the type they point to (its name without package, or a builtin's name). Functions of generated
// files do not count.
func (r *run) scan(pkg *types.Package) error {
	var errs []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !r.prog.HandWritten(fn) {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
			continue
		}
		ptr, ok := types.Unalias(sig.Params().At(0).Type()).(*types.Pointer)
		if !ok {
			continue
		}
		elem := types.Unalias(ptr.Elem())
		typeName := nameOf(elem)
		if typeName == "" {
			continue
		}
		key := typeKey(elem)
		d := r.found[key]
		if d == nil {
			d = &defaulters{}
		}
		switch {
		case name == "SetDefaults_"+typeName:
			if d.base != nil && !sameFunc(d.base, fn) {
				errs = append(errs, fmt.Sprintf("%s: %s.%s defaults %s, which %s.%s (%s) already defaults",
					position(r.prog.Fset.Position(fn.Pos())), pkg.Path(), name, key, d.base.Pkg().Path(), d.base.Name(), position(r.prog.Fset.Position(d.base.Pos()))))
				continue
			}
			d.base = fn
		case strings.HasPrefix(name, "SetDefaults_"+typeName+"_"):
			if !containsFunc(d.additional, fn) {
				d.additional = append(d.additional, fn)
				sort.Slice(d.additional, func(i, j int) bool { return d.additional[i].Name() < d.additional[j].Name() })
			}
		case name == "SetObjectDefaults_"+typeName:
			if d.object != nil && !sameFunc(d.object, fn) {
				errs = append(errs, fmt.Sprintf("%s: %s.%s is a second object defaulter of %s, after %s.%s (%s)",
					position(r.prog.Fset.Position(fn.Pos())), pkg.Path(), name, key, d.object.Pkg().Path(), d.object.Name(), position(r.prog.Fset.Position(d.object.Pos()))))
				continue
			}
			d.object = fn
		default:
			continue
		}
		r.found[key] = d
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// sameFunc reports whether a and b are one declaration (a package scanned twice, as an input and as a
// peer, may come with two type-checker objects for it).
func sameFunc(a, b *types.Func) bool { return a.Pos() == b.Pos() && a.FullName() == b.FullName() }

func containsFunc(list []*types.Func, fn *types.Func) bool {
	for _, f := range list {
		if sameFunc(f, fn) {
			return true
		}
	}
	return false
}

// nameOf is the name defaulting functions give type t: a named type's name, a builtin's name, "" for
// other types.
func nameOf(t types.Type) string {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		return t.Obj().Name()
	case *types.Basic:
		return t.Name()
	}
	return ""
}

// typeKey identifies a type across packages and loads.
func typeKey(t types.Type) string { return types.TypeString(types.Unalias(t), nil) }
