package conversiongen

// memoryEquality decides which pairs of types have the same memory layout, so that a value of one can be
// read as the other through unsafe.Pointer. Unlike code-generator, which compares struct members by
// position and type alone, members must also have the same names: structs whose same-typed fields are
// swapped or renamed are converted field by field, by name. Pairs with a hand-written conversion (not
// copy-only) are never equal; a pair of identical types always is.
type memoryEquality map[pair]bool

// skip makes a and b unequal in both directions.
func (e memoryEquality) skip(a, b *typ) {
	e[pair{a, b}] = false
	e[pair{b, a}] = false
}

// equal reports whether a and b have the same memory layout and member names.
func (e memoryEquality) equal(a, b *typ) bool {
	eq, _ := e.cached(a, b, nil)
	return eq
}

// cached compares a and b using and filling the cache; cacheable is false when the answer assumed a
// type being compared further up (visiting) equal, to break a cycle.
func (e memoryEquality) cached(a, b *typ, visiting []*typ) (eq, cacheable bool) {
	if a == b {
		return true, true
	}
	if eq, ok := e[pair{a, b}]; ok {
		return eq, true
	}
	if eq, ok := e[pair{b, a}]; ok {
		return eq, true
	}
	eq, cacheable = e.compare(a, b, visiting)
	if cacheable {
		e[pair{a, b}] = eq
		e[pair{b, a}] = eq
	}
	return eq, cacheable
}

func (e memoryEquality) compare(a, b *typ, visiting []*typ) (eq, cacheable bool) {
	in, out := unwrapAlias(a), unwrapAlias(b)
	if in == out {
		return true, true
	}
	if in.kind != out.kind {
		return false, true
	}
	for _, v := range visiting {
		if v == in {
			return true, false
		}
	}
	visiting = append(visiting, in)
	switch in.kind {
	case kindStruct:
		if len(in.members) != len(out.members) {
			return false, true
		}
		cacheable = true
		for i, m := range in.members {
			if m.name != out.members[i].name {
				return false, true
			}
			eq, c := e.cached(m.t, out.members[i].t, visiting)
			if !eq {
				return false, true
			}
			cacheable = cacheable && c
		}
		return true, cacheable
	case kindPointer, kindSlice:
		return e.cached(in.elem, out.elem, visiting)
	case kindMap:
		keq, kc := e.cached(in.key, out.key, visiting)
		veq, vc := e.cached(in.elem, out.elem, visiting)
		return keq && veq, kc && vc
	case kindBuiltin:
		return in.local == out.local, true
	}
	return false, true
}
