package wireshape

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"
)

// JSONTag is a field's json struct tag key.
type JSONTag struct {
	// Present tells that the key exists (even empty); Raw is its value.
	Present bool
	Raw     string
	// Name is the part before the first comma; Options the comma-separated rest.
	Name    string
	Options []string
}

func parseJSONTag(tag string) JSONTag {
	raw, ok := reflect.StructTag(tag).Lookup("json")
	if !ok {
		return JSONTag{}
	}
	name, opts, _ := strings.Cut(raw, ",")
	j := JSONTag{Present: true, Raw: raw, Name: name}
	if opts != "" || strings.Contains(raw, ",") {
		j.Options = strings.Split(opts, ",")
	}
	return j
}

// HasOption reports whether the json tag carries option opt, spelled exactly.
func (j JSONTag) HasOption(opt string) bool {
	for _, o := range j.Options {
		if o == opt {
			return true
		}
	}
	return false
}

// WireName is the field's JSON property name: its json name, the Go name without a json tag (or with an
// empty json value), and "" for a field json skips ("-").
func (f *Field) WireName() string {
	switch {
	case f.JSON.Raw == "-":
		return ""
	case f.JSON.Raw == "":
		return f.Name
	}
	if f.JSON.Name == "-" && len(f.JSON.Options) == 0 {
		return ""
	}
	return f.JSON.Name
}

// Inline tells whether the field's members appear in place of it: an embedded field whose json tag is
// present with an empty name.
func (f *Field) Inline() bool {
	return f.Embedded && f.JSON.Present && f.JSON.Name == ""
}

// OmitEmpty tells whether the json tag carries the omitempty option.
func (f *Field) OmitEmpty() bool { return f.JSON.HasOption("omitempty") }

// Tags returns the field's comment tags (+name=value lines): name -> values in order.
func (f *Field) Tags() map[string][]string { return Tags(f.Comments) }

// Optional tells whether the field may be absent: +optional, or no +required and omitempty. Both tags
// at once are an error naming the field's position.
func (f *Field) Optional() (bool, error) {
	tags := f.Tags()
	_, opt := tags["optional"]
	_, req := tags["required"]
	switch {
	case opt && req:
		return false, fmt.Errorf("%s: member %s cannot be both optional and required", f.Pos, f.Name)
	case req:
		return false, nil
	case opt:
		return true, nil
	}
	return f.OmitEmpty(), nil
}

// Tags extracts the comment tags of lines: each line that, trimmed of spaces, starts with "+" gives
// name -> value ("" without "="), values in line order.
func Tags(lines []string) map[string][]string {
	out := map[string][]string{}
	for _, line := range lines {
		line = strings.Trim(line, " ")
		rest, ok := strings.CutPrefix(line, "+")
		if !ok {
			continue
		}
		k, v, _ := strings.Cut(rest, "=")
		out[k] = append(out[k], v)
	}
	return out
}

// Semantics are the merge semantics the tags give a list, map or struct.
type Semantics struct {
	// ListType is atomic, set or map (the last value given); ListTypeGiven tells that a list type tag
	// was given at all, even empty. ListMapKeys are the keys of a map list, each once, in order.
	ListType      string
	ListTypeGiven bool
	ListMapKeys   []string
	// MapType and StructType are atomic or granular (the last value given).
	MapType, StructType string
}

// SemanticsOf reads the list/map/struct semantics of comment lines, in line order: +listType,
// +listMapKey, +mapType and +structType, which openapi-gen, controller-gen and applyconfiguration-gen
// read, and with k8s also +k8s:listType and +k8s:listMapKey, which validation-gen and controller-gen
// read (the API server treats both spellings alike). Values are kept as written: checking them is the
// projections' job, with their own error messages.
func SemanticsOf(lines []string, k8s bool) Semantics {
	var s Semantics
	for _, line := range lines {
		rest, ok := strings.CutPrefix(strings.Trim(line, " "), "+")
		if !ok {
			continue
		}
		name, value, _ := strings.Cut(rest, "=")
		if k8s {
			if plain, ok := strings.CutPrefix(name, "k8s:"); ok && (plain == "listType" || plain == "listMapKey") {
				name = plain
			}
		}
		switch name {
		case "listType":
			s.ListType, s.ListTypeGiven = value, true
		case "listMapKey":
			if !slices.Contains(s.ListMapKeys, value) {
				s.ListMapKeys = append(s.ListMapKeys, value)
			}
		case "mapType":
			s.MapType = value
		case "structType":
			s.StructType = value
		}
	}
	return s
}

// Deref strips pointers and named non-struct types down to the type whose shape JSON sees: a named
// struct stays named.
func Deref(t types.Type) types.Type {
	for {
		switch u := t.(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Alias:
			t = types.Unalias(u)
			continue
		case *types.Named:
			if _, ok := u.Underlying().(*types.Struct); ok {
				return u
			}
			if _, ok := u.Underlying().(*types.Interface); ok {
				return u
			}
			t = u.Underlying()
			continue
		}
		return t
	}
}

// Property is one JSON property of a struct: the field giving it, its name and how deep in inline
// members the field is (0 for the struct's own).
type Property struct {
	Field *Field
	Name  string
	Depth int
}

// maxInlineDepth bounds inline embedding, which a type embedding a pointer to itself would make endless.
const maxInlineDepth = 16

// Properties returns the JSON properties of a struct with fields, in declaration order with the members
// of inline fields (Field.Inline) in their place, resolved as encoding/json resolves them: of several
// fields with one name the shallowest wins, then the one whose json tag names it; a tie drops them all.
// skip leaves a field out (an inline one with its members); name gives a field's property name, ""
// for none.
func (m *Model) Properties(fields []*Field, skip func(*Field) bool, name func(*Field) string) ([]Property, error) {
	var all []Property
	var walk func(fields []*Field, depth int) error
	walk = func(fields []*Field, depth int) error {
		for _, f := range fields {
			if skip(f) {
				continue
			}
			if f.Inline() {
				st, ok := structOf(f.Type)
				if !ok {
					return fmt.Errorf("%s: inline member %s is not a struct", f.Pos, f.Name)
				}
				if depth >= maxInlineDepth {
					return fmt.Errorf("%s: inline member %s: embedding too deep", f.Pos, f.Name)
				}
				if err := walk(m.FieldsOf(st), depth+1); err != nil {
					return err
				}
				continue
			}
			if n := name(f); n != "" {
				all = append(all, Property{Field: f, Name: n, Depth: depth})
			}
		}
		return nil
	}
	if err := walk(fields, 0); err != nil {
		return nil, err
	}
	byName := map[string][]int{}
	for i, p := range all {
		byName[p.Name] = append(byName[p.Name], i)
	}
	out := all[:0:0]
	for i, p := range all {
		if dominant(all, byName[p.Name]) == i {
			out = append(out, p)
		}
	}
	return out, nil
}

// dominant returns which of the properties at indexes (one name) encoding/json keeps, or -1.
func dominant(all []Property, indexes []int) int {
	if len(indexes) == 1 {
		return indexes[0]
	}
	best := all[indexes[0]].Depth
	for _, i := range indexes {
		best = min(best, all[i].Depth)
	}
	var shallow []int
	for _, i := range indexes {
		if all[i].Depth == best {
			shallow = append(shallow, i)
		}
	}
	if len(shallow) == 1 {
		return shallow[0]
	}
	var tagged []int
	for _, i := range shallow {
		if all[i].Field.JSON.Name != "" {
			tagged = append(tagged, i)
		}
	}
	if len(tagged) == 1 {
		return tagged[0]
	}
	return -1
}

// structOf returns the struct type t is or points to.
func structOf(t types.Type) (*types.Struct, bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := types.Unalias(t).Underlying().(*types.Struct)
	return st, ok
}
