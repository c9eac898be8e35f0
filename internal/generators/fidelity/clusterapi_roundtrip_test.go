package fidelity_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// clusterAPIRoundTrip runs, in the cluster-api copy TestClusterAPIConversions generated (the working
// directory), a random round-trip property test of core/v1beta1 against its hub core/v1beta2. For every
// pair of types kgen's zz_generated.conversion.go (kgenFile) registers in both directions, random v1beta1
// values converted to the hub and back through a runtime.Scheme must give exactly what code-generator's
// shipped conversions (shippedFile, compiled beside kgen's in a copy of the package) give on the same
// values, hub value included, and must equal the originals in every field that has a counterpart: a field
// the generated conversions convert themselves. Fields they leave to cluster-api's hand-written functions
// (their WARNING comments) are not compared: several of those deliberately drop data that cluster-api's
// conversion webhooks restore from annotations (Convert_v1_ObjectReference_To_v1beta2_ContractVersionedObjectReference
// does nothing).
func clusterAPIRoundTrip(t *testing.T, kgenFile, shippedFile []byte) {
	t.Helper()
	pairs := convertiblePairs(kgenFile)
	if len(pairs) < 80 {
		t.Fatalf("%d type pairs convertible both ways in kgen's core/v1beta1 conversions; want at least 80", len(pairs))
	}
	// The copy of core/v1beta1 with code-generator's file: its own import path, the same package name.
	copyTree(t, "core/v1beta1", "core/v1beta1shipped")
	for _, f := range []string{"cluster_types_test.go"} {
		if err := os.Remove(filepath.Join("core/v1beta1shipped", f)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, "core/v1beta1shipped/zz_generated.conversion.go", shippedFile)
	var table strings.Builder
	for _, p := range pairs {
		fmt.Fprintf(&table, "\t{new(v1beta1.%[1]s), new(shipped.%[1]s), new(v1beta2.%[2]s)},\n", p.spoke, p.hub)
	}
	var generated strings.Builder
	for _, g := range generatedPairs(kgenFile) {
		fmt.Fprintf(&generated, "\t{%q, %q}: {", g.spoke, g.hub)
		for i, f := range g.manual {
			if i > 0 {
				generated.WriteString(", ")
			}
			fmt.Fprintf(&generated, "%q: true", f)
		}
		generated.WriteString("},\n")
	}
	src := strings.Replace(clusterAPIRoundTripTest, "\t// PAIRS\n", table.String(), 1)
	src = strings.Replace(src, "\t// GENERATED\n", generated.String(), 1)
	src = strings.Replace(src, "PAIRCOUNT", fmt.Sprint(len(pairs)), 1)
	writeFile(t, "core/v1beta1/kgen_roundtrip_test.go", []byte(src))
	goTest(t, "./core/v1beta1/")
}

// typePair is a core/v1beta1 type and the core/v1beta2 type it converts to and from.
type typePair struct{ spoke, hub string }

// convertiblePairs lists, in order, the local types a conversion file registers conversions for to a
// v1beta2 type and back.
func convertiblePairs(file []byte) []typePair {
	registered := regexp.MustCompile(`Conversion(?:Func)?\(\(\*(v1beta2\.)?(\w+)\)\(nil\), \(\*(v1beta2\.)?(\w+)\)\(nil\)`)
	to := map[typePair]bool{}
	from := map[typePair]bool{}
	var order []typePair
	for _, m := range registered.FindAllSubmatch(file, -1) {
		switch {
		case len(m[1]) == 0 && string(m[3]) == "v1beta2.":
			p := typePair{string(m[2]), string(m[4])}
			if !to[p] {
				order = append(order, p)
			}
			to[p] = true
		case string(m[1]) == "v1beta2." && len(m[3]) == 0:
			from[typePair{string(m[4]), string(m[2])}] = true
		}
	}
	var pairs []typePair
	for _, p := range order {
		if from[p] {
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// generatedPair is a core/v1beta1 type and a core/v1beta2 type with generated conversions (autoConvert
// functions) both ways, and the fields of the same name either leaves to a manual conversion.
type generatedPair struct {
	spoke, hub string
	manual     []string
}

// generatedPairs lists, in order, the pairs of types a conversion file has autoConvert functions for in
// both directions, with the fields their WARNING comments leave to manual conversions.
func generatedPairs(file []byte) []generatedPair {
	function := regexp.MustCompile(`(?ms)^func autoConvert_\w+\(in \*(v1beta2\.)?(\w+), out \*(v1beta2\.)?(\w+), s conversion\.Scope\) error \{$(.*?)^\}$`)
	warning := regexp.MustCompile(`// WARNING: in\.(\w+) requires manual conversion`)
	manual := map[typePair][]string{}
	directions := map[typePair]int{}
	var order []typePair
	for _, m := range function.FindAllSubmatch(file, -1) {
		var k typePair
		switch {
		case len(m[1]) == 0 && string(m[3]) == "v1beta2.":
			k = typePair{string(m[2]), string(m[4])}
			order = append(order, k)
		case string(m[1]) == "v1beta2." && len(m[3]) == 0:
			k = typePair{string(m[4]), string(m[2])}
		default:
			continue
		}
		directions[k]++
		for _, w := range warning.FindAllSubmatch(m[5], -1) {
			if f := string(w[1]); !slices.Contains(manual[k], f) {
				manual[k] = append(manual[k], f)
			}
		}
	}
	var pairs []generatedPair
	for _, k := range order {
		if directions[k] == 2 {
			pairs = append(pairs, generatedPair{k.spoke, k.hub, manual[k]})
		}
	}
	return pairs
}

// clusterAPIRoundTripTest is the test clusterAPIRoundTrip adds to cluster-api's core/v1beta1; "// PAIRS"
// becomes its table of types, PAIRCOUNT their number, and "// GENERATED" the table of generatedPairs.
const clusterAPIRoundTripTest = `package v1beta1_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	v1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
	shipped "sigs.k8s.io/cluster-api/api/core/v1beta1shipped"
	v1beta2 "sigs.k8s.io/cluster-api/api/core/v1beta2"
)

// pairs are the v1beta1 types with kgen's conversions, the same types with code-generator's, and their hub types.
var pairs = []struct{ kgen, shipped, hub any }{
	// PAIRS
}

// generated maps each pair of a v1beta1 and a v1beta2 type with generated conversions both ways to the
// fields of the same name these leave to manual conversions.
var generated = map[[2]string]map[string]bool{
	// GENERATED
}

var (
	typeMetaType = reflect.TypeFor[metav1.TypeMeta]()
	timeType     = reflect.TypeFor[time.Time]()
	spokePackage = reflect.TypeFor[v1beta1.Cluster]().PkgPath()
)

// newScheme is a scheme with v1beta2 and a copy of v1beta1 (added by spoke), with its conversions.
func newScheme(t *testing.T, spoke func(*runtime.Scheme) error) *runtime.Scheme {
	s := runtime.NewScheme()
	if err := spoke(s); err != nil {
		t.Fatal(err)
	}
	if err := v1beta2.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// roundTrip converts in to a new value of hub's type and back to a new value of in's type.
func roundTrip(s *runtime.Scheme, in, hub any) (any, any, error) {
	h := reflect.New(reflect.TypeOf(hub).Elem()).Interface()
	if err := s.Convert(in, h, nil); err != nil {
		return nil, nil, fmt.Errorf("to the hub: %w", err)
	}
	back := reflect.New(reflect.TypeOf(in).Elem()).Interface()
	if err := s.Convert(h, back, nil); err != nil {
		return nil, nil, fmt.Errorf("from the hub: %w", err)
	}
	return h, back, nil
}

// deepCopy copies v (a pointer to a v1beta1 type) with its generated DeepCopy.
func deepCopy(t *testing.T, v any) any {
	m := reflect.ValueOf(v).MethodByName("DeepCopy")
	if !m.IsValid() {
		t.Fatalf("%T has no DeepCopy", v)
	}
	return m.Call(nil)[0].Interface()
}

// as reinterprets v, a pointer to a v1beta1 type, as a pointer to the same type of the other copy of the
// package (the two have the same memory layout: one source, one compiler).
func as(v any, like any) any {
	return reflect.NewAt(reflect.TypeOf(like).Elem(), reflect.ValueOf(v).UnsafePointer()).Interface()
}

// TestKgenRoundTripThroughHub fills every v1beta1 type kgen converts both ways with random values and
// converts it to v1beta2 and back, with kgen's conversions and with code-generator's.
func TestKgenRoundTripThroughHub(t *testing.T) {
	if len(pairs) != PAIRCOUNT {
		t.Fatalf("%d pairs", len(pairs))
	}
	kgenScheme := newScheme(t, v1beta1.AddToScheme)
	shippedScheme := newScheme(t, shipped.AddToScheme)
	// JSONSchemaProps nests itself in eight fields: past two levels, a schema gets scalars only.
	schemaDepth := 0
	filler := randfill.NewWithSeed(1).NilChance(0.2).NumElements(0, 3).Funcs(
		func(p *v1beta1.JSONSchemaProps, c randfill.Continue) {
			if schemaDepth == 2 {
				c.Fill(&p.Type)
				c.Fill(&p.Description)
				c.Fill(&p.Required)
				return
			}
			schemaDepth++
			c.FillNoCustom(p)
			schemaDepth--
		},
	)
	total := 0
	for _, p := range pairs {
		name := reflect.TypeOf(p.kgen).Elem().Name()
		compared := 0
		for i := range 50 {
			obj := reflect.New(reflect.TypeOf(p.kgen).Elem()).Interface()
			filler.Fill(obj)
			original := deepCopy(t, obj)
			forShipped := as(deepCopy(t, obj), p.shipped)
			hub, back, err := roundTrip(kgenScheme, obj, p.hub)
			if err != nil {
				t.Fatalf("%s #%d with kgen's conversions: %v", name, i, err)
			}
			shippedHub, shippedBack, err := roundTrip(shippedScheme, forShipped, p.hub)
			if err != nil {
				t.Fatalf("%s #%d with code-generator's conversions: %v", name, i, err)
			}
			if !reflect.DeepEqual(hub, shippedHub) {
				t.Fatalf("%s #%d: kgen's conversion to the hub differs from code-generator's:\n kgen %#v\nshipped %#v", name, i, hub, shippedHub)
			}
			if shippedBack := as(shippedBack, p.kgen); !reflect.DeepEqual(back, shippedBack) {
				t.Fatalf("%s #%d: kgen's round trip differs from code-generator's:\n kgen %#v\nshipped %#v", name, i, back, shippedBack)
			}
			var c comparison
			c.counterparts(name, reflect.ValueOf(original).Elem(), reflect.ValueOf(back).Elem(), reflect.TypeOf(p.hub).Elem())
			if len(c.diffs) > 0 {
				t.Fatalf("%s #%d changed in the round trip through %T:\n%v", name, i, p.hub, c.diffs)
			}
			compared += c.leaves
		}
		if compared == 0 && hasCounterparts(reflect.TypeOf(p.kgen).Elem(), reflect.TypeOf(p.hub).Elem()) {
			t.Errorf("%s: no field with a counterpart in %T was ever set", name, p.hub)
		}
		total += compared
	}
	t.Logf("%d types, %d values compared", len(pairs), total)
}

// comparison collects the differences counterparts finds and counts the set values it compares.
type comparison struct {
	diffs  []string
	leaves int
}

// counterparts records the path of every difference between want and got (values of one
// type) in the parts that have a counterpart in hub, the type they convert to: all of it when hub is the
// same type; for a pair of v1beta1 and v1beta2 types with generated conversions, the fields of the same name
// that these convert themselves rather than leave to a manual conversion; nothing for other pairs, which
// hand-written functions convert. A nil pointer equals a pointer to the zero value and a nil slice or map
// an empty one, since v1beta2 often holds as a value what v1beta1 holds as a pointer. TypeMeta is not
// compared: conversions drop it, and ConvertToVersion sets the object's own.
func (c *comparison) counterparts(path string, want, got reflect.Value, hub reflect.Type) {
	for hub.Kind() == reflect.Pointer {
		hub = hub.Elem()
	}
	if want.Kind() == reflect.Pointer {
		if want.IsNil() && got.IsNil() {
			return
		}
		if want.IsNil() {
			want = reflect.Zero(want.Type().Elem())
		} else {
			want = want.Elem()
		}
		if got.IsNil() {
			got = reflect.Zero(got.Type().Elem())
		} else {
			got = got.Elem()
		}
		c.counterparts(path, want, got, hub)
		return
	}
	differs := func() {
		c.diffs = append(c.diffs, fmt.Sprintf("%s: %v, want %v", path, got.Interface(), want.Interface()))
	}
	leaf := func(equal bool) {
		if !want.IsZero() {
			c.leaves++
		}
		if !equal {
			differs()
		}
	}
	switch want.Kind() {
	case reflect.Struct:
		switch {
		case want.Type() == timeType:
			leaf(want.Interface().(time.Time).Equal(got.Interface().(time.Time)))
			return
		case hasUnexported(want.Type()):
			leaf(equality.Semantic.DeepEqual(want.Interface(), got.Interface()))
			return
		}
		var manual map[string]bool
		if want.Type() != hub {
			var ok bool
			manual, ok = generated[[2]string{want.Type().Name(), hub.Name()}]
			if !ok || want.Type().PkgPath() != spokePackage || hub.Kind() != reflect.Struct {
				return
			}
		}
		for i := range want.NumField() {
			f := want.Type().Field(i)
			if f.Type == typeMetaType || manual[f.Name] {
				continue
			}
			if hf, ok := hub.FieldByName(f.Name); ok {
				c.counterparts(path+"."+f.Name, want.Field(i), got.Field(i), hf.Type)
			}
		}
	case reflect.Slice:
		if hub.Kind() != reflect.Slice {
			return
		}
		if want.Len() != got.Len() {
			c.diffs = append(c.diffs, fmt.Sprintf("%s: %d items, want %d", path, got.Len(), want.Len()))
			return
		}
		for i := range want.Len() {
			c.counterparts(fmt.Sprintf("%s[%d]", path, i), want.Index(i), got.Index(i), hub.Elem())
		}
	case reflect.Map:
		if hub.Kind() != reflect.Map {
			return
		}
		if want.Len() != got.Len() {
			c.diffs = append(c.diffs, fmt.Sprintf("%s: %d entries, want %d", path, got.Len(), want.Len()))
			return
		}
		for _, k := range want.MapKeys() {
			g := got.MapIndex(k)
			if !g.IsValid() {
				c.diffs = append(c.diffs, fmt.Sprintf("%s[%v]: missing", path, k))
				continue
			}
			c.counterparts(fmt.Sprintf("%s[%v]", path, k), want.MapIndex(k), g, hub.Elem())
		}
	default:
		leaf(reflect.DeepEqual(want.Interface(), got.Interface()))
	}
}

// hasCounterparts reports whether generated conversions convert a field of spoke to hub themselves.
func hasCounterparts(spoke, hub reflect.Type) bool {
	manual, ok := generated[[2]string{spoke.Name(), hub.Name()}]
	if !ok {
		return false
	}
	for i := range spoke.NumField() {
		f := spoke.Field(i)
		if _, ok := hub.FieldByName(f.Name); ok && f.Type != typeMetaType && !manual[f.Name] {
			return true
		}
	}
	return false
}

// hasUnexported reports a struct type with an unexported field (metav1.Time, resource.Quantity), compared whole.
func hasUnexported(t reflect.Type) bool {
	for i := range t.NumField() {
		if !t.Field(i).IsExported() {
			return true
		}
	}
	return false
}
`
