package applyconfigurationgen

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/kgen-dev/kgen/internal/generators/wireshape"
)

// Names of the two untyped definitions every schema ends with, as kube-openapi's schemaconv emits them.
const (
	untypedAtomic  = "__untyped_atomic_"
	untypedDeduced = "__untyped_deduced_"
)

// schemaBuilder derives the structured-merge-diff schema of Go API types from their declarations:
// json tags name the fields, +listType/+listMapKey/+mapType/+structType and patchStrategy/patchMergeKey
// struct tags choose merge semantics, and types declaring OpenAPISchemaType/OpenAPISchemaFormat (Time,
// Quantity, IntOrString, ...) become scalars, as openapi-gen and schemaconv together produce them.
type schemaBuilder struct {
	u    *universe
	defs map[string]*schema.TypeDef
}

func newSchemaBuilder(u *universe) *schemaBuilder {
	return &schemaBuilder{u: u, defs: map[string]*schema.TypeDef{}}
}

// openAPIName is the REST-friendly definition name of a Go type: the first path element's dots
// reversed, slashes turned into dots ("k8s.io/api/apps/v1.Deployment" is "io.k8s.api.apps.v1.Deployment").
func openAPIName(pkg, name string) string {
	first, rest, _ := strings.Cut(pkg, "/")
	labels := strings.Split(first, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	out := strings.Join(labels, ".")
	if rest != "" {
		out += "." + strings.ReplaceAll(rest, "/", ".")
	}
	return out + "." + name
}

// addNamed adds the definition of the named type t (and of every type it refers to) and returns its name.
func (s *schemaBuilder) addNamed(t *goType) (string, error) {
	name := openAPIName(t.pkg, t.name)
	if _, ok := s.defs[name]; ok {
		return name, nil
	}
	def := &schema.TypeDef{Name: name}
	s.defs[name] = def // before recursing, so self-references terminate
	d, err := s.u.lookup(t.pkg, t.name)
	if err != nil {
		return "", err
	}
	if d == nil {
		return "", fmt.Errorf("type %s not found", t.id())
	}
	if scalar, ok := d.openAPIScalar(); ok {
		def.Atom = schema.Atom{Scalar: &scalar}
		return name, nil
	}
	if s.u.structDecl(d) == nil {
		ref, err := s.ref(t, nil, d.pos().String())
		if err != nil {
			return "", err
		}
		def.Atom = ref.Inlined
		return name, nil
	}
	atom, err := s.structAtom(d)
	if err != nil {
		return "", err
	}
	def.Atom = atom
	return name, nil
}

// openAPIScalar reports the scalar a type with hand-written OpenAPI methods maps to.
func (d *typeDecl) openAPIScalar() (schema.Scalar, bool) {
	typesFn := d.pkg.method(d.name(), "OpenAPISchemaType")
	if typesFn == nil {
		return "", false
	}
	if d.pkg.method(d.name(), "OpenAPIV3OneOfTypes") != nil {
		return "untyped", true
	}
	types := returnedStrings(typesFn)
	var format string
	if f := d.pkg.method(d.name(), "OpenAPISchemaFormat"); f != nil {
		if v := returnedStrings(f); len(v) == 1 {
			format = v[0]
		}
	}
	if len(types) != 1 {
		return "untyped", true
	}
	switch types[0] {
	case "integer", "number":
		return schema.Numeric, true
	case "boolean":
		return schema.Boolean, true
	case "string":
		if format == "" || format == "byte" {
			return schema.String, true
		}
	}
	return "untyped", true
}

// returnedStrings collects the string literals of a function's return statement.
func returnedStrings(fn *ast.FuncDecl) []string {
	var out []string
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		ast.Inspect(ret, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok {
				if v, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, v)
				}
			}
			return true
		})
		return false
	})
	return out
}

// structAtom is the map atom of a struct declaration: its JSON fields, inline embeds flattened.
func (s *schemaBuilder) structAtom(d *typeDecl) (schema.Atom, error) {
	fields, err := s.fields(d, 0)
	if err != nil {
		return schema.Atom{}, err
	}
	if len(fields) == 0 {
		// No JSON fields (RawExtension, FieldsV1, empty structs): a map of anything, deduced.
		return schema.Atom{Map: &schema.Map{ElementType: schema.TypeRef{Inlined: deducedAtom()}}}, nil
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
	m := &schema.Map{Fields: fields}
	structType, ok, err := tagValue(s.u.structDecl(d).comment, "structType", d.pos().String())
	if err != nil {
		return schema.Atom{}, err
	}
	if ok {
		if m.ElementRelationship, err = structRelationship(structType, d.pos().String()); err != nil {
			return schema.Atom{}, err
		}
	}
	return schema.Atom{Map: m}, nil
}

// structRelationship maps a +structType value to the element relationship of a struct's map.
func structRelationship(v, pos string) (schema.ElementRelationship, error) {
	switch v {
	case "atomic":
		return schema.Atomic, nil
	case "granular":
		return schema.Separable, nil
	}
	return "", fmt.Errorf("%s: tag +structType=%s: must be atomic or granular", pos, v)
}

func (s *schemaBuilder) fields(d *typeDecl, depth int) ([]schema.StructField, error) {
	if depth > 8 {
		return nil, fmt.Errorf("%s: inline embedding too deep", d.pos())
	}
	members, err := s.u.members(d)
	if err != nil {
		return nil, err
	}
	var out []schema.StructField
	seen := map[string]bool{}
	for _, m := range members {
		if m.skipped() {
			continue
		}
		if m.embedded && m.jsonName == "" {
			named := m.typ
			if named.kind == pointerKind {
				named = named.elem
			}
			inner, err := s.u.lookup(named.pkg, named.name)
			if err != nil || inner == nil {
				return nil, fmt.Errorf("%s: inline member %s: type not found", m.pos, m.name)
			}
			embedded, err := s.fields(inner, depth+1)
			if err != nil {
				return nil, err
			}
			for _, f := range embedded {
				if !seen[f.Name] {
					seen[f.Name] = true
					out = append(out, f)
				}
			}
			continue
		}
		name := m.jsonName
		if name == "" {
			name = m.name
		}
		ref, err := s.ref(m.typ, m, m.pos)
		if err != nil {
			return nil, err
		}
		f := schema.StructField{Name: name, Type: ref}
		if f.Default, err = s.defaultValue(d, m); err != nil {
			return nil, err
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// defaultValue reads a member's +default tag: a JSON value, or ref(Const) naming a constant of the
// package (or ref(import/path.Const)) whose literal value is the default.
func (s *schemaBuilder) defaultValue(d *typeDecl, m *member) (any, error) {
	def, ok, err := tagValue(m.comment, "default", m.pos)
	if err != nil || !ok {
		return nil, err
	}
	if name, isRef := strings.CutPrefix(def, "ref("); isRef {
		name = strings.TrimSuffix(name, ")")
		p := d.pkg
		if dot := strings.LastIndex(name, "."); dot > 0 {
			if _, err := s.u.lookup(name[:dot], ""); err != nil {
				return nil, fmt.Errorf("%s: tag +default=%s: %w", m.pos, def, err)
			}
			p, name = s.u.pkgs[name[:dot]], name[dot+1:]
		}
		lit, _ := p.consts[name].(*ast.BasicLit)
		if lit == nil {
			return nil, fmt.Errorf("%s: tag +default=%s: no constant %s with a literal value in %s", m.pos, def, name, p.path)
		}
		def = lit.Value
		if lit.Kind == token.STRING {
			v, err := strconv.Unquote(lit.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: tag +default=%s: %w", m.pos, def, err)
			}
			return v, nil
		}
	}
	var v any
	if err := json.Unmarshal([]byte(def), &v); err != nil {
		return nil, fmt.Errorf("%s: tag +default=%s: %w", m.pos, def, err)
	}
	return v, nil
}

// ref is the schema reference for a value of type t; m is the member holding it (nil for element
// types), whose tags choose list and map semantics.
func (s *schemaBuilder) ref(t *goType, m *member, pos string) (schema.TypeRef, error) {
	for t.kind == pointerKind {
		t = t.elem
	}
	switch t.kind {
	case builtinKind:
		scalar, ok := builtinScalar(t.name)
		if !ok {
			return untypedRef(), nil
		}
		return schema.TypeRef{Inlined: schema.Atom{Scalar: &scalar}}, nil
	case interfaceKind, structKind:
		return untypedRef(), nil
	case namedKind:
		if t.pkg == "k8s.io/apimachinery/pkg/runtime" && t.name == "RawExtension" {
			// Embedded objects are atomic where they are used (their schema is not known); the
			// definition itself is kept, as the API server's OpenAPI has it.
			if _, err := s.addNamed(t); err != nil {
				return schema.TypeRef{}, err
			}
			return untypedRef(), nil
		}
		d, err := s.u.lookup(t.pkg, t.name)
		if err != nil {
			return schema.TypeRef{}, err
		}
		if d == nil {
			return schema.TypeRef{}, fmt.Errorf("%s: type %s not found", pos, t.id())
		}
		if s.u.structDecl(d) != nil || d.pkg.method(d.name(), "OpenAPISchemaType") != nil {
			name, err := s.addNamed(t)
			if err != nil {
				return schema.TypeRef{}, err
			}
			ref := schema.TypeRef{NamedType: &name}
			if m != nil {
				// A member's +structType overrides the struct's own.
				v, ok, err := lastTagValue(m.comment, "structType", pos)
				if err != nil {
					return schema.TypeRef{}, err
				}
				if ok {
					rel, err := structRelationship(v, pos)
					if err != nil {
						return schema.TypeRef{}, err
					}
					ref.ElementRelationship = &rel
				}
			}
			return ref, nil
		}
		if _, isIface := d.spec.Type.(*ast.InterfaceType); isIface {
			return untypedRef(), nil
		}
		under, err := s.u.resolve(d.pkg, d.file, d.spec.Type)
		if err != nil {
			return schema.TypeRef{}, fmt.Errorf("%s: %w", d.pos(), err)
		}
		// Named slices, maps and scalars are inlined; their own tags apply unless the member overrides.
		lines := append([]string{}, d.comment...)
		if m != nil {
			lines = append(lines, m.comment...)
		}
		inner := &member{comment: lines, pos: pos}
		if m != nil {
			inner.patchStrategy, inner.key = m.patchStrategy, m.key
		}
		return s.ref(under, inner, pos)
	case sliceKind:
		if t.elem.kind == builtinKind && (t.elem.name == "byte" || t.elem.name == "uint8") {
			scalar := schema.String
			return schema.TypeRef{Inlined: schema.Atom{Scalar: &scalar}}, nil
		}
		elem, err := s.ref(t.elem, nil, pos)
		if err != nil {
			return schema.TypeRef{}, err
		}
		list := &schema.List{ElementType: elem, ElementRelationship: schema.Atomic}
		if m != nil {
			if err := listSemantics(list, m); err != nil {
				return schema.TypeRef{}, err
			}
		}
		return schema.TypeRef{Inlined: schema.Atom{List: list}}, nil
	case arrayKind:
		elem, err := s.ref(t.elem, nil, pos)
		if err != nil {
			return schema.TypeRef{}, err
		}
		return schema.TypeRef{Inlined: schema.Atom{List: &schema.List{ElementType: elem, ElementRelationship: schema.Atomic}}}, nil
	case mapKind:
		elem, err := s.ref(t.elem, nil, pos)
		if err != nil {
			return schema.TypeRef{}, err
		}
		mp := &schema.Map{ElementType: elem}
		if m != nil {
			v, ok, err := lastTagValue(m.comment, "mapType", pos)
			if err != nil {
				return schema.TypeRef{}, err
			}
			switch {
			case !ok:
			case v == "atomic":
				mp.ElementRelationship = schema.Atomic
			case v == "granular":
				mp.ElementRelationship = schema.Separable
			default:
				return schema.TypeRef{}, fmt.Errorf("%s: tag +mapType=%s: must be atomic or granular", pos, v)
			}
		}
		return schema.TypeRef{Inlined: schema.Atom{Map: mp}}, nil
	}
	return untypedRef(), nil
}

// listSemantics applies the list semantics of the wire-shape model (+listType/+listMapKey, in their
// +k8s: spellings too, as the CRD schema and the API server read them), or failing those the patch
// strategy, to list.
func listSemantics(list *schema.List, m *member) error {
	sem := wireshape.SemanticsOf(m.comment, true)
	if sem.ListTypeGiven {
		switch sem.ListType {
		case "atomic":
			list.ElementRelationship = schema.Atomic
		case "set":
			list.ElementRelationship = schema.Associative
		case "map":
			list.ElementRelationship = schema.Associative
			for _, k := range sem.ListMapKeys {
				if !slices.Contains(list.Keys, k) {
					list.Keys = append(list.Keys, k)
				}
			}
			if len(list.Keys) == 0 {
				return fmt.Errorf("%s: tag +listType=map needs +listMapKey", m.pos)
			}
		default:
			return fmt.Errorf("%s: tag +listType=%s: must be atomic, set or map", m.pos, sem.ListType)
		}
		return nil
	}
	for _, strategy := range strings.Split(m.patchStrategy, ",") {
		if strategy == "merge" {
			list.ElementRelationship = schema.Associative
			if m.key != "" {
				list.Keys = []string{m.key}
			}
		}
	}
	return nil
}

func builtinScalar(name string) (schema.Scalar, bool) {
	switch name {
	case "string":
		return schema.String, true
	case "bool":
		return schema.Boolean, true
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
		"float32", "float64", "byte", "rune", "uintptr":
		return schema.Numeric, true
	}
	return "", false
}

func untypedRef() schema.TypeRef {
	name := untypedAtomic
	return schema.TypeRef{NamedType: &name}
}

func deducedAtom() schema.Atom {
	untyped, atomic, deduced := schema.Scalar("untyped"), untypedAtomic, untypedDeduced
	return schema.Atom{
		Scalar: &untyped,
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: &atomic}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: &deduced}, ElementRelationship: schema.Separable},
	}
}

// untypedDefs are the definitions every schema ends with.
func untypedDefs() []schema.TypeDef {
	untyped, atomic := schema.Scalar("untyped"), untypedAtomic
	return []schema.TypeDef{
		{Name: untypedAtomic, Atom: schema.Atom{
			Scalar: &untyped,
			List:   &schema.List{ElementType: schema.TypeRef{NamedType: &atomic}, ElementRelationship: schema.Atomic},
			Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: &atomic}, ElementRelationship: schema.Atomic},
		}},
		{Name: untypedDeduced, Atom: deducedAtom()},
	}
}

// build returns the schema of every definition added so far, sorted by name, then the untyped ones.
func (s *schemaBuilder) build() *schema.Schema {
	names := make([]string, 0, len(s.defs))
	for n := range s.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	out := &schema.Schema{}
	for _, n := range names {
		out.Types = append(out.Types, *s.defs[n])
	}
	out.Types = append(out.Types, untypedDefs()...)
	return out
}
