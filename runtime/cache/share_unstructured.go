package cache

import (
	"math"
	"unsafe"
)

// Unstructured objects (a custom resource read by a dynamic informer) are trees of map[string]any,
// []any, strings, int64, float64, bool and nil, as decoded from JSON. The sharer walks one side by side
// with its exemplar's tree: a value equal to the exemplar's under the same key or index is replaced by
// the exemplar's value (for strings and numbers, the interface value that boxes them), and a changed
// child is written back into its map entry or slice element. A map's keys cannot be replaced without
// rebuilding the map, so a map that differs keeps its keys; the object's top-level map stays its own.

// eface is the layout of an interface value without methods.
type eface struct {
	typ, data unsafe.Pointer
}

// alignAny walks v side by side with the exemplar's value e. It returns the value to store in place of
// v (e if their content is equal, else v with its equal children shared) and whether it is e's equal.
func (t *sharer) alignAny(v, e any) (any, bool) {
	if sameIface(v, e) {
		return v, true
	}
	if t.tooDeep {
		return v, false
	}
	switch x := v.(type) {
	case string:
		if y, ok := e.(string); ok && x == y {
			return e, true
		}
	case map[string]any:
		y, ok := e.(map[string]any)
		if !ok || x == nil || y == nil || !t.enter() {
			break
		}
		equal := t.alignAnyEntries(x, y)
		t.depth--
		if equal {
			return e, true
		}
	case []any:
		y, ok := e.([]any)
		if !ok || len(x) == 0 || len(y) == 0 || !t.enter() {
			break
		}
		equal := len(x) == len(y)
		for i := range min(len(x), len(y)) {
			nv, same := t.alignAny(x[i], y[i])
			if !sameIface(nv, x[i]) {
				x[i] = nv
			}
			equal = equal && same
		}
		t.depth--
		if equal {
			return e, true
		}
	case int64:
		if y, ok := e.(int64); ok && x == y {
			return e, true
		}
	case float64:
		if y, ok := e.(float64); ok && math.Float64bits(x) == math.Float64bits(y) {
			return e, true
		}
	case bool:
		if y, ok := e.(bool); ok && x == y {
			return e, true
		}
	}
	return v, false
}

// alignAnyEntries shares the values of m with those of the exemplar's map em under the same keys, in
// place, and reports whether the two maps have equal content.
func (t *sharer) alignAnyEntries(m, em map[string]any) bool {
	equal := len(m) == len(em)
	for k, v := range m {
		ev, ok := em[k]
		if !ok {
			equal = false
			continue
		}
		nv, same := t.alignAny(v, ev)
		if !sameIface(nv, v) {
			m[k] = nv
		}
		equal = equal && same
	}
	return equal
}

// sameIface reports whether a and b are one interface value (the same type and data word).
func sameIface(a, b any) bool {
	ea, eb := (*eface)(unsafe.Pointer(&a)), (*eface)(unsafe.Pointer(&b))
	return ea.typ == eb.typ && ea.data == eb.data
}
