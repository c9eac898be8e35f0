package defaultergen

import (
	"go/types"

	"github.com/kgen-dev/kgen/internal/generators/model"
)

// call is a function a node calls: hand-written (fn) or the object defaulter this run generates (name,
// in the output package).
type call struct {
	fn   *types.Func
	name string
}

// node is one step of the path from the object being defaulted to what gets defaulted: a field, a
// pointer dereference (elem), a slice or array element (index) or a map value (key), with the functions
// to call and the default to set there.
type node struct {
	field            string
	key, index, elem bool
	calls            []call
	children         []*node
	def              *defaultValue
	markerOnly       bool // the node exists only to set def
	// unreachable is the field when it is an unexported field of another package's struct, which the
	// generated code cannot reach.
	unreachable *types.Var
}

// writes reports whether the node produces any code.
func (n *node) writes() bool {
	if n.key {
		return n.def != nil
	}
	if n.def != nil || len(n.calls) > 0 {
		return true
	}
	for _, c := range n.children {
		if c.writes() {
			return true
		}
	}
	return false
}

// treeBuilder builds the call tree of one type, as defaulter-gen does: hand-written defaulters of every
// type met, object defaulters of the types this package gets (covering: no recursion below them), field
// defaults, with recursive types cut at their second visit.
type treeBuilder struct {
	pkg      *pkgRun
	building map[string]bool
}

func (p *pkgRun) newTree() *treeBuilder { return &treeBuilder{pkg: p, building: map[string]bool{}} }

func (b *treeBuilder) build(t types.Type, root bool) *node {
	t = types.Unalias(t)
	key := typeKey(t)
	parent := &node{elem: root}
	found := b.pkg.defaultersOf(key)
	if nd := b.pkg.generated[key]; !root && nd != nil && nd.promoted {
		parent.calls = append(parent.calls, call{name: "SetObjectDefaults_" + nd.obj.Name()})
		return parent
	}
	if found != nil {
		switch {
		case found.object != nil:
			parent.calls = append(parent.calls, call{fn: found.object})
			return parent
		case found.base != nil:
			parent.calls = append(parent.calls, call{fn: found.base})
			if b.pkg.run.covers(found.base) {
				return parent
			}
		}
		for _, fn := range found.additional {
			parent.calls = append(parent.calls, call{fn: fn})
		}
	}
	if b.building[key] {
		return nil
	}
	b.building[key] = true
	defer func() { b.building[key] = false }()

	switch model.KindOf(t) {
	case model.KindPointer:
		if child := b.build(model.ElemOf(t), false); child != nil {
			child.elem = true
			parent.children = append(parent.children, child)
		}
	case model.KindSlice, model.KindArray:
		elem := model.ElemOf(t)
		if child := b.build(elem, false); child != nil {
			child.index = true
			if model.KindOf(elem) == model.KindPointer {
				child.elem = true
			}
			parent.children = append(parent.children, child)
		} else if m := b.pkg.elemDefault(elem); m != nil {
			m.index = true
			parent.children = append(parent.children, m)
		}
	case model.KindMap:
		elem := model.ElemOf(t)
		if child := b.build(elem, false); child != nil {
			child.key = true
			parent.children = append(parent.children, child)
		} else if m := b.pkg.elemDefault(elem); m != nil {
			m.key = true
			parent.children = append(parent.children, m)
		}
	case model.KindStruct:
		s := t.Underlying().(*types.Struct)
		for i := range s.NumFields() {
			f := s.Field(i)
			child := b.build(f.Type(), false)
			if child != nil {
				child = b.pkg.fieldDefault(child, f, packageOf(f.Type()))
			} else if child = b.pkg.fieldDefault(nil, f, packageOf(t)); child == nil {
				continue
			}
			child.field = f.Name()
			if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != b.pkg.outPath {
				child.unreachable = f
			}
			parent.children = append(parent.children, child)
		}
	case model.KindAlias:
		if child := b.build(t.Underlying(), false); child != nil {
			parent.children = append(parent.children, child)
		}
	}
	if len(parent.children) == 0 && len(parent.calls) == 0 {
		return nil
	}
	return parent
}

// packageOf is the import path of a named type's package; "" for other types, whose +default=ref(X)
// then names X unqualified, in the output package, as in code-generator.
func packageOf(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path()
	}
	return ""
}
