package fidelity_test

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// clusterAPIRoundTrip runs, in the cluster-api copy TestClusterAPIConversions generated (the working
// directory), a random round-trip property test of every package of clusterAPIPackages against its hub,
// in one go test run. For every pair of types kgen's zz_generated.conversion.go (generated, by package
// directory) registers in both directions, random values of the package converted to the hub and back
// through a runtime.Scheme must give exactly what code-generator's shipped conversions (shipped, by file
// path; compiled beside kgen's in a copy of the package) give on the same values, hub value included, and
// must equal the originals in every field that has a counterpart: a field the generated conversions
// convert themselves. Fields they leave to cluster-api's hand-written functions (their WARNING comments)
// are not compared: several of those deliberately drop data that cluster-api's conversion webhooks
// restore from annotations (Convert_v1_ObjectReference_To_v1beta2_ContractVersionedObjectReference does
// nothing); nor are types of other packages (controlplane's KubeadmConfigSpec of bootstrap), which their
// own package's hand-written functions convert.
func clusterAPIRoundTrip(t *testing.T, generated, shipped map[string][]byte) {
	t.Helper()
	var packages []string
	for _, p := range clusterAPIPackages {
		writeRoundTripTest(t, p, generated[p.dir], shipped[p.dir+"/zz_generated.conversion.go"])
		packages = append(packages, "./"+p.dir+"/")
	}
	goTest(t, packages...)
}

// writeRoundTripTest writes the round-trip test of package p, with kgen's conversion file kgenFile, into
// p.dir, and a copy of p with the shipped conversion file into p.dir+"shipped".
func writeRoundTripTest(t *testing.T, p clusterAPIPackage, kgenFile, shippedFile []byte) {
	t.Helper()
	hubAlias := path.Base(p.hub)
	if !bytes.Contains(kgenFile, []byte(fmt.Sprintf("\t%s %q\n", hubAlias, clusterAPIModule+"/"+p.hub))) {
		t.Fatalf("%s: kgen's conversions do not import the hub %s as %s", p.dir, p.hub, hubAlias)
	}
	pairs := convertiblePairs(kgenFile, hubAlias)
	if len(pairs) != p.pairs {
		t.Errorf("%s: %d type pairs convertible both ways in kgen's conversions; want %d", p.dir, len(pairs), p.pairs)
	}
	// The copy with code-generator's file: its own import path, the same package name, no tests.
	copyTree(t, p.dir, p.dir+"shipped")
	tests, err := filepath.Glob(filepath.Join(p.dir+"shipped", "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tests {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(p.dir+"shipped", "zz_generated.conversion.go"), shippedFile)
	var table strings.Builder
	for _, pair := range pairs {
		fmt.Fprintf(&table, "\t{new(spokeapi.%[1]s), new(shippedapi.%[1]s), new(hubapi.%[2]s)},\n", pair.spoke, pair.hub)
	}
	var gen strings.Builder
	for _, g := range generatedPairs(kgenFile, hubAlias) {
		fmt.Fprintf(&gen, "\t{%q, %q}: {", g.spoke, g.hub)
		for i, f := range g.manual {
			if i > 0 {
				gen.WriteString(", ")
			}
			fmt.Fprintf(&gen, "%q: true", f)
		}
		gen.WriteString("},\n")
	}
	fillers := noFillers
	if p.dir == "core/v1beta1" {
		fillers = jsonSchemaPropsFillers
	}
	src := strings.NewReplacer(
		"PACKAGE", path.Base(p.dir),
		"SPOKEPATH", clusterAPIModule+"/"+p.dir,
		"HUBPATH", clusterAPIModule+"/"+p.hub,
		"PAIRCOUNT", fmt.Sprint(len(pairs)),
		"\t// PAIRS\n", table.String(),
		"\t// GENERATED\n", gen.String(),
		"// FILLERS\n", fillers,
	).Replace(clusterAPIRoundTripTest)
	writeFile(t, filepath.Join(p.dir, "kgen_roundtrip_test.go"), []byte(src))
}

// clusterAPIModule is the module path of cluster-api's API packages.
const clusterAPIModule = "sigs.k8s.io/cluster-api/api"

// typePair is a type of a package and the hub type it converts to and from.
type typePair struct{ spoke, hub string }

// convertiblePairs lists, in order, the local types a conversion file registers conversions for to a
// type of the hub (imported as hub) and back.
func convertiblePairs(file []byte, hub string) []typePair {
	h := regexp.QuoteMeta(hub + ".")
	registered := regexp.MustCompile(`Conversion(?:Func)?\(\(\*(` + h + `)?(\w+)\)\(nil\), \(\*(` + h + `)?(\w+)\)\(nil\)`)
	to := map[typePair]bool{}
	from := map[typePair]bool{}
	var order []typePair
	for _, m := range registered.FindAllSubmatch(file, -1) {
		switch {
		case len(m[1]) == 0 && len(m[3]) > 0:
			p := typePair{string(m[2]), string(m[4])}
			if !to[p] {
				order = append(order, p)
			}
			to[p] = true
		case len(m[1]) > 0 && len(m[3]) == 0:
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

// generatedPair is a type of a package and a type of its hub with generated conversions (autoConvert
// functions) both ways, and the fields of the same name either leaves to a manual conversion.
type generatedPair struct {
	spoke, hub string
	manual     []string
}

// generatedPairs lists, in order, the pairs of types a conversion file has autoConvert functions for in
// both directions with the hub (imported as hub), with the fields their WARNING comments leave to manual
// conversions.
func generatedPairs(file []byte, hub string) []generatedPair {
	h := regexp.QuoteMeta(hub + ".")
	function := regexp.MustCompile(`(?ms)^func autoConvert_\w+\(in \*(` + h + `)?(\w+), out \*(` + h + `)?(\w+), s conversion\.Scope\) error \{$(.*?)^\}$`)
	warning := regexp.MustCompile(`// WARNING: in\.(\w+) requires manual conversion`)
	manual := map[typePair][]string{}
	directions := map[typePair]int{}
	var order []typePair
	for _, m := range function.FindAllSubmatch(file, -1) {
		var k typePair
		switch {
		case len(m[1]) == 0 && len(m[3]) > 0:
			k = typePair{string(m[2]), string(m[4])}
			order = append(order, k)
		case len(m[1]) > 0 && len(m[3]) == 0:
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

// clusterAPIRoundTripTest is the test writeRoundTripTest adds to a cluster-api package: PACKAGE becomes
// its name, SPOKEPATH and HUBPATH the import paths of the package and its hub, "// PAIRS" its table of
// types, PAIRCOUNT their number, "// GENERATED" the table of generatedPairs and "// FILLERS" the function
// fillers, the package's custom randfill functions (noFillers or jsonSchemaPropsFillers).
const clusterAPIRoundTripTest = `package PACKAGE_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	spokeapi "SPOKEPATH"
	shippedapi "SPOKEPATHshipped"
	hubapi "HUBPATH"
)

// pairs are the package's types with kgen's conversions, the same types with code-generator's, and their hub types.
var pairs = []struct{ kgen, shipped, hub any }{
	// PAIRS
}

// generated maps each pair of a type of the package and a hub type with generated conversions both ways
// to the fields of the same name these leave to manual conversions.
var generated = map[[2]string]map[string]bool{
	// GENERATED
}

var (
	typeMetaType = reflect.TypeFor[metav1.TypeMeta]()
	timeType     = reflect.TypeFor[time.Time]()
	spokePackage = reflect.TypeOf(pairs[0].kgen).Elem().PkgPath()
	hubPackage   = reflect.TypeOf(pairs[0].hub).Elem().PkgPath()
)

// newScheme is a scheme with the hub and a copy of the package (added by spoke), with its conversions.
func newScheme(t *testing.T, spoke func(*runtime.Scheme) error) *runtime.Scheme {
	s := runtime.NewScheme()
	if err := spoke(s); err != nil {
		t.Fatal(err)
	}
	if err := hubapi.AddToScheme(s); err != nil {
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

// deepCopy copies v (a pointer to a type of the package) with its generated DeepCopy.
func deepCopy(t *testing.T, v any) any {
	m := reflect.ValueOf(v).MethodByName("DeepCopy")
	if !m.IsValid() {
		t.Fatalf("%T has no DeepCopy", v)
	}
	return m.Call(nil)[0].Interface()
}

// as reinterprets v, a pointer to a type of the package, as a pointer to the same type of the other copy of
// the package (the two have the same memory layout: one source, one compiler).
func as(v any, like any) any {
	return reflect.NewAt(reflect.TypeOf(like).Elem(), reflect.ValueOf(v).UnsafePointer()).Interface()
}

// TestKgenRoundTripThroughHub fills every type of the package kgen converts both ways with random values
// and converts it to the hub and back, with kgen's conversions and with code-generator's.
func TestKgenRoundTripThroughHub(t *testing.T) {
	if len(pairs) != PAIRCOUNT {
		t.Fatalf("%d pairs", len(pairs))
	}
	kgenScheme := newScheme(t, spokeapi.AddToScheme)
	shippedScheme := newScheme(t, shippedapi.AddToScheme)
	filler := randfill.NewWithSeed(1).NilChance(0.2).NumElements(0, 3).Funcs(fillers()...)
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
		if compared == 0 && hasCounterparts(reflect.TypeOf(p.kgen).Elem(), reflect.TypeOf(p.hub).Elem(), map[[2]reflect.Type]bool{}) {
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
// same type; for a pair of a type of the package and a hub type with generated conversions, the fields of the same name
// that these convert themselves rather than leave to a manual conversion; nothing for other pairs, which
// hand-written functions convert. A nil pointer equals a pointer to the zero value and a nil slice or map
// an empty one, since a hub often holds as a value what the package holds as a pointer. TypeMeta is not
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
			if !ok || want.Type().PkgPath() != spokePackage || hub.PkgPath() != hubPackage || hub.Kind() != reflect.Struct {
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

// hasCounterparts reports whether counterparts compares some value of spoke converted to hub: the two are
// the same type, a leaf it compares whole, a pair with generated conversions and a field it compares, or
// slices or maps of such. seen holds the pairs of struct types being looked at.
func hasCounterparts(spoke, hub reflect.Type, seen map[[2]reflect.Type]bool) bool {
	for spoke.Kind() == reflect.Pointer {
		spoke = spoke.Elem()
	}
	for hub.Kind() == reflect.Pointer {
		hub = hub.Elem()
	}
	switch {
	case spoke == hub:
		return true
	case spoke.Kind() == reflect.Slice || spoke.Kind() == reflect.Map:
		return hub.Kind() == spoke.Kind() && hasCounterparts(spoke.Elem(), hub.Elem(), seen)
	case spoke.Kind() != reflect.Struct || spoke == timeType || hasUnexported(spoke):
		return true
	}
	manual, ok := generated[[2]string{spoke.Name(), hub.Name()}]
	if !ok || spoke.PkgPath() != spokePackage || hub.PkgPath() != hubPackage || seen[[2]reflect.Type{spoke, hub}] {
		return false
	}
	seen[[2]reflect.Type{spoke, hub}] = true
	for i := range spoke.NumField() {
		f := spoke.Field(i)
		if f.Type == typeMetaType || manual[f.Name] {
			continue
		}
		if hf, ok := hub.FieldByName(f.Name); ok && hasCounterparts(f.Type, hf.Type, seen) {
			return true
		}
	}
	return false
}

// FILLERS

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

// noFillers is fillers for a package whose types randfill fills as they are.
const noFillers = `// fillers are the package's custom randfill functions: none.
func fillers() []any { return nil }
`

// jsonSchemaPropsFillers is fillers for core/v1beta1, whose JSONSchemaProps nests itself in eight fields.
const jsonSchemaPropsFillers = `// fillers bounds JSONSchemaProps, which nests itself in eight fields: past two levels, a schema gets
// scalars only.
func fillers() []any {
	depth := 0
	return []any{func(p *spokeapi.JSONSchemaProps, c randfill.Continue) {
		if depth == 2 {
			c.Fill(&p.Type)
			c.Fill(&p.Description)
			c.Fill(&p.Required)
			return
		}
		depth++
		c.FillNoCustom(p)
		depth--
	}}
}
`
