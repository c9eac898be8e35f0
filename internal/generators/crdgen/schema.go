package crdgen

import (
	"fmt"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/celcheck"
	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/markers"
)

// schema is one OpenAPI v3 schema node of a CRD, as the JSON object apiextensions.k8s.io/v1's
// JSONSchemaProps encodes to: "properties" maps names to schemas, "items" and "additionalProperties"
// hold schemas, "required" is a sorted []string.
type schema = map[string]any

// Packages of the types with a fixed schema.
const (
	metaPkg     = "k8s.io/apimachinery/pkg/apis/meta/v1"
	resourcePkg = "k8s.io/apimachinery/pkg/api/resource"
	intstrPkg   = "k8s.io/apimachinery/pkg/util/intstr"
	runtimePkg  = "k8s.io/apimachinery/pkg/runtime"
)

const quantityPattern = `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`

// embeddedObjectMeta is the schema of an ObjectMeta below a kind's root with Config.GenerateEmbeddedObjectMeta:
// the fields a template's metadata may set (name, namespace, labels, annotations, finalizers), as
// controller-gen gives it, and nothing the server fills in.
func embeddedObjectMeta() schema {
	stringMap := func() schema { return schema{"type": "object", "additionalProperties": schema{"type": "string"}} }
	return schema{"type": "object", "properties": schema{
		"name":        schema{"type": "string"},
		"namespace":   schema{"type": "string"},
		"labels":      stringMap(),
		"annotations": stringMap(),
		"finalizers":  schema{"type": "array", "items": schema{"type": "string"}},
	}}
}

// knownSchema returns the fixed schema of the API machinery types whose JSON form is not their Go
// structure (they marshal themselves), as controller-gen and the API server's own OpenAPI give them.
func knownSchema(pkg, name string) (schema, bool) {
	intOrString := func() schema {
		return schema{"anyOf": []any{schema{"type": "integer"}, schema{"type": "string"}}, "x-kubernetes-int-or-string": true}
	}
	switch pkg + "." + name {
	case metaPkg + ".ObjectMeta":
		return schema{"type": "object"}, true
	case metaPkg + ".Time", metaPkg + ".MicroTime":
		return schema{"type": "string", "format": "date-time"}, true
	case metaPkg + ".Duration":
		return schema{"type": "string"}, true
	case metaPkg + ".Fields":
		return schema{"type": "object", "additionalProperties": true}, true
	case resourcePkg + ".Quantity":
		s := intOrString()
		s["pattern"] = quantityPattern
		return s, true
	case intstrPkg + ".IntOrString":
		return intOrString(), true
	case runtimePkg + ".RawExtension":
		return schema{"type": "object", "x-kubernetes-preserve-unknown-fields": true}, true
	case metaPkg + "/unstructured.Unstructured":
		return schema{"type": "object"}, true
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON",
		"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.JSON":
		return schema{"x-kubernetes-preserve-unknown-fields": true}, true
	case "time.Duration":
		return schema{"type": "integer", "format": "int64"}, true
	}
	return nil, false
}

// walker derives schemas from type-checked Go types and their comments.
type walker struct {
	src *sourceIndex
	// allowFloats accepts float32 and float64 fields (Config.AllowDangerousTypes); objectMetaFields gives
	// ObjectMeta below the root its fields (Config.GenerateEmbeddedObjectMeta).
	allowFloats, objectMetaFields bool
	// named caches the schema of each named type (with its own markers and description). The schemas are
	// shared by every use, read-only: a use refines its type's schema into a new node (mergeLayers), so
	// a finished schema tree shares its named types' subtrees with the other CRDs and versions using
	// them, and nothing changes a node once a tree holds it.
	named map[*types.TypeName]schema
	// active holds the named types being walked, to report recursion.
	active map[*types.TypeName]bool
	// optionalByDefault records input packages whose fields are optional unless marked required.
	optionalByDefault map[string]bool
	// inputs are the import paths of the input packages, whose markers are read strictly.
	inputs map[string]bool
	// compiled records the schema nodes whose CEL rules compiled (see celcheck.Compile).
	compiled *celcheck.Record
}

// typeSchema returns the schema of a value of type t; pos names where it is used, for errors. A named
// type's schema, here or below, is the shared one: read-only.
func (w *walker) typeSchema(t types.Type, pos string) (schema, error) {
	switch t := types.Unalias(t).(type) {
	case *types.Pointer:
		return w.typeSchema(t.Elem(), pos)
	case *types.Named:
		return w.namedSchema(t, pos)
	case *types.Basic:
		return basicSchema(t, pos, w.allowFloats)
	case *types.Slice:
		if b, ok := types.Unalias(t.Elem()).(*types.Basic); ok && b.Kind() == types.Byte {
			return schema{"type": "string", "format": "byte"}, nil
		}
		items, err := w.typeSchema(t.Elem(), pos)
		if err != nil {
			return nil, err
		}
		return schema{"type": "array", "items": items}, nil
	case *types.Array:
		items, err := w.typeSchema(t.Elem(), pos)
		if err != nil {
			return nil, err
		}
		return schema{"type": "array", "items": items}, nil
	case *types.Map:
		if !stringKey(t.Key()) {
			return nil, fmt.Errorf("%s: map keys must be strings or implement encoding.TextMarshaler, not %s", pos, t.Key())
		}
		v, err := w.typeSchema(t.Elem(), pos)
		if err != nil {
			return nil, err
		}
		return schema{"type": "object", "additionalProperties": v}, nil
	case *types.Struct:
		return nil, fmt.Errorf("%s: anonymous struct types are not supported in CRD schemas; declare a named type", pos)
	case *types.Interface:
		return nil, fmt.Errorf("%s: interface types are not supported in CRD schemas; use apiextensionsv1.JSON or runtime.RawExtension with +kubebuilder:pruning:PreserveUnknownFields", pos)
	}
	return nil, fmt.Errorf("%s: type %s is not supported in CRD schemas", pos, t)
}

func basicSchema(t *types.Basic, pos string, allowFloats bool) (schema, error) {
	switch t.Kind() {
	case types.String:
		return schema{"type": "string"}, nil
	case types.Bool:
		return schema{"type": "boolean"}, nil
	case types.Int, types.Int8, types.Int16, types.Uint, types.Uint8, types.Uint16, types.Uintptr:
		return schema{"type": "integer"}, nil
	case types.Int32, types.Uint32:
		return schema{"type": "integer", "format": "int32"}, nil
	case types.Int64, types.Uint64:
		return schema{"type": "integer", "format": "int64"}, nil
	case types.Float32, types.Float64:
		if allowFloats {
			return schema{"type": "number"}, nil
		}
		return nil, fmt.Errorf("%s: floating-point fields are not portable across languages and are not supported in CRD schemas; use resource.Quantity, an integer or a string (or accept them with crd-gen's --allow-dangerous-types, kgen generate's --crd-allow-dangerous-types)", pos)
	}
	return nil, fmt.Errorf("%s: type %s is not supported in CRD schemas", pos, t)
}

func stringKey(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		return true
	}
	return hasMethod(t, "MarshalText")
}

// hasMethod reports whether t or *t has the method.
func hasMethod(t types.Type, name string) bool {
	has, _ := hasMethods(t, name, "")
	return has
}

// hasMethods reports whether t or *t has the method a and the method b, from one method set.
func hasMethods(t types.Type, a, b string) (hasA, hasB bool) {
	if _, isPtr := t.(*types.Pointer); !isPtr {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		switch ms.At(i).Obj().Name() {
		case a:
			hasA = true
		case b:
			hasB = true
		}
	}
	return hasA, hasB
}

// namedSchema returns the cached schema of a named type: its underlying schema, its markers and its
// doc as description.
func (w *walker) namedSchema(n *types.Named, pos string) (schema, error) {
	obj := n.Obj()
	if s, ok := w.named[obj]; ok {
		return s, nil
	}
	pkg := ""
	if obj.Pkg() != nil {
		pkg = obj.Pkg().Path()
	}
	if pkg+"."+obj.Name() == metaPkg+".ObjectMeta" && w.objectMetaFields {
		s := embeddedObjectMeta()
		w.named[obj] = s
		return s, nil
	}
	if s, ok := knownSchema(pkg, obj.Name()); ok {
		w.named[obj] = s
		return s, nil
	}
	if n.TypeArgs().Len() > 0 || n.TypeParams().Len() > 0 {
		return nil, fmt.Errorf("%s: generic type %s is not supported in CRD schemas", pos, n)
	}
	if w.active[obj] {
		return nil, fmt.Errorf("%s: type %s.%s refers to itself; recursive types cannot be expressed in a CRD schema", pos, pkg, obj.Name())
	}
	w.active[obj] = true
	defer delete(w.active, obj)

	c, _, err := w.src.typeComments(obj)
	if err != nil {
		return nil, err
	}
	declPos := markers.Position(w.src.prog.Fset.Position(obj.Pos()))
	ms, err := parseMarkers(c.tags, markers.OnType, w.inputs[pkg])
	if err != nil {
		return nil, err
	}
	var s schema
	marshalJSON, marshalText := hasMethods(n, "MarshalJSON", "MarshalText")
	switch {
	case marshalJSON && typeMarkerSet(ms):
		// The type writes its own JSON; its markers say what that is.
		s = schema{}
	case marshalText && !marshalJSON:
		s = schema{"type": "string"}
	case w.src.definedFrom(obj) != nil:
		// type A B: B's schema, markers and description, refined by A's.
		from := types.Unalias(w.src.definedFrom(obj).Type()).(*types.Named)
		base, err := w.namedSchema(from, declPos)
		if err != nil {
			return nil, err
		}
		s = maps.Clone(base) // the node is refined in place below; what is under it stays shared
	default:
		if st, ok := n.Underlying().(*types.Struct); ok {
			s, err = w.structSchema(st, pkg, declPos)
		} else {
			// A new node but for a pointer to a named type, whose shared node it is.
			s, err = w.typeSchema(n.Underlying(), declPos)
			s = maps.Clone(s)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := w.applyTypeMarkers(s, ms, n, obj.Pkg(), declPos); err != nil {
		return nil, err
	}
	if d := description(c.doc); d != "" {
		s["description"] = d
	}
	w.named[obj] = s
	return s, nil
}

func typeMarkerSet(ms []*markers.Marker) bool {
	return slices.ContainsFunc(ms, func(m *markers.Marker) bool { return m.Name() == "kubebuilder:validation:Type" })
}

// jsonField is a struct field's json tag.
type jsonField struct {
	name                        string
	inline, omitempty, omitzero bool
	skip                        bool
}

func parseJSONTag(tag string, embedded bool) (jsonField, bool) {
	v, ok := reflect.StructTag(tag).Lookup("json")
	if !ok {
		return jsonField{inline: embedded}, embedded
	}
	if v == "-" {
		return jsonField{skip: true}, true
	}
	parts := strings.Split(v, ",")
	f := jsonField{name: parts[0]}
	for _, o := range parts[1:] {
		switch o {
		case "inline":
			f.inline = true
		case "omitempty":
			f.omitempty = true
		case "omitzero":
			f.omitzero = true
		}
	}
	if f.name == "" && embedded {
		f.inline = true
	}
	return f, true
}

// structSchema returns the object schema of a struct type declared in package pkg.
func (w *walker) structSchema(st *types.Struct, pkg, declPos string) (schema, error) {
	props := schema{}
	var required []string
	var rules []any
	s := schema{"type": "object"}
	for i := range st.NumFields() {
		f := st.Field(i)
		fpos := markers.Position(w.src.prog.Fset.Position(f.Pos()))
		tag, tagged := parseJSONTag(st.Tag(i), f.Embedded())
		if tag.skip {
			continue
		}
		if !f.Exported() && !f.Embedded() {
			// encoding/json never reads or writes unexported fields.
			continue
		}
		if !tagged {
			return nil, fmt.Errorf("%s: field %s has no json tag; CRD schemas name fields by their json tags", fpos, f.Name())
		}
		c, err := w.src.fieldComments(f)
		if err != nil {
			return nil, err
		}
		ms, err := parseMarkers(c.tags, markers.OnField, w.inputs[pkg])
		if err != nil {
			return nil, err
		}
		if tag.inline || tag.name == "" {
			inner, err := w.typeSchema(f.Type(), fpos)
			if err != nil {
				return nil, err
			}
			if inner["type"] != "object" {
				return nil, fmt.Errorf("%s: inline field %s must be a struct", fpos, f.Name())
			}
			innerProps, _ := inner["properties"].(schema)
			for k, v := range innerProps {
				if _, dup := props[k]; !dup {
					props[k] = v
				}
			}
			if r, ok := inner["required"].([]string); ok {
				required = append(required, r...)
			}
			if r, ok := inner["x-kubernetes-validations"].([]any); ok {
				rules = append(rules, r...)
			}
			flattenInline(s, inner)
			continue
		}
		fs, err := w.fieldSchema(f, ms, c.doc, fpos)
		if err != nil {
			return nil, err
		}
		props[tag.name] = fs
		req, err := w.isRequired(ms, tag, pkg)
		if err != nil {
			return nil, err
		}
		if req {
			required = append(required, tag.name)
		}
		rules = append(rules, immutableOnceSet(ms, tag.name, req)...)
	}
	if len(props) > 0 {
		s["properties"] = props
	}
	if len(required) > 0 {
		sort.Strings(required)
		required = slices.Compact(required)
		s["required"] = required
	}
	if len(rules) > 0 {
		s["x-kubernetes-validations"] = rules
	}
	return s, nil
}

// flattenInline gives s, the schema of a struct, the values of an inline member's schema inner other than
// its fields, rules, type and documentation (which structSchema merges itself), as controller-gen's
// flattening of embedded types does: a +structType=atomic type embedded inline makes the embedding type
// atomic. A value s lacks is copied; the list and map topology and preserve-unknown-fields of the member
// win; two different values of any other key are both kept, under allOf.
func flattenInline(s, inner schema) {
	var mine, theirs schema
	for _, k := range slices.Sorted(maps.Keys(inner)) {
		v := inner[k]
		switch k {
		case "properties", "required", "x-kubernetes-validations", "type", "description", "title", "example", "externalDocs":
			continue
		}
		old, ok := s[k]
		switch {
		case !ok:
			s[k] = v
		case reflect.DeepEqual(old, v):
		case k == "allOf":
			s[k] = append(slices.Clip(old.([]any)), v.([]any)...)
		case k == "x-kubernetes-map-type", k == "x-kubernetes-list-type", k == "x-kubernetes-list-map-keys",
			k == "x-kubernetes-preserve-unknown-fields", strings.HasPrefix(k, "\x00"):
			s[k] = v
		default:
			if mine == nil {
				mine, theirs = schema{}, schema{}
			}
			mine[k], theirs[k] = old, v
			delete(s, k)
		}
	}
	if mine != nil {
		all, _ := s["allOf"].([]any)
		s["allOf"] = append(slices.Clip(all), mine, theirs)
	}
}

// isRequired decides a field's requiredness: kubebuilder's explicit markers first, then +optional and
// +required (and their +k8s: forms), then the package default: optional under a package-level
// +kubebuilder:validation:Optional, else required unless the json tag has omitempty or omitzero.
func (w *walker) isRequired(ms []*markers.Marker, tag jsonField, pkg string) (bool, error) {
	var opt, req *markers.Marker
	for _, m := range ms {
		switch m.Name() {
		case "kubebuilder:validation:Optional":
			return false, nil
		case "kubebuilder:validation:Required":
			return true, nil
		case "optional", "k8s:optional":
			opt = m
		case "required", "k8s:required":
			req = m
		}
	}
	switch {
	case opt != nil && req != nil:
		return false, req.Errorf("contradicts %s at %s", opt.Text, opt.Pos)
	case opt != nil:
		return false, nil
	case req != nil:
		return true, nil
	case w.optionalByDefault[pkg]:
		return false, nil
	}
	return !tag.omitempty && !tag.omitzero, nil
}

// immutableOnceSet returns the parent-level rule of +k8s:immutable on an optional field: once set, it
// stays set.
func immutableOnceSet(ms []*markers.Marker, name string, required bool) []any {
	if required || !slices.ContainsFunc(ms, func(m *markers.Marker) bool { return m.Name() == "k8s:immutable" }) {
		return nil
	}
	return []any{schema{
		"rule":    fmt.Sprintf("!has(oldSelf.%s) || has(self.%s)", name, name),
		"message": fmt.Sprintf("field %s is immutable once set", name),
	}}
}

// fieldSchema is the schema of a struct field: its type's schema with the field's markers and doc.
func (w *walker) fieldSchema(f *types.Var, ms []*markers.Marker, doc []string, pos string) (schema, error) {
	var base schema
	if slices.ContainsFunc(ms, func(m *markers.Marker) bool { return m.Name() == "kubebuilder:validation:Schemaless" }) {
		// No schema from the type: the field's markers alone say what the value is.
		base = schema{}
	} else {
		var err error
		if base, err = w.typeSchema(f.Type(), pos); err != nil {
			return nil, err
		}
	}
	field, err := w.layer(base, ms, nil, f.Pkg(), pos)
	if err != nil {
		return nil, err
	}
	out, err := mergeLayers(base, field, pos)
	if err != nil {
		return nil, err
	}
	if d := description(doc); d != "" {
		out["description"] = d
	}
	if err := checkSchema(out, ms); err != nil {
		return nil, err
	}
	return out, nil
}
