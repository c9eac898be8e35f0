package applyconfigurationgen

import (
	"go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/kgen-dev/kgen/internal/generators/internal/yamlemit"
)

// marshalSchema renders s as YAML, byte for byte as yaml.Marshal does. The schema of all of k8s.io/api
// runs to tens of thousands of lines, which yaml.Marshal's reflection spends a tenth of a second on; the
// schema is turned into yamlemit's mappings instead, its fields in the order and with the omitempty rules
// of its yaml tags, and written by the generators' one YAML writer. A schema with a field default (a
// value of any type) or what the writer does not cover is left to yaml.Marshal.
func marshalSchema(s *schema.Schema) ([]byte, error) {
	if len(s.Types) > 0 && !hasDefaults(s) {
		types := make([]any, len(s.Types))
		for i, td := range s.Types {
			m := yamlemit.Struct{}
			if td.Name != "" {
				m = append(m, yamlemit.Member{Key: "name", Value: td.Name})
			}
			types[i] = atomMembers(m, td.Atom)
		}
		if out, ok := yamlemit.Emit(yamlemit.Struct{{Key: "types", Value: types}}); ok {
			return out, nil
		}
	}
	return yaml.Marshal(s)
}

func hasDefaults(s *schema.Schema) bool {
	var inAtom func(a schema.Atom) bool
	inRef := func(t schema.TypeRef) bool { return inAtom(t.Inlined) }
	inAtom = func(a schema.Atom) bool {
		if a.List != nil && inRef(a.List.ElementType) {
			return true
		}
		if a.Map != nil {
			if inRef(a.Map.ElementType) {
				return true
			}
			for _, f := range a.Map.Fields {
				if f.Default != nil || inRef(f.Type) {
					return true
				}
			}
		}
		return false
	}
	for _, td := range s.Types {
		if inAtom(td.Atom) {
			return true
		}
	}
	return false
}

// atomMembers appends the members of a, an inline part of the mapping m.
func atomMembers(m yamlemit.Struct, a schema.Atom) yamlemit.Struct {
	if a.Scalar != nil {
		m = append(m, yamlemit.Member{Key: "scalar", Value: string(*a.Scalar)})
	}
	if l := a.List; l != nil {
		list := typeRefIn(yamlemit.Struct{}, "elementType", l.ElementType)
		list = stringIn(list, "elementRelationship", string(l.ElementRelationship))
		if len(l.Keys) > 0 {
			keys := make([]any, len(l.Keys))
			for i, k := range l.Keys {
				keys[i] = k
			}
			list = append(list, yamlemit.Member{Key: "keys", Value: keys})
		}
		m = append(m, yamlemit.Member{Key: "list", Value: list})
	}
	if mp := a.Map; mp != nil {
		out := yamlemit.Struct{}
		if len(mp.Fields) > 0 {
			fields := make([]any, len(mp.Fields))
			for i, f := range mp.Fields {
				fields[i] = typeRefIn(stringIn(yamlemit.Struct{}, "name", f.Name), "type", f.Type)
			}
			out = append(out, yamlemit.Member{Key: "fields", Value: fields})
		}
		if len(mp.Unions) > 0 {
			unions := make([]any, len(mp.Unions))
			for i, u := range mp.Unions {
				unions[i] = unionMembers(u)
			}
			out = append(out, yamlemit.Member{Key: "unions", Value: unions})
		}
		out = typeRefIn(out, "elementType", mp.ElementType)
		out = stringIn(out, "elementRelationship", string(mp.ElementRelationship))
		m = append(m, yamlemit.Member{Key: "map", Value: out})
	}
	return m
}

func unionMembers(u schema.Union) yamlemit.Struct {
	m := yamlemit.Struct{}
	if u.Discriminator != nil {
		m = append(m, yamlemit.Member{Key: "discriminator", Value: *u.Discriminator})
	}
	if u.DeduceInvalidDiscriminator {
		m = append(m, yamlemit.Member{Key: "deduceInvalidDiscriminator", Value: true})
	}
	if len(u.Fields) > 0 {
		fields := make([]any, len(u.Fields))
		for i, f := range u.Fields {
			fields[i] = yamlemit.Struct{{Key: "fieldName", Value: f.FieldName}, {Key: "discriminatorValue", Value: f.DiscriminatorValue}}
		}
		m = append(m, yamlemit.Member{Key: "fields", Value: fields})
	}
	return m
}

// typeRefIn appends t under key to m, unless t is empty (omitempty).
func typeRefIn(m yamlemit.Struct, key string, t schema.TypeRef) yamlemit.Struct {
	if t.NamedType == nil && t.ElementRelationship == nil && !t.Nullable && t.Inlined.Scalar == nil && t.Inlined.List == nil && t.Inlined.Map == nil {
		return m
	}
	ref := yamlemit.Struct{}
	if t.NamedType != nil {
		ref = append(ref, yamlemit.Member{Key: "namedType", Value: *t.NamedType})
	}
	ref = atomMembers(ref, t.Inlined)
	if t.ElementRelationship != nil {
		ref = append(ref, yamlemit.Member{Key: "elementRelationship", Value: string(*t.ElementRelationship)})
	}
	if t.Nullable {
		ref = append(ref, yamlemit.Member{Key: "nullable", Value: true})
	}
	return append(m, yamlemit.Member{Key: key, Value: ref})
}

// stringIn appends s under key to m, unless s is empty (omitempty).
func stringIn(m yamlemit.Struct, key, s string) yamlemit.Struct {
	if s == "" {
		return m
	}
	return append(m, yamlemit.Member{Key: key, Value: s})
}
