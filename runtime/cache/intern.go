package cache

import (
	"sync"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// internGeneration bounds an interner: once this many strings were added since the last turnover, the
// strings not looked up since then are forgotten.
const internGeneration = 1 << 14

// internMaxLen is the length above which a string value is not interned: long values (a
// last-applied-configuration annotation, a certificate) are rarely shared between objects.
const internMaxLen = 128

// interner makes equal strings of the objects an informer caches share one copy. A decoder allocates
// every string of every object anew, yet most label and annotation keys and values, owner kinds,
// namespaces and finalizers repeat across a collection. Its
// table keeps the strings looked up recently in two generations, so strings that stop occurring (the
// label values of deleted objects) are dropped after two turnovers and the table stays bounded.
type interner struct {
	mu        sync.Mutex
	cur, prev map[string]string
}

func newInterner() *interner { return &interner{cur: map[string]string{}} }

// intern returns the table's copy of s, adding s if there is none. The caller holds mu.
func (in *interner) intern(s string) string {
	if s == "" || len(s) > internMaxLen {
		return s
	}
	if c, ok := in.cur[s]; ok {
		return c
	}
	if c, ok := in.prev[s]; ok {
		in.cur[c] = c
		return c
	}
	if len(in.cur) >= internGeneration {
		in.prev, in.cur = in.cur, make(map[string]string, len(in.cur))
	}
	in.cur[s] = s
	return s
}

// internStrings returns a copy of m with its keys and values interned.
func (in *interner) internStrings(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[in.intern(k)] = in.intern(v)
	}
	return out
}

// internObject interns the repeated strings of a typed obj's metadata in place: namespace, generateName,
// label and annotation keys and values, owner references' apiVersion, kind, name and uid, and finalizers.
// Unstructured objects are left as they are.
func (in *interner) internObject(obj any) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if _, ok := obj.(*unstructured.Unstructured); ok {
		// Its strings sit in interface values and maps a decoder sized as it went: sharing them
		// needs every map rebuilt, which costs more sync time than the memory it saves is worth.
		return
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	if ns := m.GetNamespace(); ns != "" {
		if c := in.intern(ns); !sameString(c, ns) {
			m.SetNamespace(c)
		}
	}
	if g := m.GetGenerateName(); g != "" {
		if c := in.intern(g); !sameString(c, g) {
			m.SetGenerateName(c)
		}
	}
	if l := m.GetLabels(); len(l) > 0 {
		m.SetLabels(in.internStrings(l))
	}
	if a := m.GetAnnotations(); len(a) > 0 {
		m.SetAnnotations(in.internStrings(a))
	}
	if refs := m.GetOwnerReferences(); len(refs) > 0 {
		for i := range refs {
			in.internOwner(&refs[i])
		}
		m.SetOwnerReferences(refs)
	}
	if f := m.GetFinalizers(); len(f) > 0 {
		for i := range f {
			f[i] = in.intern(f[i])
		}
		m.SetFinalizers(f)
	}
}

// sameString reports whether a and b are one copy of a string.
func sameString(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func (in *interner) internOwner(r *metav1.OwnerReference) {
	r.APIVersion = in.intern(r.APIVersion)
	r.Kind = in.intern(r.Kind)
	r.Name = in.intern(r.Name)
	r.UID = types.UID(in.intern(string(r.UID)))
}
