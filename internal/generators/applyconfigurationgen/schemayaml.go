package applyconfigurationgen

import (
	"strings"

	"go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// marshalSchema renders s as YAML, byte for byte as yaml.Marshal does. The schema of all of k8s.io/api runs
// to tens of thousands of lines, which yaml.Marshal's reflection spends a tenth of a second on; most type
// definitions hold only names, relationships and keys, written here directly. A definition with anything
// else (defaults, unions, empty atoms, or a string YAML would quote) is left to yaml.Marshal.
func marshalSchema(s *schema.Schema) ([]byte, error) {
	if len(s.Types) == 0 {
		return yaml.Marshal(s)
	}
	w := &schemaWriter{}
	w.b.WriteString("types:\n")
	for _, td := range s.Types {
		if !plainTypeDef(td) {
			out, err := yaml.Marshal([]schema.TypeDef{td})
			if err != nil {
				return nil, err
			}
			w.b.Write(out)
			continue
		}
		w.line(0, "- name: ", td.Name)
		w.atom(2, td.Atom)
	}
	return []byte(w.b.String()), nil
}

// schemaWriter writes the YAML of plain type definitions.
type schemaWriter struct{ b strings.Builder }

// line writes key and value indented by indent spaces.
func (w *schemaWriter) line(indent int, key, value string) {
	for range indent {
		w.b.WriteByte(' ')
	}
	w.b.WriteString(key)
	w.b.WriteString(value)
	w.b.WriteByte('\n')
}

func (w *schemaWriter) atom(indent int, a schema.Atom) {
	if a.Scalar != nil {
		w.line(indent, "scalar: ", string(*a.Scalar))
	}
	if a.List != nil {
		w.line(indent, "list:", "")
		w.typeRefIn(indent+2, "elementType:", a.List.ElementType)
		if a.List.ElementRelationship != "" {
			w.line(indent+2, "elementRelationship: ", string(a.List.ElementRelationship))
		}
		if len(a.List.Keys) > 0 {
			w.line(indent+2, "keys:", "")
			for _, k := range a.List.Keys {
				w.line(indent+2, "- ", k)
			}
		}
	}
	if a.Map != nil {
		w.line(indent, "map:", "")
		if len(a.Map.Fields) > 0 {
			w.line(indent+2, "fields:", "")
			for _, f := range a.Map.Fields {
				w.line(indent+2, "- name: ", f.Name)
				w.typeRefIn(indent+4, "type:", f.Type)
			}
		}
		w.typeRefIn(indent+2, "elementType:", a.Map.ElementType)
		if a.Map.ElementRelationship != "" {
			w.line(indent+2, "elementRelationship: ", string(a.Map.ElementRelationship))
		}
	}
}

// typeRefIn writes t under key, unless t is empty.
func (w *schemaWriter) typeRefIn(indent int, key string, t schema.TypeRef) {
	if emptyTypeRef(t) {
		return
	}
	w.line(indent, key, "")
	if t.NamedType != nil {
		w.line(indent+2, "namedType: ", *t.NamedType)
	}
	w.atom(indent+2, t.Inlined)
	if t.ElementRelationship != nil {
		w.line(indent+2, "elementRelationship: ", string(*t.ElementRelationship))
	}
}

func emptyTypeRef(t schema.TypeRef) bool {
	return t.NamedType == nil && t.ElementRelationship == nil && emptyAtom(t.Inlined)
}

func emptyAtom(a schema.Atom) bool { return a.Scalar == nil && a.List == nil && a.Map == nil }

// plainTypeDef reports whether schemaWriter writes td as yaml.Marshal does: every string is plain, no
// field has a default, no map has unions, and no list or map is empty (yaml.Marshal writes those as {}).
func plainTypeDef(td schema.TypeDef) bool {
	return plainString(td.Name) && plainAtom(td.Atom)
}

func plainAtom(a schema.Atom) bool {
	if a.Scalar != nil && !plainString(string(*a.Scalar)) {
		return false
	}
	if l := a.List; l != nil {
		if emptyTypeRef(l.ElementType) && l.ElementRelationship == "" && len(l.Keys) == 0 {
			return false
		}
		if !plainTypeRef(l.ElementType) || !plainOrEmpty(string(l.ElementRelationship)) {
			return false
		}
		for _, k := range l.Keys {
			if !plainString(k) {
				return false
			}
		}
	}
	if m := a.Map; m != nil {
		if len(m.Fields) == 0 && emptyTypeRef(m.ElementType) && m.ElementRelationship == "" || len(m.Unions) > 0 {
			return false
		}
		if !plainTypeRef(m.ElementType) || !plainOrEmpty(string(m.ElementRelationship)) {
			return false
		}
		for _, f := range m.Fields {
			if !plainString(f.Name) || f.Default != nil || !plainTypeRef(f.Type) {
				return false
			}
		}
	}
	return true
}

func plainTypeRef(t schema.TypeRef) bool {
	if t.NamedType != nil && !plainString(*t.NamedType) {
		return false
	}
	if t.ElementRelationship != nil && !plainString(string(*t.ElementRelationship)) {
		return false
	}
	return plainAtom(t.Inlined)
}

func plainOrEmpty(s string) bool { return s == "" || plainString(s) }

// plainString reports whether YAML writes s unquoted: a name of letters, digits and ._-/ that starts
// with a letter or underscore and is not a word YAML reads as a boolean or null.
func plainString(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '_' && c != '.' && c != '-' && c != '/' {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "true", "false", "on", "off", "null":
		return false
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
