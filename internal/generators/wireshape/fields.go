package wireshape

import (
	"fmt"
	"go/types"
	"reflect"
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
	// ListType is atomic, set or map; ListMapKeys the keys of a map list.
	ListType    string
	ListMapKeys []string
	// MapType and StructType are atomic or granular.
	MapType, StructType string
}

// SemanticsOf reads the list/map/struct semantics of comment lines. plain selects the tags openapi-gen
// reads (+listType, +listMapKey, +mapType, +structType); with k8s also their +k8s: forms count, the
// plain form winning when both are given.
func SemanticsOf(lines []string, k8s bool) Semantics {
	tags := Tags(lines)
	get := func(name string) []string {
		if v, ok := tags[name]; ok {
			return v
		}
		if k8s {
			return tags["k8s:"+name]
		}
		return nil
	}
	first := func(v []string) string {
		if len(v) == 0 {
			return ""
		}
		return v[0]
	}
	return Semantics{ListType: first(get("listType")), ListMapKeys: get("listMapKey"), MapType: first(get("mapType")), StructType: first(get("structType"))}
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
