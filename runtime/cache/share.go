package cache

import (
	"hash/maphash"
	"math/bits"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// shareGeneration bounds a sharer's table: once this many parts were added since the last turnover,
// the parts not looked up since then are forgotten.
const shareGeneration = 1 << 14

// sharer makes equal read-only parts of the objects an informer caches share one copy
// (hash-consing). A decoder allocates every object anew, yet the Pods of one ReplicaSet hold equal
// resource lists, environments, ports, probes, security contexts, tolerations and label maps, and
// most strings repeat across a collection. The sharer walks each object before it is cached: every
// string, and every map, slice and pointed-to value whose content equals one seen recently, is
// replaced by the earlier copy, and the new object's own copy becomes garbage. Typed objects are
// walked by a plan compiled once per Go type (shapeOf); unstructured ones as trees of maps and
// slices (share_unstructured.go).
//
// It writes only into the object it is given, which the informer owns, and only replaces a
// reference by one to equal content, so the object reads the same afterwards. Sharing is safe
// because cached objects are read-only; a DeepCopy of a cached object is fully independent again.
// The table keeps the parts looked up recently in two generations, so it stays bounded.
type sharer struct {
	mu        sync.Mutex
	cur, prev shareTable
	recent    [recentParts]shareSlot
	// records and pos are the walk's scratch: the first pass's records and the second's position.
	records []shareRecord
	pos     int
	// depth is the walk's current nesting of references; tooDeep is set once it passes
	// maxShareDepth, and the walk then gives up on the object.
	depth   int
	tooDeep bool
	// free holds reusable iterators of maps, by map shape.
	free map[*shape][]*mapIterator
}

func newSharer() *sharer { return &sharer{} }

// shareObject shares the parts of obj, a typed object (a pointer to a struct) or an unstructured one,
// with equal parts of the objects shared before. Anything else is left as it is.
func (t *sharer) shareObject(obj any) {
	switch u := obj.(type) {
	case *unstructured.Unstructured:
		t.shareUnstructured(u.Object)
		return
	case *unstructured.UnstructuredList:
		return
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Type().Elem().Kind() != reflect.Struct {
		return
	}
	s := shapeOf(v.Type().Elem())
	t.mu.Lock()
	defer t.mu.Unlock()
	t.records, t.pos, t.depth, t.tooDeep = t.records[:0], 0, 0, false
	t.hashParts(v.UnsafePointer(), s, true)
	if t.tooDeep {
		// A pointer cycle (which no decoder makes, but a transform might) or absurd nesting: the
		// object is cached as it is.
		return
	}
	t.shareParts(v.UnsafePointer(), s)
	if cap(t.records) > maxShareRecords {
		t.records = nil
	}
}

// maxShareDepth bounds how deep the walk follows references, so that a pointer cycle cannot recurse
// forever; API objects nest a few dozen levels at most.
const maxShareDepth = 1000

// maxShareRecords bounds the scratch a sharer keeps between objects.
const maxShareRecords = 1 << 14

// lookup returns the canonical part of shape s and content hash h, if any, refreshing it into the
// current generation.
func (t *sharer) lookup(s *shape, h uint64) (sharedPart, bool) {
	r := &t.recent[h%recentParts]
	if r.s == s && r.h == h {
		return r.part, true
	}
	if c, ok := t.cur.get(s, h); ok {
		*r = shareSlot{s: s, h: h, part: c}
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
	t.recent[h%recentParts] = shareSlot{s: s, h: h, part: c}
}

// recentParts is the size of a sharer's cache of the parts it looked up last, small enough to stay in
// the processor's cache: equal parts of consecutive objects (Pods of one template are listed
// together) are found there without touching the large table.
const recentParts = 512

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
	// fields are a struct's leaves, nested structs and arrays flattened; refs are those the second
	// pass enters (strings, pointers, slices and maps).
	fields, refs []leaf
	// hasRefs reports whether values of the shape hold strings, pointers, slices or maps.
	hasRefs bool
	// typ, key and val describe a map; fast says whether it has the layout of a common map type
	// iterated without reflection.
	typ      reflect.Type
	key, val *shape
	fast     fastMap
}

// fastMap names map layouts the walk iterates without reflection: any map type whose keys are
// strings and whose values are strings (labels, annotations, selectors) or resource.Quantity
// (resource lists) has the layout, hashing and equality of the plain map type it is read as.
type fastMap uint8

const (
	slowMap fastMap = iota
	fastStrings
	fastQuantities
)

var quantityType = reflect.TypeFor[resource.Quantity]()

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
		s.kind, s.hasRefs = kindString, true
	case reflect.Pointer:
		if t.Elem() == locationType {
			s.kind = kindOpaque
			break
		}
		s.kind, s.hasRefs = kindPointer, true
		s.elem = compileShape(t.Elem(), pending)
	case reflect.Slice:
		s.kind, s.hasRefs = kindSlice, true
		s.elem = compileShape(t.Elem(), pending)
	case reflect.Map:
		if !comparableBits(t.Key()) {
			// Keys equal as map keys but not as bits (floats, interfaces): not compared.
			s.kind = kindOpaque
			break
		}
		s.kind, s.hasRefs = kindMap, true
		s.typ = t
		s.key = compileShape(t.Key(), pending)
		s.val = compileShape(t.Elem(), pending)
		switch {
		case t.Key().Kind() != reflect.String:
		case t.Elem().Kind() == reflect.String:
			s.fast = fastStrings
		case t.Elem() == quantityType:
			s.fast = fastQuantities
		}
	case reflect.Struct, reflect.Array:
		var fields []leaf
		flatten(t, 0, pending, &fields)
		if len(fields) == 1 && fields[0].off == 0 && fields[0].s.size == t.Size() {
			// A struct of one leaf (a wrapped string, pointer, slice or map) is walked as its leaf.
			*s = *fields[0].s
			break
		}
		s.kind = kindStruct
		s.fields = fields
		for _, f := range fields {
			if f.s.kind != kindScalar && f.s.kind != kindOpaque {
				s.refs = append(s.refs, f)
			}
		}
		s.hasRefs = len(s.refs) > 0
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

// hashBytes hashes the n bytes at p: short aligned runs word by word, others with maphash.
func hashBytes(p unsafe.Pointer, n uintptr) uint64 {
	if n > 32 || uintptr(p)%8 != 0 {
		return maphash.Bytes(shareSeed, unsafe.Slice((*byte)(p), n))
	}
	h := uint64(n)
	i := uintptr(0)
	for ; i+8 <= n; i += 8 {
		h = mix(h, *(*uint64)(unsafe.Add(p, i)))
	}
	if i+4 <= n {
		h = mix(h, uint64(*(*uint32)(unsafe.Add(p, i))))
		i += 4
	}
	for ; i < n; i++ {
		h = mix(h, uint64(*(*uint8)(unsafe.Add(p, i))))
	}
	return h
}

// Hashes of empty references, which the walk does not enter or record.
const (
	hashEmptyString = 0x5e
	hashNilPointer  = 0x9a
	hashNilSlice    = 0x3c
	hashEmptySlice  = 0x3d
	hashNilMap      = 0x7a
)

// emptyHash returns the hash of the reference of shape s at p and true if it is empty (a nil pointer
// or map, an empty string or slice), so that the walk need not enter it.
func emptyHash(p unsafe.Pointer, s *shape) (uint64, bool) {
	switch s.kind {
	case kindString:
		if len(*(*string)(p)) == 0 {
			return hashEmptyString, true
		}
	case kindPointer:
		if *(*unsafe.Pointer)(p) == nil {
			return hashNilPointer, true
		}
	case kindMap:
		if *(*unsafe.Pointer)(p) == nil {
			return hashNilMap, true
		}
	case kindSlice:
		if sl := (*sliceHeader)(p); sl.len == 0 {
			if sl.data == nil {
				return hashNilSlice, true
			}
			return hashEmptySlice, true
		}
	}
	return 0, false
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// The walk makes two passes over an object. The first hashes every part bottom-up and records, in
// visiting order, each reference's content hash and where its subtree's records end. The second goes
// top-down: a reference whose content equals a canonical part's is replaced by that part and its
// subtree skipped; any other becomes canonical and the walk enters it. So a shared subtree costs one
// table lookup, however many parts it holds.

// shareRecord is what the first pass learned about one reference: its content hash and the index of
// the record after its subtree's.
type shareRecord struct {
	h    uint64
	next int
}

// hashParts returns the content hash of the value at p of shape s; with record set, it appends a
// record for each reference in it. Equal content hashes equally.
func (t *sharer) hashParts(p unsafe.Pointer, s *shape, record bool) uint64 {
	if t.tooDeep {
		return 0
	}
	switch s.kind {
	case kindStruct:
		h := uint64(len(s.fields))
		for _, f := range s.fields {
			fp := unsafe.Add(p, f.off)
			if f.s.kind == kindScalar {
				h = mix(h, hashBytes(fp, f.s.size))
			} else if x, empty := emptyHash(fp, f.s); empty {
				h = mix(h, x)
			} else {
				h = mix(h, t.hashParts(fp, f.s, record))
			}
		}
		return h
	case kindString:
		str := *(*string)(p)
		if str == "" {
			return hashEmptyString
		}
		h := maphash.String(shareSeed, str)
		if record {
			t.records = append(t.records, shareRecord{h: h, next: len(t.records) + 1})
		}
		return h
	case kindPointer:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return hashNilPointer
		}
		if !t.enter() {
			return 0
		}
		i := t.open(record)
		h := mix(0x9b, t.hashParts(q, s.elem, record))
		t.close(i, h)
		t.depth--
		return h
	case kindSlice:
		sl := (*sliceHeader)(p)
		if sl.len == 0 {
			if sl.data == nil {
				return hashNilSlice
			}
			return hashEmptySlice
		}
		if !t.enter() {
			return 0
		}
		i := t.open(record)
		var h uint64
		if s.elem.kind == kindScalar {
			h = hashBytes(sl.data, uintptr(sl.len)*s.elem.size)
		} else {
			h = uint64(sl.len)
			for j := range sl.len {
				h = mix(h, t.hashParts(unsafe.Add(sl.data, uintptr(j)*s.elem.size), s.elem, record))
			}
		}
		h = mix(0x3e, h)
		t.close(i, h)
		t.depth--
		return h
	case kindMap:
		if *(*unsafe.Pointer)(p) == nil {
			return hashNilMap
		}
		if !t.enter() {
			return 0
		}
		i := t.open(record)
		h := t.hashMap(p, s)
		t.close(i, h)
		t.depth--
		return h
	default:
		return hashBytes(p, s.size)
	}
}

// enter goes one reference deeper, or marks the walk too deep and returns false.
func (t *sharer) enter() bool {
	if t.depth >= maxShareDepth {
		t.tooDeep = true
		return false
	}
	t.depth++
	return true
}

// open appends a placeholder record for a reference whose subtree follows, if recording.
func (t *sharer) open(record bool) int {
	if !record {
		return -1
	}
	t.records = append(t.records, shareRecord{})
	return len(t.records) - 1
}

// close fills the placeholder record i once its subtree is recorded.
func (t *sharer) close(i int, h uint64) {
	if i >= 0 {
		t.records[i] = shareRecord{h: h, next: len(t.records)}
	}
}

// hashMap hashes a map's entries in any order. Its entries are not recorded: a map's values cannot
// be rewritten in place, so a map is shared whole or not at all.
func (t *sharer) hashMap(p unsafe.Pointer, s *shape) uint64 {
	var sum uint64
	n := 0
	switch s.fast {
	case fastStrings:
		for k, v := range *(*map[string]string)(p) {
			sum += mix(maphash.String(shareSeed, k), maphash.String(shareSeed, v))
			n++
		}
	case fastQuantities:
		for k, v := range *(*map[string]resource.Quantity)(p) {
			sum += mix(maphash.String(shareSeed, k), t.hashParts(unsafe.Pointer(&v), s.val, false))
			n++
		}
	default:
		it := t.iterator(s)
		it.iter.Reset(reflect.NewAt(s.typ, p).Elem())
		for it.iter.Next() {
			it.key.SetIterKey(it.iter)
			it.val.SetIterValue(it.iter)
			kh := t.hashParts(it.key.Addr().UnsafePointer(), s.key, false)
			vh := t.hashParts(it.val.Addr().UnsafePointer(), s.val, false)
			sum += mix(kh, vh)
			n++
		}
		t.release(s, it)
	}
	return mix(mix(0x7c, uint64(n)), sum)
}

// mapIterator iterates a map by reflection into addressable temporaries, reused between maps.
type mapIterator struct {
	iter          *reflect.MapIter
	key, val, got reflect.Value
}

// iterator returns an iterator for maps of shape s (a map's values may hold maps of the same type,
// so each use takes its own).
func (t *sharer) iterator(s *shape) *mapIterator {
	if free := t.free[s]; len(free) > 0 {
		it := free[len(free)-1]
		t.free[s] = free[:len(free)-1]
		return it
	}
	return &mapIterator{
		iter: &reflect.MapIter{},
		key:  reflect.New(s.typ.Key()).Elem(), val: reflect.New(s.typ.Elem()).Elem(), got: reflect.New(s.typ.Elem()).Elem(),
	}
}

// release returns an iterator for reuse, cleared so that it keeps nothing alive.
func (t *sharer) release(s *shape, it *mapIterator) {
	it.iter.Reset(reflect.Value{})
	it.key.SetZero()
	it.val.SetZero()
	it.got.SetZero()
	if t.free == nil {
		t.free = map[*shape][]*mapIterator{}
	}
	t.free[s] = append(t.free[s], it)
}

// isEmpty reports whether the reference of shape s at p is empty; see emptyHash.
func isEmpty(p unsafe.Pointer, s *shape) bool {
	_, empty := emptyHash(p, s)
	return empty
}

// shareParts is the second pass over the value at p of shape s, reading the first pass's records
// from t.pos on.
func (t *sharer) shareParts(p unsafe.Pointer, s *shape) {
	switch s.kind {
	case kindStruct:
		for _, f := range s.refs {
			if fp := unsafe.Add(p, f.off); !isEmpty(fp, f.s) {
				t.shareParts(fp, f.s)
			}
		}
	case kindString:
		str := *(*string)(p)
		if str == "" {
			return
		}
		r := t.records[t.pos]
		t.pos = r.next
		if c, ok := t.lookup(s, r.h); ok {
			if c.n == len(str) && unsafe.String((*byte)(c.p), c.n) == str {
				*(*string)(p) = unsafe.String((*byte)(c.p), c.n)
			}
			return
		}
		t.add(s, r.h, sharedPart{p: unsafe.Pointer(unsafe.StringData(str)), n: len(str)})
	case kindPointer:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return
		}
		r := t.records[t.pos]
		if c, ok := t.lookup(s, r.h); ok {
			t.pos = r.next
			if c.p != q && t.equalParts(c.p, q, s.elem) {
				*(*unsafe.Pointer)(p) = c.p
			}
			return
		}
		t.add(s, r.h, sharedPart{p: q})
		t.pos++
		t.shareParts(q, s.elem)
	case kindSlice:
		sl := (*sliceHeader)(p)
		if sl.len == 0 {
			return
		}
		r := t.records[t.pos]
		if c, ok := t.lookup(s, r.h); ok {
			t.pos = r.next
			if c.p != sl.data && c.n == sl.len && t.equalElems(c.p, sl.data, sl.len, s.elem) {
				*sl = sliceHeader{data: c.p, len: c.n, cap: c.n}
			}
			return
		}
		t.add(s, r.h, sharedPart{p: sl.data, n: sl.len})
		t.pos++
		if s.elem.hasRefs {
			for j := range sl.len {
				t.shareParts(unsafe.Add(sl.data, uintptr(j)*s.elem.size), s.elem)
			}
		}
	case kindMap:
		m := *(*unsafe.Pointer)(p)
		if m == nil {
			return
		}
		r := t.records[t.pos]
		t.pos = r.next
		if c, ok := t.lookup(s, r.h); ok {
			if c.p != m && t.equalMaps(c.p, m, s) {
				*(*unsafe.Pointer)(p) = c.p
			}
			return
		}
		t.add(s, r.h, sharedPart{p: m})
	}
}

// equalParts reports whether the values at a and b, of shape s, have equal content, comparing
// strings, pointers, slices and maps in full.
func (t *sharer) equalParts(a, b unsafe.Pointer, s *shape) bool {
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
		return t.equalParts(pa, pb, s.elem)
	case kindSlice:
		sa, sb := (*sliceHeader)(a), (*sliceHeader)(b)
		if sa.len != sb.len || (sa.data == nil) != (sb.data == nil) {
			return false
		}
		return t.equalElems(sa.data, sb.data, sa.len, s.elem)
	case kindMap:
		return t.equalMaps(*(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b), s)
	case kindStruct:
		for _, f := range s.fields {
			if !t.equalParts(unsafe.Add(a, f.off), unsafe.Add(b, f.off), f.s) {
				return false
			}
		}
		return true
	}
	return false
}

// equalElems compares n elements of shape s at a and b.
func (t *sharer) equalElems(a, b unsafe.Pointer, n int, s *shape) bool {
	if a == b {
		return true
	}
	if s.kind == kindScalar {
		size := uintptr(n) * s.size
		return unsafe.String((*byte)(a), size) == unsafe.String((*byte)(b), size)
	}
	for i := range n {
		off := uintptr(i) * s.size
		if !t.equalParts(unsafe.Add(a, off), unsafe.Add(b, off), s) {
			return false
		}
	}
	return true
}

// equalMaps compares the maps a and b (map pointers) of shape s entry by entry.
func (t *sharer) equalMaps(a, b unsafe.Pointer, s *shape) bool {
	if a == b || a == nil || b == nil {
		return a == b
	}
	switch s.fast {
	case fastStrings:
		ma, mb := *(*map[string]string)(unsafe.Pointer(&a)), *(*map[string]string)(unsafe.Pointer(&b))
		if len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			if vb, ok := mb[k]; !ok || va != vb {
				return false
			}
		}
		return true
	case fastQuantities:
		ma, mb := *(*map[string]resource.Quantity)(unsafe.Pointer(&a)), *(*map[string]resource.Quantity)(unsafe.Pointer(&b))
		if len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !t.equalParts(unsafe.Pointer(&va), unsafe.Pointer(&vb), s.val) {
				return false
			}
		}
		return true
	}
	ma, mb := reflect.NewAt(s.typ, unsafe.Pointer(&a)).Elem(), reflect.NewAt(s.typ, unsafe.Pointer(&b)).Elem()
	if ma.Len() != mb.Len() {
		return false
	}
	it := t.iterator(s)
	defer t.release(s, it)
	for it.iter.Reset(ma); it.iter.Next(); {
		it.key.SetIterKey(it.iter)
		other := mb.MapIndex(it.key)
		if !other.IsValid() {
			return false
		}
		it.val.SetIterValue(it.iter)
		it.got.Set(other)
		if !t.equalParts(it.val.Addr().UnsafePointer(), it.got.Addr().UnsafePointer(), s.val) {
			return false
		}
	}
	return true
}
