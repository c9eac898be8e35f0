package cache

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// sharer makes equal read-only parts of the objects an informer caches share one copy. A decoder
// allocates every object anew, yet the Pods of one ReplicaSet hold equal resource lists,
// environments, ports, probes, security contexts, tolerations and label maps, and a watch update
// repeats most of the object it replaces. Before an object is cached, the sharer walks it side by
// side with an exemplar, a similar object already cached: the cached version of the same object (an
// update or a relist), else the object shared last with the same controller owner, else the object
// shared last. Every string, and every map, slice and pointed-to value whose content equals the
// exemplar's at the same place, is replaced by the exemplar's, and the new object's own copy becomes
// garbage. Exemplars were shared the same way, so equal parts chain through the cache: the Pods of a
// template share one resource list, and consecutive templates share what they have in common.
// Typed objects are walked by a plan compiled once per Go type (shapeOf); unstructured ones as trees
// of maps and slices (share_unstructured.go).
//
// Content is always compared, and the walk writes only into the object it is given (which the
// informer owns), replacing a reference only by one to equal content, so the object reads the same
// afterwards. Sharing is safe because cached objects are read-only; a DeepCopy of a cached object is
// fully independent again. The sharer keeps no table of parts: its exemplars are cached objects.
type sharer struct {
	mu sync.Mutex
	// store is the informer's cache, where exemplars are looked up by key; nil: only last serves.
	store *keyedStore
	// last is the object shared last; byOwner maps a controller owner's uid to the key of the object
	// shared last with that owner (at most maxOwners).
	last    any
	byOwner map[types.UID]string
	// depth is the walk's current nesting of references; tooDeep is set once it passes
	// maxShareDepth, and the walk then stops sharing.
	depth   int
	tooDeep bool
	// free holds reusable iterators of maps, by map shape.
	free map[*shape][]*mapIterator
}

// newSharer returns a sharer that finds exemplars in store (which may be nil).
func newSharer(store *keyedStore) *sharer {
	return &sharer{store: store, byOwner: map[types.UID]string{}}
}

// maxShareDepth bounds how deep the walk follows references, so that a pointer cycle (which no decoder
// makes, but a transform might) cannot recurse forever; API objects nest a few dozen levels at most.
const maxShareDepth = 1000

// maxOwners bounds the controller owners a sharer remembers an exemplar for.
const maxOwners = 4096

// shareObject shares the parts of obj, a typed object (a pointer to a struct) or an unstructured one,
// with equal parts of an exemplar. Anything else is left as it is.
func (t *sharer) shareObject(obj any) {
	var content map[string]any
	var s *shape
	switch u := obj.(type) {
	case *unstructured.Unstructured:
		content = u.Object
	case *unstructured.UnstructuredList:
		return
	default:
		v := reflect.ValueOf(obj)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Type().Elem().Kind() != reflect.Struct {
			return
		}
		s = shapeOf(v.Type().Elem())
	}
	key, owner := t.identify(obj)
	t.mu.Lock()
	defer t.mu.Unlock()
	ex, cached := t.exemplar(obj, key, owner)
	if cached {
		// Already in the cache, shared when it arrived, and perhaps being read: left alone.
		return
	}
	if ex != nil {
		t.depth, t.tooDeep = 0, false
		if content != nil {
			t.alignAnyEntries(content, ex.(*unstructured.Unstructured).Object)
		} else {
			t.align(reflect.ValueOf(obj).UnsafePointer(), reflect.ValueOf(ex).UnsafePointer(), s)
		}
	}
	t.last = obj
	if owner != "" && key != "" {
		if len(t.byOwner) >= maxOwners {
			clear(t.byOwner)
		}
		t.byOwner[owner] = key
	}
}

// identify returns obj's key in the store and the uid of its controller owner, each empty if unknown.
func (t *sharer) identify(obj any) (key string, owner types.UID) {
	if t.store == nil {
		return "", ""
	}
	if k, err := t.store.keyFunc(obj); err == nil {
		key = k
	}
	if m, err := meta.Accessor(obj); err == nil {
		for _, r := range m.GetOwnerReferences() {
			if r.Controller != nil && *r.Controller {
				owner = r.UID
				break
			}
		}
	}
	return key, owner
}

// exemplar returns the cached object obj is walked against: the cached version of obj, else the one
// cached last with obj's controller owner, else the object shared last; nil if none is of obj's type.
// cached reports that obj itself is what the store holds (a ListerWatcher that sent it again).
func (t *sharer) exemplar(obj any, key string, owner types.UID) (ex any, cached bool) {
	usable := func(ex any) bool {
		return ex != nil && ex != obj && reflect.TypeOf(ex) == reflect.TypeOf(obj)
	}
	// The store is read only when no writer holds or waits for its lock: the reflector, which queues
	// objects, must not wait behind the readers of a busy cache.
	if key != "" {
		if cur, ok := t.store.items.getUncontended(key); ok {
			if cur == obj {
				return nil, true
			}
			if usable(cur) {
				return cur, false
			}
		}
	}
	if k, ok := t.byOwner[owner]; ok && owner != "" {
		if ex, ok := t.store.items.getUncontended(k); ok && usable(ex) {
			return ex, false
		}
	}
	if usable(t.last) {
		return t.last, false
	}
	return nil, false
}

// shapeKind is how the walk treats a value.
type shapeKind uint8

const (
	// kindScalar holds no references: it is compared as bytes.
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
	// typ and val describe a map (its keys are compared by the map itself); fast says whether it has
	// the layout of a common map type iterated without reflection.
	typ  reflect.Type
	val  *shape
	fast fastMap
}

// fastMap names map layouts the walk iterates without reflection: any map type whose keys are
// strings and whose values are strings (labels, annotations, selectors) or resource.Quantity
// (resource lists) has the layout and equality of the plain map type it is read as.
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
		s.kind, s.fields = kindStruct, fields
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

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// sameBytes reports whether the n bytes at a and b are equal.
func sameBytes(a, b unsafe.Pointer, n uintptr) bool {
	return a == b || unsafe.String((*byte)(a), n) == unsafe.String((*byte)(b), n)
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

// align walks the value at p, of shape s, side by side with the exemplar's value at q: each reference
// under p whose content equals the one at the same place under q is replaced by q's. It reports whether
// the whole value equals q's (then the caller can take q's reference in place of its own). Parts are
// compared in full, so unequal values are walked on and their equal children still shared.
func (t *sharer) align(p, q unsafe.Pointer, s *shape) bool {
	if t.tooDeep {
		return false
	}
	switch s.kind {
	case kindScalar, kindOpaque:
		return sameBytes(p, q, s.size)
	case kindString:
		a, b := (*string)(p), *(*string)(q)
		if len(*a) != len(b) || *a != b {
			return false
		}
		*a = b
		return true
	case kindPointer:
		a, b := *(*unsafe.Pointer)(p), *(*unsafe.Pointer)(q)
		if a == b {
			return true
		}
		if a == nil || b == nil || !t.enter() {
			return false
		}
		equal := t.align(a, b, s.elem)
		t.depth--
		if equal {
			*(*unsafe.Pointer)(p) = b
		}
		return equal
	case kindSlice:
		a, b := (*sliceHeader)(p), (*sliceHeader)(q)
		if a.len == 0 || b.len == 0 {
			return a.len == b.len && (a.data == nil) == (b.data == nil)
		}
		if a.data == b.data && a.len == b.len {
			return true
		}
		if !t.enter() {
			return false
		}
		equal := a.len == b.len
		if s.elem.kind == kindScalar {
			equal = equal && sameBytes(a.data, b.data, uintptr(a.len)*s.elem.size)
		} else {
			for j := range min(a.len, b.len) {
				off := uintptr(j) * s.elem.size
				if !t.align(unsafe.Add(a.data, off), unsafe.Add(b.data, off), s.elem) {
					equal = false
				}
			}
		}
		t.depth--
		if equal {
			// No spare capacity: appending to a shared slice copies it.
			*a = sliceHeader{data: b.data, len: b.len, cap: b.len}
		}
		return equal
	case kindMap:
		a, b := *(*unsafe.Pointer)(p), *(*unsafe.Pointer)(q)
		if a == b {
			return true
		}
		if a == nil || b == nil || !t.enter() {
			return false
		}
		equal := t.alignMaps(a, b, s)
		t.depth--
		if equal {
			*(*unsafe.Pointer)(p) = b
		}
		return equal
	case kindStruct:
		equal := true
		for i := range s.fields {
			f := &s.fields[i]
			fp, fq := unsafe.Add(p, f.off), unsafe.Add(q, f.off)
			// Most fields of an API object are scalars, empty or already one: settled here without
			// a call.
			switch f.s.kind {
			case kindScalar, kindOpaque:
				if !sameBytes(fp, fq, f.s.size) {
					equal = false
				}
				continue
			case kindString:
				a, b := *(*string)(fp), *(*string)(fq)
				if len(a) != len(b) {
					equal = false
					continue
				}
				if len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) {
					continue
				}
			case kindPointer, kindMap:
				if *(*unsafe.Pointer)(fp) == *(*unsafe.Pointer)(fq) {
					continue
				}
			case kindSlice:
				if a, b := (*sliceHeader)(fp), (*sliceHeader)(fq); a.len == 0 && b.len == 0 {
					if (a.data == nil) != (b.data == nil) {
						equal = false
					}
					continue
				}
			}
			if !t.align(fp, fq, f.s) {
				equal = false
			}
		}
		return equal
	}
	return false
}

// alignMaps reports whether the maps a and b (map pointers) of shape s have equal content. When they
// do not, the values of a string map that equal b's under the same key are shared: a map's values can
// be replaced in place, but not its keys.
func (t *sharer) alignMaps(a, b unsafe.Pointer, s *shape) bool {
	switch s.fast {
	case fastStrings:
		ma, mb := *(*map[string]string)(unsafe.Pointer(&a)), *(*map[string]string)(unsafe.Pointer(&b))
		equal := len(ma) == len(mb)
		for k, va := range ma {
			if vb, ok := mb[k]; !ok || va != vb {
				equal = false
				break
			}
		}
		if !equal {
			for k, va := range ma {
				if vb, ok := mb[k]; ok && va == vb && unsafe.StringData(va) != unsafe.StringData(vb) {
					ma[k] = vb
				}
			}
		}
		return equal
	case fastQuantities:
		ma, mb := *(*map[string]resource.Quantity)(unsafe.Pointer(&a)), *(*map[string]resource.Quantity)(unsafe.Pointer(&b))
		if len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !t.align(unsafe.Pointer(&va), unsafe.Pointer(&vb), s.val) {
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
		// The value is walked as a copy: what is shared inside it stays shared, the copy is dropped.
		it.val.SetIterValue(it.iter)
		it.got.Set(other)
		if !t.align(it.val.Addr().UnsafePointer(), it.got.Addr().UnsafePointer(), s.val) {
			return false
		}
	}
	return true
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
