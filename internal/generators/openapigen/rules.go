package openapigen

import (
	"go/types"
	"reflect"
	"sort"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/wireshape"
)

// violation is one API rule violation: the rule, package, type and field ("" for the whole type).
type violation struct{ rule, pkg, typ, field string }

func (v violation) String() string {
	return "API rule violation: " + v.rule + "," + v.pkg + "," + v.typ + "," + v.field
}

// rule checks a struct type and returns the names of the fields that violate it.
type rule struct {
	name  string
	check func(fields []*wireshape.Field) []string
}

// rules are openapi-gen's API rules, in the order it applies them.
var rules = []rule{
	{"names_match", namesMatchViolations},
	{"omitempty_match_case", omitemptyViolations},
	{"list_type_missing", listTypeViolations},
	{"streaming_list_type_field_order", streamingOrderViolations},
	{"streaming_list_type_json_tags", streamingJSONViolations},
	{"streaming_list_type_proto_tags", streamingProtoViolations},
}

// lint returns the report lines of t's violations.
func lint(t *wireshape.Type) []string {
	if !t.Struct {
		return nil
	}
	var out []violation
	for _, r := range rules {
		for _, f := range r.check(t.Fields) {
			out = append(out, violation{r.name, t.Pkg.Path, t.Name, f})
		}
	}
	lines := make([]string, len(out))
	for i, v := range out {
		lines[i] = v.String()
	}
	return lines
}

// sortViolations sorts report lines by rule, package, type and field.
func sortViolations(lines []string) {
	key := func(s string) []string { return strings.SplitN(strings.TrimPrefix(s, "API rule violation: "), ",", 4) }
	sort.SliceStable(lines, func(i, j int) bool {
		a, b := key(lines[i]), key(lines[j])
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
}

func jsonTag(f *wireshape.Field) (string, bool) { return reflect.StructTag(f.Tag).Lookup("json") }

func namesMatchViolations(fields []*wireshape.Field) []string {
	var out []string
	for _, f := range fields {
		tag, ok := jsonTag(f)
		if !ok {
			out = append(out, f.Name)
			continue
		}
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if !nameIsOkay(f, name) {
			out = append(out, f.Name)
		}
	}
	return out
}

func nameIsOkay(f *wireshape.Field, jsonName string) bool {
	t := types.Unalias(f.Type)
	if jsonName == "" {
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		return isStructKind(t)
	}
	if n, ok := t.(*types.Named); ok {
		switch qualified(n) {
		case "k8s.io/apimachinery/pkg/apis/meta/v1.ListMeta", "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta":
			return jsonName == "metadata"
		}
	}
	return namesMatch(f.Name, jsonName)
}

// isStructKind tells a type gengo calls a struct: a struct literal type or a named struct type.
func isStructKind(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	if n, named := t.(*types.Named); named {
		return ok && !isAlias(n)
	}
	return ok
}

func namesMatch(goName, jsonName string) bool {
	if strings.ContainsAny(goName, "_-") || strings.ContainsAny(jsonName, "_-") || !strings.EqualFold(goName, jsonName) {
		return false
	}
	if !isCapital(goName[0]) || isCapital(jsonName[0]) {
		return false
	}
	for i := 0; i < len(goName); i++ {
		if goName[i] == jsonName[i] {
			return goName[i:] == jsonName[i:] && (i == 1 || isCapital(goName[i]))
		}
	}
	return true
}

func isCapital(b byte) bool { return b >= 'A' && b <= 'Z' }

func omitemptyViolations(fields []*wireshape.Field) []string {
	var out []string
	for _, f := range fields {
		tag, ok := jsonTag(f)
		if !ok {
			continue
		}
		parts := strings.Split(tag, ",")
		if len(parts) < 2 || parts[0] == "-" {
			continue
		}
		for _, p := range parts[1:] {
			if strings.EqualFold(p, "omitempty") && p != "omitempty" {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// sliceKind tells a field whose type is a slice literal (not a named slice type), and whether its
// elements are bytes.
func sliceKind(t types.Type) (slice, bytes bool) {
	s, ok := types.Unalias(t).(*types.Slice)
	if !ok {
		return false, false
	}
	b, isBasic := types.Unalias(s.Elem()).(*types.Basic)
	return true, isBasic && b.Name() == "byte"
}

func hasField(fields []*wireshape.Field, name string) bool {
	for _, f := range fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

func listTypeViolations(fields []*wireshape.Field) []string {
	var out []string
	for _, f := range fields {
		_, hasListType := wireshape.Tags(f.Comments)["listType"]
		slice, bytes := sliceKind(f.Type)
		if f.Name == "Items" && slice && hasField(fields, "ListMeta") {
			if hasListType {
				out = append(out, f.Name)
			}
			continue
		}
		if slice && !bytes && !hasListType {
			out = append(out, f.Name)
		}
	}
	return out
}

func isListType(fields []*wireshape.Field) bool {
	return len(fields) == 3 && hasField(fields, "TypeMeta") && hasField(fields, "ListMeta") && hasField(fields, "Items")
}

func streamingOrderViolations(fields []*wireshape.Field) []string {
	if !isListType(fields) {
		return nil
	}
	var out []string
	for i, name := range []string{"TypeMeta", "ListMeta", "Items"} {
		if fields[i].Name != name {
			out = append(out, name)
		}
	}
	return out
}

func streamingJSONViolations(fields []*wireshape.Field) []string {
	if !isListType(fields) {
		return nil
	}
	var out []string
	for _, f := range fields {
		tag, ok := jsonTag(f)
		switch f.Name {
		case "TypeMeta":
			if !f.Embedded || !ok || tag != "" && tag != ",inline" {
				out = append(out, f.Name)
			}
		case "ListMeta":
			if tag != "metadata,omitempty" {
				out = append(out, f.Name)
			}
		case "Items":
			if tag != "items" {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

func streamingProtoViolations(fields []*wireshape.Field) []string {
	if !isListType(fields) {
		return nil
	}
	var out []string
	for _, f := range fields {
		v := reflect.StructTag(f.Tag).Get("protobuf")
		switch {
		case f.Name == "TypeMeta" && v != "",
			f.Name == "ListMeta" && v != "" && v != "bytes,1,opt,name=metadata",
			f.Name == "Items" && v != "" && v != "bytes,2,rep,name=items":
			out = append(out, f.Name)
		}
	}
	return out
}
