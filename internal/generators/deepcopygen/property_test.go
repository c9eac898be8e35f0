package deepcopygen_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
	mixedv1 "github.com/kgen-dev/kgen/testdata/apis/MixedCase/v1"
	examplev1 "github.com/kgen-dev/kgen/testdata/apis/example/v1"
	examplev1beta1 "github.com/kgen-dev/kgen/testdata/apis/example/v1beta1"
	example2v1 "github.com/kgen-dev/kgen/testdata/apis/example2/v1"
	example3v1 "github.com/kgen-dev/kgen/testdata/apis/example3.io/v1"
	hyphenv1 "github.com/kgen-dev/kgen/testdata/apis/hyphen-group/v1"
	optinv1 "github.com/kgen-dev/kgen/testdata/apis/optin/v1"
	shapesv1 "github.com/kgen-dev/kgen/testdata/apis/shapes/v1"
)

// iterations is how many random values each type is checked with.
const iterations = 20

// filler fills every exported field, including the interface fields the API types have.
func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.2).NumElements(1, 3).MaxDepth(8).Funcs(
		func(o *runtime.Object, c randfill.Continue) {
			if c.Bool() {
				s := &metav1.Status{}
				c.Fill(s)
				*o = s
			}
		},
		func(a *shapesv1.Animal, c randfill.Continue) {
			switch c.Intn(3) {
			case 0:
				var d shapesv1.Dog
				c.Fill(&d)
				*a = d
			case 1:
				var cat shapesv1.Cat
				c.Fill(&cat)
				*a = &cat
			}
		},
	)
}

// TestDeepCopyProperty fills every generated type of testdata and every type k8s.io/api registers with
// random values, deep-copies it, and checks that the copy is equal and shares no pointer, slice or map with
// the original. The k8s.io/api code compiled here is byte-for-byte what deepcopy-gen generates
// (TestEquivalence), so this tests our output.
func TestDeepCopyProperty(t *testing.T) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{mixedv1.AddToScheme, examplev1.AddToScheme, examplev1beta1.AddToScheme,
		example2v1.AddToScheme, example3v1.AddToScheme, hyphenv1.AddToScheme, optinv1.AddToScheme, shapesv1.Install} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[reflect.Type]bool{}
	var values []reflect.Type
	add := func(typ reflect.Type) {
		if !seen[typ] {
			seen[typ] = true
			values = append(values, typ)
		}
	}
	for _, sch := range []*runtime.Scheme{s, scheme.Scheme} {
		for _, typ := range sch.AllKnownTypes() {
			add(typ)
		}
	}
	// Types of the shapes package that are not objects.
	for _, v := range []any{shapesv1.ShapeSpec{}, shapesv1.Inner{}, shapesv1.Nest{}, shapesv1.Extra{}, shapesv1.Plain{},
		shapesv1.Manual{}, shapesv1.ByValue{}, shapesv1.ByPtr{}, shapesv1.Dog{}, shapesv1.Cat{}, shapesv1.Tags{},
		shapesv1.Attrs{}, shapesv1.Matrix{}, shapesv1.Level(0), optinv1.Names{}} {
		add(reflect.TypeOf(v))
	}
	if len(values) < 350 {
		t.Fatalf("only %d types to check", len(values))
	}
	for i, typ := range values {
		f := filler(int64(i))
		for range iterations {
			orig := reflect.New(typ)
			f.Fill(orig.Interface())
			copied := deepCopy(t, orig)
			if !reflect.DeepEqual(orig.Elem().Interface(), copied.Interface()) {
				t.Fatalf("%v: the copy differs from the original", typ)
			}
			if path, shared := sharing(orig.Elem(), copied, typ.String()); shared {
				t.Fatalf("%v: the copy shares %s with the original", typ, path)
			}
		}
	}
}

// deepCopy calls the DeepCopy method of *ptr (pointer or value receiver) and returns the copy as a value.
func deepCopy(t *testing.T, ptr reflect.Value) reflect.Value {
	m := ptr.MethodByName("DeepCopy")
	if !m.IsValid() {
		t.Fatalf("%v has no DeepCopy method", ptr.Type().Elem())
	}
	out := m.Call(nil)[0]
	if out.Kind() == reflect.Pointer && out.Type() == ptr.Type() {
		return out.Elem()
	}
	return out
}

var timeType = reflect.TypeOf(time.Time{})

// sharing walks a and b (of the same type) and reports the first pointer, non-empty slice or map they share.
func sharing(a, b reflect.Value, path string) (string, bool) {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return "", false
		}
		// Go may give every zero-size allocation the same address.
		if a.Pointer() == b.Pointer() && a.Type().Elem().Size() > 0 {
			return path, true
		}
		return sharing(a.Elem(), b.Elem(), "(*"+path+")")
	case reflect.Interface:
		if a.IsNil() {
			return "", false
		}
		return sharing(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() == 0 {
			return "", false
		}
		if a.Pointer() == b.Pointer() && a.Type().Elem().Size() > 0 {
			return path, true
		}
		for i := range a.Len() {
			if p, ok := sharing(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	case reflect.Array:
		for i := range a.Len() {
			if p, ok := sharing(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	case reflect.Map:
		if a.IsNil() {
			return "", false
		}
		if a.Pointer() == b.Pointer() {
			return path, true
		}
		for _, k := range a.MapKeys() {
			if p, ok := sharing(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); ok {
				return p, true
			}
		}
	case reflect.Struct:
		if a.Type() == timeType {
			return "", false // its *time.Location is shared by design
		}
		for i := range a.NumField() {
			if p, ok := sharing(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); ok {
				return p, true
			}
		}
	}
	return "", false
}
