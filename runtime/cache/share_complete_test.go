package cache

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The walk misses no equal part: after sharing, every string, map, slice and pointed-to value of an
// object that equals its exemplar's at the same place is the exemplar's, whether it lies under a part
// that differs or the objects are equal throughout; and likewise for unstructured objects.
func TestSharingSharesEveryEqualPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		ex := variedPod(t, rng, i)
		obj := variedPod(t, rng, i)
		if i%10 == 0 {
			obj = redecode(t, ex) // equal throughout
		}
		sh := newSharer(nil)
		sh.shareObject(ex)
		sh.shareObject(obj)
		if missed := unshared(reflect.ValueOf(obj).Elem(), reflect.ValueOf(ex).Elem(), "pod"); len(missed) > 0 {
			t.Fatalf("object %d: equal parts not shared: %v", i, missed)
		}

		exContent, err := runtime.DefaultUnstructuredConverter.ToUnstructured(ex)
		if err != nil {
			t.Fatal(err)
		}
		objContent, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			t.Fatal(err)
		}
		ue, uo := &unstructured.Unstructured{Object: exContent}, &unstructured.Unstructured{Object: objContent}
		uo = uo.DeepCopy() // memory of its own
		sh = newSharer(nil)
		sh.shareObject(ue)
		sh.shareObject(uo)
		if missed := unsharedAny(uo.Object, ue.Object, "pod"); len(missed) > 0 {
			t.Fatalf("unstructured object %d: equal parts not shared: %v", i, missed)
		}
	}
}

// unshared returns the paths of the parts of a that equal b's at the same place without being b's.
func unshared(a, b reflect.Value, path string) []string {
	switch a.Kind() {
	case reflect.Struct:
		var out []string
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				out = append(out, unshared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)...)
			}
		}
		return out
	case reflect.String, reflect.Pointer, reflect.Map, reflect.Slice:
		if emptyRef(a) {
			return nil
		}
		if reflect.DeepEqual(a.Interface(), b.Interface()) {
			if refOf(a) != refOf(b) {
				return []string{path}
			}
			return nil
		}
		var out []string
		switch a.Kind() {
		case reflect.Pointer:
			if !b.IsNil() {
				out = unshared(a.Elem(), b.Elem(), path)
			}
		case reflect.Slice:
			for j := range min(a.Len(), b.Len()) {
				out = append(out, unshared(a.Index(j), b.Index(j), fmt.Sprintf("%s[%d]", path, j))...)
			}
		case reflect.Map:
			if a.Type().Key().Kind() == reflect.String && a.Type().Elem().Kind() == reflect.String {
				for _, k := range a.MapKeys() {
					if v := b.MapIndex(k); v.IsValid() {
						out = append(out, unshared(a.MapIndex(k), v, path+"["+k.String()+"]")...)
					}
				}
			}
		}
		return out
	}
	return nil
}

// emptyRef reports an empty string or slice, or a nil pointer or map: nothing to share.
func emptyRef(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String, reflect.Slice:
		return v.Len() == 0
	}
	return v.IsNil()
}

// refOf is the memory a string, pointer, map or slice refers to.
func refOf(v reflect.Value) unsafe.Pointer {
	if v.Kind() == reflect.String {
		return unsafe.Pointer(unsafe.StringData(v.String()))
	}
	return v.UnsafePointer()
}

// unsharedAny is unshared for unstructured content: a map's or slice's values are compared as
// interface values, which sharing replaces by the exemplar's.
func unsharedAny(a, b any, path string) []string {
	var out []string
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return nil
		}
		for k, v := range x {
			if w, ok := y[k]; ok {
				out = append(out, unsharedValue(v, w, path+"."+k)...)
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok {
			return nil
		}
		for i := range min(len(x), len(y)) {
			out = append(out, unsharedValue(x[i], y[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return out
}

func unsharedValue(v, w any, path string) []string {
	if reflect.DeepEqual(v, w) {
		if !sameIface(v, w) && !emptyAny(v) {
			return []string{path}
		}
		return nil
	}
	return unsharedAny(v, w, path)
}

// emptyAny reports nil or an empty slice, which the walk leaves alone.
func emptyAny(v any) bool {
	x, ok := v.([]any)
	return v == nil || ok && len(x) == 0
}
