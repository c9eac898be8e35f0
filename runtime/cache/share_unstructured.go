package cache

import (
	"hash/maphash"
	"math"
	"unsafe"
)

// Unstructured objects (a custom resource read by a dynamic informer) are trees of map[string]any,
// []any, strings, int64, float64, bool and nil, as decoded from JSON. The sharer walks them bottom-up
// in one pass: each child is made canonical first and written back into its map entry or slice
// element if it changed, then the node itself is looked up; with its children canonical, two nodes
// are equal when their entries hold the same strings and numbers and the same maps and slices. A map's
// keys cannot be replaced without rebuilding the map, so only its values are shared.

// Shapes that name the kinds of unstructured parts in the sharer's table.
var (
	anyStringShape = &shape{kind: kindString}
	anyMapShape    = &shape{kind: kindMap}
	anySliceShape  = &shape{kind: kindSlice}
)

// eface is the layout of an interface value without methods.
type eface struct {
	typ, data unsafe.Pointer
}

// shareUnstructured shares the parts of the unstructured object content with equal parts of the
// unstructured objects shared before. The content map itself is not shared.
func (t *sharer) shareUnstructured(content map[string]any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.depth, t.tooDeep = 0, false
	t.canonAnyEntries(content)
}

// canonAny makes v canonical and returns it (the value to store in place of v, which is v itself
// unless an equal value was shared before) with the hash of its content.
func (t *sharer) canonAny(v any) (any, uint64) {
	if t.depth++; t.depth > maxShareDepth {
		// A cycle, which no decoder makes: the rest is left as it is (what was shared so far is
		// equal content).
		t.tooDeep = true
	}
	defer func() { t.depth-- }()
	if t.tooDeep {
		e := (*eface)(unsafe.Pointer(&v))
		return v, mix(uint64(uintptr(e.typ)), uint64(uintptr(e.data)))
	}
	switch x := v.(type) {
	case string:
		if x == "" {
			return v, hashEmptyString
		}
		h := maphash.String(shareSeed, x)
		if c, ok := t.lookup(anyStringShape, h); ok {
			if *(*string)(c.p) == x {
				return withData(v, c.p), h
			}
			return v, h
		}
		t.add(anyStringShape, h, sharedPart{p: (*eface)(unsafe.Pointer(&v)).data})
		return v, h
	case map[string]any:
		if x == nil {
			return v, hashNilMap
		}
		h := t.canonAnyEntries(x)
		if c, ok := t.lookup(anyMapShape, h); ok {
			if m := *(*map[string]any)(unsafe.Pointer(&c.p)); sameAnyMaps(m, x) {
				return m, h
			}
			return v, h
		}
		t.add(anyMapShape, h, sharedPart{p: *(*unsafe.Pointer)(unsafe.Pointer(&x))})
		return v, h
	case []any:
		if len(x) == 0 {
			return v, hashEmptySlice
		}
		h := uint64(len(x))
		for i, e := range x {
			ne, eh := t.canonAny(e)
			if !sameIface(ne, e) {
				x[i] = ne
			}
			h = mix(h, eh)
		}
		h = mix(0x3e, h)
		if c, ok := t.lookup(anySliceShape, h); ok {
			if s := *(*[]any)(c.p); len(s) == len(x) && sameAnySlices(s, x) {
				return withData(v, c.p), h
			}
			return v, h
		}
		t.add(anySliceShape, h, sharedPart{p: (*eface)(unsafe.Pointer(&v)).data})
		return v, h
	case int64:
		return v, mix(0x11, uint64(x))
	case float64:
		return v, mix(0x12, math.Float64bits(x))
	case bool:
		if x {
			return v, 0x13
		}
		return v, 0x14
	case nil:
		return v, 0x15
	default:
		// Not what a JSON decoder produces: hashed by identity and never shared.
		e := (*eface)(unsafe.Pointer(&v))
		return v, mix(uint64(uintptr(e.typ)), uint64(uintptr(e.data)))
	}
}

// canonAnyEntries makes the values of m canonical in place and returns the hash of m's content.
func (t *sharer) canonAnyEntries(m map[string]any) uint64 {
	var sum uint64
	for k, v := range m {
		nv, vh := t.canonAny(v)
		if !sameIface(nv, v) {
			m[k] = nv
		}
		sum += mix(maphash.String(shareSeed, k), vh)
	}
	return mix(mix(0x7c, uint64(len(m))), sum)
}

// withData returns v with its data word replaced by data, which holds a value of v's dynamic type.
func withData(v any, data unsafe.Pointer) any {
	(*eface)(unsafe.Pointer(&v)).data = data
	return v
}

// sameIface reports whether a and b are one interface value (the same type and data word).
func sameIface(a, b any) bool {
	ea, eb := (*eface)(unsafe.Pointer(&a)), (*eface)(unsafe.Pointer(&b))
	return ea.typ == eb.typ && ea.data == eb.data
}

// sameAny reports whether canonical children a and b are equal: strings and numbers by value, maps
// and slices by identity.
func sameAny(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && (x == nil) == (y == nil) && *(*unsafe.Pointer)(unsafe.Pointer(&x)) == *(*unsafe.Pointer)(unsafe.Pointer(&y))
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && (x == nil) == (y == nil) && unsafe.SliceData(x) == unsafe.SliceData(y)
	}
	return sameIface(a, b)
}

// sameAnyMaps compares maps whose values are canonical entry by entry.
func sameAnyMaps(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !sameAny(va, vb) {
			return false
		}
	}
	return true
}

// sameAnySlices compares slices of one length whose elements are canonical element by element.
func sameAnySlices(a, b []any) bool {
	for i := range a {
		if !sameAny(a[i], b[i]) {
			return false
		}
	}
	return true
}
