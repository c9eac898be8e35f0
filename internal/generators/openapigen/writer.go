package openapigen

import (
	"encoding/json"
	"fmt"
	"go/types"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/gofile"
	"github.com/kgen-dev/kgen/internal/generators/wireshape"
)

// writer renders the definitions file's body, in openapi-gen's layout before gofmt.
type writer struct {
	f *gofile.File
	g *generator
	b strings.Builder
	// spec is the name the file gives kube-openapi's spec package, once imported.
	spec string
	// refs are the struct types the definition being written references, by "importpath.Name".
	refs map[string]*types.Named
}

// p writes format with args; "§" in format stands for the spec package's name in this file.
func (w *writer) p(format string, args ...any) {
	if strings.Contains(format, "§") {
		if w.spec == "" {
			w.spec = strings.TrimSuffix(w.f.Ref(specPkg, "Schema"), ".Schema")
		}
		format = strings.ReplaceAll(format, "§", w.spec)
	}
	fmt.Fprintf(&w.b, format, args...)
}

// ident is the qualified reference to named type n in the output file.
func (w *writer) ident(n *types.Named) string {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return w.f.Ref(obj.Pkg().Path(), obj.Name())
}

// schemaFunc is the name of t's schema function: schema_ and the last four elements of its package path
// (dots dropped, dashes turned into underscores) and its name, joined by underscores.
func schemaFunc(pkgPath, name string) string {
	var dirs []string
	for _, d := range strings.Split(pkgPath, "/") {
		dirs = append(dirs, strings.NewReplacer("-", "_", ".", "").Replace(d))
	}
	if len(dirs) > 4 {
		dirs = dirs[len(dirs)-4:]
	}
	return "schema_" + strings.Join(append(dirs, name), "_")
}

// key is the map key or reference of named type n: its model name call or its "importpath.Name".
func (w *writer) key(n *types.Named) (string, error) {
	use, err := w.g.usesModelName(n)
	if err != nil {
		return "", err
	}
	if use {
		return w.ident(n) + "{}.OpenAPIModelName()", nil
	}
	return fmt.Sprintf("%q", qualified(n)), nil
}

func qualified(n *types.Named) string {
	if n.Obj().Pkg() == nil {
		return n.Obj().Name()
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// definitionMethods tells which of openapi-gen's definition methods a type has.
type definitionMethods struct {
	v2, v2TypeFormat, v3, v3OneOf bool
}

func methodsOf(n *types.Named) definitionMethods {
	def := commonPkg + ".OpenAPIDefinition"
	return definitionMethods{
		v2:           method(n, "OpenAPIDefinition", def),
		v2TypeFormat: method(n, "OpenAPISchemaType", "[]string") && method(n, "OpenAPISchemaFormat", "string"),
		v3:           method(n, "OpenAPIV3Definition", def),
		v3OneOf:      method(n, "OpenAPIV3OneOfTypes", "[]string"),
	}
}

// call writes t's entry of GetOpenAPIDefinitions.
func (w *writer) call(t *wireshape.Type) {
	n := t.Obj.Type().(*types.Named)
	k, err := w.key(n)
	if err != nil {
		k = fmt.Sprintf("%q", qualified(n)) // reported by definition
	}
	w.p("%s: ", k)
	id := func() string { return w.ident(n) }
	switch ms := methodsOf(n); {
	case ms.v2TypeFormat:
		w.p("%s(ref),\n", schemaFunc(t.Pkg.Path, t.Name))
	case ms.v2 && ms.v3:
		w.p("%s(%s{}.OpenAPIV3Definition(), %s{}.OpenAPIDefinition()),\n", w.f.Ref(commonPkg, "EmbedOpenAPIDefinitionIntoV2Extension"), id(), id())
	case ms.v2:
		w.p("%s{}.OpenAPIDefinition(),\n", id())
	case ms.v3:
		w.p("%s{}.OpenAPIV3Definition(),\n", id())
	default:
		w.p("%s(ref),\n", schemaFunc(t.Pkg.Path, t.Name))
	}
}

// definition writes t's schema function, unless a method of t gives its definition.
func (w *writer) definition(t *wireshape.Type) error {
	n := t.Obj.Type().(*types.Named)
	if _, err := w.key(n); err != nil {
		return err
	}
	if err := checkUnsupported(t.Pos.String(), t.Comments); err != nil {
		return err
	}
	ms := methodsOf(n)
	if ms.v2 || ms.v3 && !ms.v2TypeFormat {
		return nil
	}
	if ms.v3OneOf && !ms.v2TypeFormat {
		return fmt.Errorf("%s: type %q has v3 one of types but not v2 type or format", t.Pos, qualified(n))
	}
	def := w.f.Ref(commonPkg, "OpenAPIDefinition")
	w.p("func %s(ref %s) %s {\n", schemaFunc(t.Pkg.Path, t.Name), w.f.Ref(commonPkg, "ReferenceCallback"), def)
	if !ms.v2TypeFormat {
		return w.object(t, n, def)
	}
	id := w.ident(n)
	typeFormat := func(first string) {
		w.p("%s{\nSchema: §.Schema{\nSchemaProps: §.SchemaProps{\n", def)
		w.description(t.Comments)
		w.p("%s\nFormat:%s{}.OpenAPISchemaFormat(),\n},\n", first, id)
		w.extensions(t.Comments)
		w.p("},\n")
	}
	embed := w.f.Ref(commonPkg, "EmbedOpenAPIDefinitionIntoV2Extension")
	switch {
	case ms.v2TypeFormat && ms.v3:
		w.p("return %s(%s{}.OpenAPIV3Definition(), ", embed, id)
		typeFormat("Type:" + id + "{}.OpenAPISchemaType(),")
		w.p("})\n}\n\n")
		return nil
	case ms.v2TypeFormat && ms.v3OneOf:
		w.p("return %s(", embed)
		typeFormat("OneOf:" + w.f.Ref(commonPkg, "GenerateOpenAPIV3OneOfSchema") + "(" + id + "{}.OpenAPIV3OneOfTypes()),")
		w.p("},")
		typeFormat("Type:" + id + "{}.OpenAPISchemaType(),")
		w.p("})\n}\n\n")
		return nil
	}
	w.p("return ")
	typeFormat("Type:" + id + "{}.OpenAPISchemaType(),")
	w.p("}\n}\n\n")
	return nil
}

// object writes the body of the schema function of struct type t (named n): its properties, required
// ones, extensions and dependencies.
func (w *writer) object(t *wireshape.Type, n *types.Named, def string) error {
	w.p("return %s{\nSchema: §.Schema{\nSchemaProps: §.SchemaProps{\n", def)
	w.description(t.Comments)
	w.p("Type: []string{\"object\"},\n")
	w.refs = map[string]*types.Named{}
	outer := w.b
	w.b = strings.Builder{}
	required, err := w.members(t.Fields, n, nil)
	props := w.b.String()
	w.b = outer
	if err != nil {
		return err
	}
	if props != "" {
		w.p("Properties: map[string]§.Schema{\n%s},\n", props)
	}
	if len(required) > 0 {
		w.p("Required: []string{\"%s\"},\n", strings.Join(required, "\",\""))
	}
	w.p("},\n")
	w.extensions(t.Comments)
	w.p("},\n")
	var deps []string
	for k := range w.refs {
		deps = append(deps, k)
	}
	sort.Strings(deps)
	var depRefs []string
	for _, k := range deps {
		if tf, _ := typeFormat(k); tf != "" {
			continue
		}
		ref, err := w.key(w.refs[k])
		if err != nil {
			return err
		}
		depRefs = append(depRefs, ref+",")
	}
	if len(depRefs) > 0 {
		w.p("Dependencies: []string{\n%s},\n", strings.Join(depRefs, ""))
	}
	w.p("}\n}\n\n")
	return nil
}

// members writes the properties of fields (the fields of owner), inline members in place and each
// name once, as encoding/json resolves them, and returns required extended by the required properties.
func (w *writer) members(fields []*wireshape.Field, owner *types.Named, required []string) ([]string, error) {
	skip := func(f *wireshape.Field) bool { return contains(wireshape.Tags(f.Comments)[tagOpenAPIGen], "false") }
	props, err := w.g.m.Properties(fields, skip, referableName)
	if err != nil {
		return nil, err
	}
	for _, p := range props {
		opt, err := p.Field.Optional()
		if err != nil {
			return nil, err
		}
		if !opt {
			required = append(required, p.Name)
		}
		if err := w.property(p.Field, p.Name, owner); err != nil {
			return nil, err
		}
	}
	return required, nil
}

// referableName is the property name openapi-gen gives a field: its json name, its Go name without a
// json tag, "" for json:"-".
func referableName(f *wireshape.Field) string {
	raw := reflect.StructTag(f.Tag).Get("json")
	if raw == "" {
		return f.Name
	}
	name, _, _ := strings.Cut(raw, ",")
	if name == "-" {
		return ""
	}
	return name
}

var patchTags = []string{"patchMergeKey", "patchStrategy"}

func (w *writer) property(f *wireshape.Field, name string, owner *types.Named) error {
	if err := checkUnsupported(f.Pos.String(), f.Comments); err != nil {
		return err
	}
	tags := wireshape.Tags(f.Comments)
	for _, pt := range patchTags {
		if len(tags[pt]) > 1 {
			return fmt.Errorf("%s: multiple values are not allowed for tag %s", f.Pos, pt)
		}
		var comment string
		if len(tags[pt]) == 1 {
			comment = tags[pt][0]
		}
		if reflect.StructTag(f.Tag).Get(pt) != comment {
			return fmt.Errorf("%s: tags in comment and struct should match for member (%s) of (%s)", f.Pos, f.Name, qualified(owner))
		}
	}
	w.p("%q: {\n", name)
	w.extensions(f.Comments)
	w.p("SchemaProps: §.SchemaProps{\n")
	comments := f.Comments
	enum := w.g.enumOf(f.Type)
	if enum != nil {
		comments = append(append([]string{}, comments...), enum.descriptionLines()...)
	}
	w.description(comments)
	if opts := strings.Split(reflect.StructTag(f.Tag).Get("json"), ","); len(opts) > 1 && opts[1] == "string" {
		w.simple("string", "")
		w.p("},\n},\n")
		return nil
	}
	if err := w.defaultValue(f, owner); err != nil {
		return err
	}
	if err := w.schemaOf(f.Type, enum, fmt.Sprintf("%s: %s", f.Pos, f.Name)); err != nil {
		return err
	}
	w.p("},\n},\n")
	return nil
}

// schemaOf writes the type part of a property of type t (enum, when not nil, is t's enum).
func (w *writer) schemaOf(t types.Type, enum *enum, where string) error {
	r := resolve(t)
	if tf, format := typeFormat(typeName(r)); tf != "" {
		w.simple(tf, format)
		if enum != nil {
			w.p("Enum: []interface{}{%s},\n", strings.Join(enum.valueStrings(), ", "))
		}
		return nil
	}
	switch u := r.(type) {
	case *types.Basic:
		return fmt.Errorf("%s: type %s has no OpenAPI type", where, u)
	case *types.Map:
		key := resolve(u.Key())
		if b, ok := key.(*types.Basic); !ok || b.Name() != "string" {
			return fmt.Errorf("%s: map with non-string keys are not supported by OpenAPI in %s", where, t)
		}
		w.p("Type: []string{\"object\"},\nAdditionalProperties: &§.SchemaOrBool{\nAllows: true,\nSchema: &§.Schema{\nSchemaProps: §.SchemaProps{\n")
		if err := w.schemaOf(u.Elem(), w.g.enumOf(u.Elem()), where); err != nil {
			return err
		}
		w.p("},\n},\n},\n")
	case *types.Slice, *types.Array:
		elem := u.(interface{ Elem() types.Type }).Elem()
		w.p("Type: []string{\"array\"},\nItems: &§.SchemaOrArray{\nSchema: &§.Schema{\nSchemaProps: §.SchemaProps{\n")
		if err := w.schemaOf(elem, w.g.enumOf(elem), where); err != nil {
			return err
		}
		w.p("},\n},\n},\n")
	case *types.Named:
		if _, ok := u.Underlying().(*types.Interface); ok {
			return nil // interfaces get no definition to refer to
		}
		w.refs[qualified(u)] = u
		k, err := w.key(u)
		if err != nil {
			return err
		}
		w.p("Ref: ref(%s),\n", k)
	case *types.Interface:
	default:
		return fmt.Errorf("%s: cannot generate spec for type %s", where, t)
	}
	return nil
}

// resolve strips pointers and named non-struct, non-interface types.
func resolve(t types.Type) types.Type {
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Named:
			switch u.Underlying().(type) {
			case *types.Struct, *types.Interface:
				return u
			}
			t = u.Underlying()
			continue
		default:
			return u
		}
	}
}

// typeName is the name openapi-gen looks a resolved type up by in its type/format table.
func typeName(t types.Type) string {
	switch u := t.(type) {
	case *types.Basic:
		return u.Name()
	case *types.Named:
		return qualified(u)
	case *types.Slice:
		if b, ok := types.Unalias(u.Elem()).(*types.Basic); ok && b.Name() == "byte" {
			return "[]byte"
		}
	case *types.Interface:
		if u.Empty() {
			return "interface{}"
		}
	}
	return ""
}

func (w *writer) simple(typ, format string) {
	w.p("Type: []string{%q},\nFormat: %q,\n", typ, format)
}

// description writes the Description of comment lines as openapi-gen derives it.
func (w *writer) description(lines []string) {
	var b strings.Builder
	dropLast := func() {
		if s := b.String(); len(s) > 0 {
			b.Reset()
			b.WriteString(s[:len(s)-1])
		}
	}
	for _, line := range lines {
		if line == "---" {
			break
		}
		line = strings.TrimRight(line, " ")
		leading := strings.TrimLeft(line, " ")
		switch {
		case line == "":
			dropLast()
			b.WriteString("\n\n")
		case strings.HasPrefix(leading, "TODO"), strings.HasPrefix(leading, "+"):
		case strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"):
			dropLast()
			b.WriteString("\n" + line + "\n")
		default:
			b.WriteString(line + " ")
		}
	}
	if doc := strings.TrimSpace(b.String()); doc != "" {
		w.p("Description: %#v,\n", doc)
	}
}

// extensionTags are the comment tags openapi-gen turns into vendor extensions, with their extension
// names and whether a single value is still written as a list.
var extensionTags = map[string]struct {
	name   string
	always bool
}{
	"patchMergeKey": {"x-kubernetes-patch-merge-key", false},
	"patchStrategy": {"x-kubernetes-patch-strategy", false},
	"listMapKey":    {"x-kubernetes-list-map-keys", true},
	"listType":      {"x-kubernetes-list-type", false},
	"mapType":       {"x-kubernetes-map-type", false},
	"structType":    {"x-kubernetes-map-type", false},
	"validations":   {"x-kubernetes-validations", false},
}

// extensions writes the VendorExtensible block of comment lines, if they give any extension.
func (w *writer) extensions(lines []string) {
	type ext struct {
		name   string
		values []string
		list   bool
	}
	var exts []ext
	tags := wireshape.Tags(lines)
	for _, v := range tags[tagOpenAPIGen] {
		if !strings.HasPrefix(v, "x-kubernetes-") {
			continue
		}
		if name, val, ok := strings.Cut(v, ":"); ok {
			exts = append(exts, ext{name: name, values: []string{val}})
		}
	}
	var names []string
	for k := range tags {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if x, ok := extensionTags[k]; ok {
			exts = append(exts, ext{name: x.name, values: tags[k], list: x.always || len(tags[k]) > 1})
		}
	}
	if len(exts) == 0 {
		return
	}
	w.p("VendorExtensible: §.VendorExtensible{\nExtensions: §.Extensions{\n")
	for _, e := range exts {
		w.p("%q: ", e.name)
		if e.list {
			w.p("[]interface{}{\n")
		}
		for _, v := range e.values {
			w.p("\"%s\",\n", v)
		}
		if e.list {
			w.p("},\n")
		}
	}
	w.p("},\n},\n")
}

// unsupportedTags are openapi-gen tags kgen does not project yet: a type or field carrying one is an
// error rather than a definition that silently lacks it.
var unsupportedTags = []string{"union", "unionDiscriminator", "unionDeprecated"}

func checkUnsupported(pos string, lines []string) error {
	tags := wireshape.Tags(lines)
	for _, u := range unsupportedTags {
		if _, ok := tags[u]; ok {
			return fmt.Errorf("%s: +%s: unions are not supported by kgen's openapi-gen yet", pos, u)
		}
	}
	for k := range tags {
		if strings.HasPrefix(k, "k8s:validation:") {
			return fmt.Errorf("%s: +%s: +k8s:validation: markers are not supported by kgen's openapi-gen yet", pos, k)
		}
	}
	return nil
}

var refPattern = regexp.MustCompile(`^ref\(([^"]+)\)$`)

// defaultValue writes the Default of field f: its +default (or its type's), or the zero value openapi-gen
// enforces for non-pointer, non-omitempty fields.
func (w *writer) defaultValue(f *wireshape.Field, owner *types.Named) error {
	lines, pkg, t := f.Comments, owner.Obj().Pkg().Path(), f.Type
	var tag string
	for {
		vals := wireshape.Tags(lines)["default"]
		if len(vals) > 1 {
			return fmt.Errorf("%s: multiple values are not allowed for tag default", f.Pos)
		}
		if len(vals) == 1 {
			tag = vals[0]
		}
		if t == nil || tag != "" {
			break
		}
		lines = w.g.m.Comments(t)
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
			pkg = n.Obj().Pkg().Path()
		}
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Named:
			if isAlias(u) {
				t = u.Underlying()
			} else {
				t = nil
			}
		default:
			t = nil
		}
	}
	var def any
	var ref string
	if tag != "" {
		if m := refPattern.FindStringSubmatch(tag); m != nil {
			p, name := pkg, m[1]
			if i := strings.LastIndex(m[1], "."); i >= 0 {
				p, name = m[1][:i], m[1][i+1:]
			}
			ref = w.f.Ref(p, name)
		} else if err := json.Unmarshal([]byte(tag), &def); err != nil {
			return fmt.Errorf("%s: +default=%s: failed to unmarshal default: %v", f.Pos, tag, err)
		}
	}
	enforced, err := w.g.enforcedDefault(f.Type, f.OmitEmpty())
	if err != nil {
		return fmt.Errorf("%s: %s: %w", f.Pos, f.Name, err)
	}
	if enforced != nil {
		if def == nil {
			def = enforced
		} else if !reflect.DeepEqual(def, enforced) {
			want, _ := json.Marshal(enforced)
			return fmt.Errorf("%s: %s: invalid default value (%#v) for non-pointer/non-omitempty. If specified, must be: %s", f.Pos, f.Name, def, want)
		}
	}
	switch {
	case def != nil:
		w.p("Default: %#v,\n", def)
	case ref != "":
		w.p("Default: %s,\n", ref)
	}
	return nil
}

// isAlias tells a named type openapi-gen treats as an alias of its underlying type: neither a struct
// nor an interface.
func isAlias(n *types.Named) bool {
	switch n.Underlying().(type) {
	case *types.Struct, *types.Interface:
		return false
	}
	return true
}

// enforcedDefault is the default openapi-gen requires of a field of type t: the zero value of a
// non-omitempty builtin, {} for a struct without custom unmarshalling, nothing otherwise.
func (g *generator) enforcedDefault(t types.Type, omitEmpty bool) (any, error) {
	t = types.Unalias(t)
	if g.unmarshalsItself(t) {
		return nil, nil
	}
	switch u := t.(type) {
	case *types.Named:
		if isAlias(u) {
			return g.enforcedDefault(u.Underlying(), omitEmpty)
		}
		if _, ok := u.Underlying().(*types.Interface); ok {
			return nil, nil
		}
		return g.enforcedDefault(u.Underlying(), omitEmpty)
	case *types.Pointer, *types.Map, *types.Slice, *types.Array, *types.Interface:
		return nil, nil
	case *types.Struct:
		if u.NumFields() == 1 && u.Field(0).Embedded() {
			return g.enforcedDefault(u.Field(0).Type(), omitEmpty)
		}
		return map[string]interface{}{}, nil
	case *types.Basic:
		if omitEmpty {
			return nil, nil
		}
		if zero, ok := zeroValue(u.Name()); ok {
			return zero, nil
		}
		return nil, fmt.Errorf("type %s has no OpenAPI zero value", u)
	}
	return nil, fmt.Errorf("not sure how to enforce default for %s", t)
}

// unmarshalsItself tells a struct type with an UnmarshalJSON method, or a pointer to a type whose
// pointer has one.
func (g *generator) unmarshalsItself(t types.Type) bool {
	hasMethod := func(n *types.Named, ptrOnly bool) bool {
		for i := 0; i < n.NumMethods(); i++ {
			fn := n.Method(i)
			if fn.Name() != "UnmarshalJSON" || !g.prog.HandWritten(fn) {
				continue
			}
			_, ptr := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer)
			return ptr || !ptrOnly
		}
		return false
	}
	switch u := t.(type) {
	case *types.Pointer:
		n, ok := types.Unalias(u.Elem()).(*types.Named)
		return ok && hasMethod(n, true)
	case *types.Named:
		_, isStruct := u.Underlying().(*types.Struct)
		return isStruct && hasMethod(u, false)
	}
	return false
}

// scalar is how OpenAPI spells a Go type openapi-gen maps directly, and its zero value.
type scalar struct {
	typ, format string
	zero        any
}

// scalars are the Go types (by the names typeName gives) openapi-gen writes as OpenAPI types with
// formats, as kube-openapi's common package lists them.
var scalars = map[string]scalar{
	"uint": {"integer", "int32", 0.}, "uint8": {"integer", "byte", 0.}, "uint16": {"integer", "int32", 0.},
	"uint32": {"integer", "int64", 0.}, "uint64": {"integer", "int64", 0.},
	"int": {"integer", "int32", 0.}, "int8": {"integer", "byte", 0.}, "int16": {"integer", "int32", 0.},
	"int32": {"integer", "int32", 0.}, "int64": {"integer", "int64", 0.}, "byte": {"integer", "byte", 0},
	"float64": {"number", "double", 0.}, "float32": {"number", "float", 0.},
	"bool": {"boolean", "", false}, "string": {"string", "", ""}, "time.Time": {"string", "date-time", ""},
	"integer": {"integer", "", 0.}, "number": {"number", "", 0.}, "boolean": {"boolean", "", false},
	"[]byte": {"string", "byte", ""}, "interface{}": {"object", "", nil},
}

// typeFormat returns the OpenAPI type and format of the Go type called name, or "" if it has none.
func typeFormat(name string) (string, string) {
	s, ok := scalars[name]
	if !ok {
		return "", ""
	}
	return s.typ, s.format
}

// zeroValue returns the JSON zero value of the Go type called name, if it has an OpenAPI type.
func zeroValue(name string) (any, bool) {
	s, ok := scalars[name]
	return s.zero, ok
}
