package cache

import (
	"hash/maphash"
	"math/bits"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// shareGeneration bounds a sharer's table: once this many parts were added since the last turnover,
// the parts not looked up since then are forgotten.
const shareGeneration = 1 << 14

// sharer makes equal read-only parts of the typed objects an informer caches share one copy
// (hash-consing). A decoder allocates every object anew, yet the Pods of one ReplicaSet hold equal
// resource lists, environments, ports, probes, security contexts, tolerations and label maps, and
// most strings repeat across a collection. The sharer walks each object bottom-up before it is
// cached: every string, and every map, slice and pointed-to value whose content equals one seen
// recently, is replaced by the earlier copy, and the new object's own copy becomes garbage.
//
// It writes only into the object it is given, which the informer owns, and only replaces a
// reference by one to equal content, so the object reads the same afterwards. Sharing is safe
// because cached objects are read-only; a DeepCopy of a cached object is fully independent again.
// The table keeps the parts looked up recently in two generations, so it stays bounded.
type sharer struct {
	mu        sync.Mutex
	cur, prev shareTable
}

func newSharer() *sharer { return &sharer{} }

// shareObject shares the parts of typed obj (a pointer to a struct) with equal parts of the objects
// shared before. Unstructured objects and anything but a pointer to a struct are left as they are.
func (t *sharer) shareObject(obj any) {
	switch obj.(type) {
	case *unstructured.Unstructured, *unstructured.UnstructuredList:
		// Their content sits in maps of interface values, which the walk does not enter.
		return
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Type().Elem().Kind() != reflect.Struct {
		return
	}
	s := shapeOf(v.Type().Elem())
	t.mu.Lock()
	defer t.mu.Unlock()
	t.canon(v.UnsafePointer(), s, true)
}

// lookup returns the canonical part of shape s and content hash h, if any, refreshing it into the
// current generation.
func (t *sharer) lookup(s *shape, h uint64) (sharedPart, bool) {
	if c, ok := t.cur.get(s, h); ok {
		return c, true
	}
	if c, ok := t.prev.get(s, h); ok {
		t.add(s, h, c)
		return c, true
	}
	return sharedPart{}, false
}

// add makes c the canonical part of shape s and hash h, starting a new generation when the current
// one is full.
func (t *sharer) add(s *shape, h uint64, c sharedPart) {
	if t.cur.n >= shareGeneration {
		t.prev, t.cur = t.cur, shareTable{slots: make([]shareSlot, len(t.cur.slots))}
	}
	t.cur.put(s, h, c)
}

// sharedPart is the canonical copy of a part: a pointer, map or string/slice data and its length.
type sharedPart struct {
	p unsafe.Pointer
	n int
}

// shareTable is an open-addressing hash table of canonical parts keyed by shape and content hash
// (already well mixed, so it is not hashed again); equal keys are checked for equal content by the
// caller.
type shareTable struct {
	slots []shareSlot
	n     int
}

type shareSlot struct {
	s    *shape // nil: empty
	h    uint64
	part sharedPart
}

func (tb *shareTable) get(s *shape, h uint64) (sharedPart, bool) {
	if tb.n == 0 {
		return sharedPart{}, false
	}
	mask := uint64(len(tb.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &tb.slots[i]
		if sl.s == nil {
			return sharedPart{}, false
		}
		if sl.h == h && sl.s == s {
			return sl.part, true
		}
	}
}

// put sets the part of (s, h), growing the table to keep it at most three quarters full.
func (tb *shareTable) put(s *shape, h uint64, c sharedPart) {
	if (tb.n+1)*4 > len(tb.slots)*3 {
		old := tb.slots
		tb.slots = make([]shareSlot, max(64, 2*len(old)))
		tb.n = 0
		for _, sl := range old {
			if sl.s != nil {
				tb.put(sl.s, sl.h, sl.part)
			}
		}
	}
	mask := uint64(len(tb.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &tb.slots[i]
		if sl.s == nil {
			*sl = shareSlot{s: s, h: h, part: c}
			tb.n++
			return
		}
		if sl.h == h && sl.s == s {
			sl.part = c
			return
		}
	}
}

// shapeKind is how the walk treats a value.
type shapeKind uint8

const (
	// kindScalar holds no references: it is hashed and compared as bytes.
	kindScalar shapeKind = iota
	kindString
	kindPointer
	kindSlice
	kindMap
	kindStruct
	// kindOpaque is a reference the walk does not enter (interfaces, funcs, channels, unsafe
	// pointers, *time.Location): it is compared by identity and never replaced.
	kindOpaque
)

// shape is the compiled plan of the walk for one Go type.
type shape struct {
	kind shapeKind
	size uintptr
	// elem is a pointer's or slice's element.
	elem *shape
	// fields are a struct's leaves, nested structs and arrays flattened.
	fields []leaf
	// typ, key and val describe a map.
	typ      reflect.Type
	key, val *shape
}

// leaf is one field of a flattened struct: a run of scalar bytes or a single reference.
type leaf struct {
	off uintptr
	s   *shape
}

var (
	shapesMu sync.Mutex
	shapes   sync.Map // reflect.Type -> *shape
)

var locationType = reflect.TypeFor[time.Location]()

// shapeOf returns the compiled shape of t, compiling it once per type.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	shapesMu.Lock()
	defer shapesMu.Unlock()
	pending := map[reflect.Type]*shape{}
	s := compileShape(t, pending)
	for typ, ps := range pending {
		shapes.Store(typ, ps)
	}
	return s
}

// scalarShapes are the shapes of reference-free runs, one per size.
var scalarShapes sync.Map // uintptr -> *shape

func scalarShape(size uintptr) *shape {
	if s, ok := scalarShapes.Load(size); ok {
		return s.(*shape)
	}
	s, _ := scalarShapes.LoadOrStore(size, &shape{kind: kindScalar, size: size})
	return s.(*shape)
}

// compileShape compiles t; pending holds the shapes compiled in this call, so recursive types end.
func compileShape(t reflect.Type, pending map[reflect.Type]*shape) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	if s, ok := pending[t]; ok {
		return s
	}
	s := &shape{size: t.Size()}
	pending[t] = s
	switch t.Kind() {
	case reflect.String:
		s.kind = kindString
	case reflect.Pointer:
		if t.Elem() == locationType {
			s.kind = kindOpaque
			break
		}
		s.kind = kindPointer
		s.elem = compileShape(t.Elem(), pending)
	case reflect.Slice:
		s.kind = kindSlice
		s.elem = compileShape(t.Elem(), pending)
	case reflect.Map:
		if !comparableBits(t.Key()) {
			// Keys equal as map keys but not as bits (floats, interfaces): not compared.
			s.kind = kindOpaque
			break
		}
		s.kind = kindMap
		s.typ = t
		s.key = compileShape(t.Key(), pending)
		s.val = compileShape(t.Elem(), pending)
	case reflect.Struct, reflect.Array:
		var fields []leaf
		flatten(t, 0, pending, &fields)
		if len(fields) == 1 && fields[0].off == 0 && fields[0].s.size == t.Size() {
			// A struct of one leaf (metav1.Time is one time.Time, which is one scalar run and a
			// location) is walked as its leaf.
			*s = *fields[0].s
			break
		}
		s.kind = kindStruct
		s.fields = fields
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		s.kind = kindOpaque
	default:
		s.kind = kindScalar
	}
	return s
}

// comparableBits reports whether keys of type t are equal exactly when their bits are.
func comparableBits(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// flatten appends the leaves of struct or array t at offset base to fields, merging adjacent scalar
// bytes into runs (padding is left out, so it is never compared).
func flatten(t reflect.Type, base uintptr, pending map[reflect.Type]*shape, fields *[]leaf) {
	addScalar := func(off, size uintptr) {
		if size == 0 {
			return
		}
		if n := len(*fields); n > 0 {
			last := &(*fields)[n-1]
			if last.s.kind == kindScalar && last.off+last.s.size == off {
				last.s = scalarShape(last.s.size + size)
				return
			}
		}
		*fields = append(*fields, leaf{off: off, s: scalarShape(size)})
	}
	var walk func(t reflect.Type, off uintptr)
	walk = func(t reflect.Type, off uintptr) {
		switch t.Kind() {
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				walk(f.Type, off+f.Offset)
			}
		case reflect.Array:
			for i := range t.Len() {
				walk(t.Elem(), off+uintptr(i)*t.Elem().Size())
			}
		default:
			s := compileShape(t, pending)
			if s.kind == kindScalar {
				addScalar(off, s.size)
			} else {
				*fields = append(*fields, leaf{off: off, s: s})
			}
		}
	}
	walk(t, base)
}

var shareSeed = maphash.MakeSeed()

// mix folds x into the hash h.
func mix(h, x uint64) uint64 {
	h ^= x
	h *= 0x9e3779b97f4a7c15
	return bits.RotateLeft64(h, 29) ^ h
}

// hashBytes hashes the n bytes at p.
func hashBytes(p unsafe.Pointer, n uintptr) uint64 {
	switch n {
	case 8:
		return mix(0x51, *(*uint64)(p))
	case 4:
		return mix(0x52, uint64(*(*uint32)(p)))
	case 1:
		return mix(0x53, uint64(*(*uint8)(p)))
	}
	return maphash.Bytes(shareSeed, unsafe.Slice((*byte)(p), n))
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// canon makes the value at p, of shape s, share its parts with equal parts seen before (when share is
// set; otherwise it only reads) and returns the hash of its content. Equal content hashes equally
// whether or not it is shared.
func (t *sharer) canon(p unsafe.Pointer, s *shape, share bool) uint64 {
	switch s.kind {
	case kindScalar:
		return hashBytes(p, s.size)
	case kindString:
		return t.canonString(p, s, share)
	case kindPointer:
		return t.canonPointer(p, s, share)
	case kindSlice:
		return t.canonSlice(p, s, share)
	case kindMap:
		return t.canonMap(p, s, share)
	case kindStruct:
		h := uint64(len(s.fields))
		for _, f := range s.fields {
			h = mix(h, t.canon(unsafe.Add(p, f.off), f.s, share))
		}
		return h
	default:
		return hashBytes(p, s.size)
	}
}

func (t *sharer) canonString(p unsafe.Pointer, s *shape, share bool) uint64 {
	str := *(*string)(p)
	if str == "" {
		return 0x5e
	}
	h := maphash.String(shareSeed, str)
	if !share {
		return h
	}
	if c, ok := t.lookup(s, h); ok {
		if c.n == len(str) && unsafe.String((*byte)(c.p), c.n) == str {
			*(*string)(p) = unsafe.String((*byte)(c.p), c.n)
		}
		return h
	}
	t.add(s, h, sharedPart{p: unsafe.Pointer(unsafe.StringData(str)), n: len(str)})
	return h
}

func (t *sharer) canonPointer(p unsafe.Pointer, s *shape, share bool) uint64 {
	q := *(*unsafe.Pointer)(p)
	if q == nil {
		return 0x9a
	}
	h := mix(0x9b, t.canon(q, s.elem, share))
	if !share {
		return h
	}
	if c, ok := t.lookup(s, h); ok {
		if c.p != q && equalParts(c.p, q, s.elem) {
			*(*unsafe.Pointer)(p) = c.p
		}
		return h
	}
	t.add(s, h, sharedPart{p: q})
	return h
}

func (t *sharer) canonSlice(p unsafe.Pointer, s *shape, share bool) uint64 {
	sl := (*sliceHeader)(p)
	if sl.len == 0 {
		if sl.data == nil {
			return 0x3c
		}
		return 0x3d
	}
	var h uint64
	if s.elem.kind == kindScalar {
		h = hashBytes(sl.data, uintptr(sl.len)*s.elem.size)
	} else {
		h = uint64(sl.len)
		for i := range sl.len {
			h = mix(h, t.canon(unsafe.Add(sl.data, uintptr(i)*s.elem.size), s.elem, share))
		}
	}
	h = mix(0x3e, h)
	if !share {
		return h
	}
	if c, ok := t.lookup(s, h); ok {
		if c.p != sl.data && c.n == sl.len && equalElems(c.p, sl.data, sl.len, s.elem) {
			*sl = sliceHeader{data: c.p, len: c.n, cap: c.n}
		}
		return h
	}
	t.add(s, h, sharedPart{p: sl.data, n: sl.len})
	return h
}

// canonMap hashes a map's entries in any order; the entries themselves are not shared (a map's values
// cannot be rewritten in place), but an equal map seen before replaces the whole map.
func (t *sharer) canonMap(p unsafe.Pointer, s *shape, share bool) uint64 {
	m := *(*unsafe.Pointer)(p)
	if m == nil {
		return 0x7a
	}
	mv := reflect.NewAt(s.typ, p).Elem()
	n := mv.Len()
	if n == 0 {
		return 0x7b
	}
	key := reflect.New(s.typ.Key()).Elem()
	val := reflect.New(s.typ.Elem()).Elem()
	var sum uint64
	for it := mv.MapRange(); it.Next(); {
		key.SetIterKey(it)
		val.SetIterValue(it)
		kh := t.canon(key.Addr().UnsafePointer(), s.key, false)
		vh := t.canon(val.Addr().UnsafePointer(), s.val, false)
		sum += mix(kh, vh)
	}
	h := mix(mix(0x7c, uint64(n)), sum)
	if !share {
		return h
	}
	if c, ok := t.lookup(s, h); ok {
		if c.p != m && equalMaps(c.p, m, s) {
			*(*unsafe.Pointer)(p) = c.p
		}
		return h
	}
	t.add(s, h, sharedPart{p: m})
	return h
}

// equalParts reports whether the values at a and b, of shape s, have equal content, comparing
// strings, pointers, slices and maps in full.
func equalParts(a, b unsafe.Pointer, s *shape) bool {
	if a == b {
		return true
	}
	switch s.kind {
	case kindScalar, kindOpaque:
		return unsafe.String((*byte)(a), s.size) == unsafe.String((*byte)(b), s.size)
	case kindString:
		return *(*string)(a) == *(*string)(b)
	case kindPointer:
		pa, pb := *(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b)
		if pa == nil || pb == nil {
			return pa == pb
		}
		return equalParts(pa, pb, s.elem)
	case kindSlice:
		sa, sb := (*sliceHeader)(a), (*sliceHeader)(b)
		if sa.len != sb.len || (sa.data == nil) != (sb.data == nil) {
			return false
		}
		return equalElems(sa.data, sb.data, sa.len, s.elem)
	case kindMap:
		return equalMaps(*(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b), s)
	case kindStruct:
		for _, f := range s.fields {
			if !equalParts(unsafe.Add(a, f.off), unsafe.Add(b, f.off), f.s) {
				return false
			}
		}
		return true
	}
	return false
}

// equalElems compares n elements of shape s at a and b.
func equalElems(a, b unsafe.Pointer, n int, s *shape) bool {
	if a == b {
		return true
	}
	if s.kind == kindScalar {
		size := uintptr(n) * s.size
		return unsafe.String((*byte)(a), size) == unsafe.String((*byte)(b), size)
	}
	for i := range n {
		off := uintptr(i) * s.size
		if !equalParts(unsafe.Add(a, off), unsafe.Add(b, off), s) {
			return false
		}
	}
	return true
}

// equalMaps compares the maps a and b (map pointers) of shape s entry by entry.
func equalMaps(a, b unsafe.Pointer, s *shape) bool {
	if a == b || a == nil || b == nil {
		return a == b
	}
	ma, mb := reflect.NewAt(s.typ, unsafe.Pointer(&a)).Elem(), reflect.NewAt(s.typ, unsafe.Pointer(&b)).Elem()
	if ma.Len() != mb.Len() {
		return false
	}
	key := reflect.New(s.typ.Key()).Elem()
	va := reflect.New(s.typ.Elem()).Elem()
	vb := reflect.New(s.typ.Elem()).Elem()
	for it := ma.MapRange(); it.Next(); {
		key.SetIterKey(it)
		other := mb.MapIndex(key)
		if !other.IsValid() {
			return false
		}
		va.SetIterValue(it)
		vb.Set(other)
		if !equalParts(va.Addr().UnsafePointer(), vb.Addr().UnsafePointer(), s.val) {
			return false
		}
	}
	return true
}
