package crdgen

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/markers"
)

// allOfKeys are the value validations that, set both by a type and by a field using it, are kept side
// by side under allOf (both must hold), as controller-gen emits them.
var allOfKeys = []string{
	"maxLength", "minLength", "pattern", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum",
	"multipleOf", "maxItems", "minItems", "format",
}

// mergeLayers refines base with layer (a field's markers over its type's schema, or a type's markers
// over its underlying schema): properties merge, required lists join, rules of the layer come first,
// base's enum is kept, validations both set go under allOf, and anything else of the layer wins. The
// result is a new node; base and everything below it may be shared (see walker.named) and are left
// as they are.
func mergeLayers(base, layer schema, pos string) (schema, error) {
	out := maps.Clone(base)
	if out == nil {
		out = schema{}
	}
	var allOfBase, allOfLayer schema
	for _, k := range slices.Sorted(maps.Keys(layer)) {
		v := layer[k]
		old, exists := out[k]
		if !exists {
			out[k] = v
			continue
		}
		switch {
		case k == "type":
			if old != v {
				return nil, fmt.Errorf("%s: conflicting types %v and %v", pos, old, v)
			}
		case k == "properties":
			props := maps.Clone(old.(schema))
			out[k] = props
			for name, p := range v.(schema) {
				props[name] = p
			}
		case k == "required":
			r := append(slices.Clone(old.([]string)), v.([]string)...)
			sort.Strings(r)
			out[k] = slices.Compact(r)
		case k == "x-kubernetes-validations":
			out[k] = append(slices.Clone(v.([]any)), old.([]any)...)
		case k == "enum":
			// the type's enum wins
		case k == "items":
			merged, err := mergeLayers(old.(schema), v.(schema), pos)
			if err != nil {
				return nil, err
			}
			out[k] = merged
		case (k == "minProperties" || k == "maxProperties" || k == "format") && old == v:
		case slices.Contains(allOfKeys, k) || k == "minProperties" || k == "maxProperties":
			if allOfBase == nil {
				allOfBase, allOfLayer = schema{}, schema{}
			}
			allOfBase[k], allOfLayer[k] = old, v
			delete(out, k)
		default:
			out[k] = v
		}
	}
	if allOfBase != nil {
		all, _ := out["allOf"].([]any)
		out["allOf"] = append(slices.Clip(all), allOfBase, allOfLayer)
	}
	return out, nil
}

// checkSchema checks a completed schema node (a type's or a field's) for contradictions: bounds the
// wrong way round, list map keys that name no field or an optional one, a default that does not
// validate against the schema.
func checkSchema(s schema, ms []*markers.Marker) error {
	find := func(keys ...string) *markers.Marker {
		for _, m := range slices.Backward(ms) {
			for _, k := range keys {
				if byKey(m, k) {
					return m
				}
			}
		}
		return nil
	}
	bounds := [][2]string{{"minimum", "maximum"}, {"minLength", "maxLength"}, {"minItems", "maxItems"}, {"minProperties", "maxProperties"}}
	for _, b := range bounds {
		lo, hasLo := number(s[b[0]])
		hi, hasHi := number(s[b[1]])
		if hasLo && hasHi && lo > hi {
			m := find(b[0], b[1])
			if m == nil {
				continue // both from the type, checked there
			}
			return m.Errorf("%s %v is above %s %v", b[0], lo, b[1], hi)
		}
	}
	if enum, ok := s["enum"].([]any); ok {
		if m := find("Enum"); m != nil {
			plain := maps.Clone(s)
			delete(plain, "enum")
			delete(plain, "default")
			for _, e := range enum {
				if err := validateValue(e, plain, ""); err != nil {
					return m.Errorf("enum value %s does not fit the field: %v", jsonText(e), err)
				}
			}
		}
	}
	if err := checkListType(s); err != nil {
		return err
	}
	if d, ok := s["default"]; ok {
		m, _ := s[defaultMarkerKey].(*markers.Marker)
		if err := validateValue(d, s, ""); err != nil && m != nil {
			return m.Errorf("the default %s does not validate against the field's schema: %v", jsonText(d), err)
		}
	}
	return nil
}

// checkListType checks x-kubernetes-list-type and its keys against the items.
func checkListType(s schema) error {
	lm, _ := s[listMarkerKey].(*markers.Marker)
	km, _ := s[keyMarkerKey].(*markers.Marker)
	keys, _ := s["x-kubernetes-list-map-keys"].([]any)
	switch s["x-kubernetes-list-type"] {
	case "map":
		if len(keys) == 0 {
			if lm != nil {
				return lm.Errorf("a map list needs +listMapKey=<field> naming its key fields")
			}
			return nil
		}
		items, _ := s["items"].(schema)
		props, _ := items["properties"].(schema)
		required, _ := items["required"].([]string)
		for _, k := range keys {
			name := k.(string)
			p, ok := props[name].(schema)
			bad := km
			if bad == nil {
				bad = lm
			}
			if bad == nil {
				continue
			}
			if !ok {
				return bad.Errorf("list map key %q names no field of the items (fields: %s)", name, strings.Join(slices.Sorted(maps.Keys(props)), ", "))
			}
			if _, hasDefault := p["default"]; !slices.Contains(required, name) && !hasDefault {
				return bad.Errorf("list map key %q is optional and has no default; the API server needs every key set", name)
			}
			switch p["type"] {
			case "string", "integer", "number", "boolean":
			default:
				if p["x-kubernetes-int-or-string"] != true {
					return bad.Errorf("list map key %q must be a scalar", name)
				}
			}
		}
	case "set":
		items, _ := s["items"].(schema)
		if t := items["type"]; (t == "object" && items["x-kubernetes-map-type"] != "atomic") || (t == "array" && items["x-kubernetes-list-type"] != "atomic") {
			if lm != nil {
				return lm.Errorf("a set's items must be scalars or atomic")
			}
		}
	default:
		if len(keys) > 0 && km != nil {
			return km.Errorf("+listMapKey needs +listType=map")
		}
	}
	return nil
}

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	case int:
		return float64(v), true
	}
	return 0, false
}

// validateValue checks a JSON value against a schema the way the API server checks defaults.
func validateValue(v any, s schema, path string) error {
	at := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		if path != "" {
			return fmt.Errorf("%s: %s", path, msg)
		}
		return fmt.Errorf("%s", msg)
	}
	if v == nil {
		if s["nullable"] == true {
			return nil
		}
		return at("null is not allowed (the field is not +nullable)")
	}
	if s["x-kubernetes-preserve-unknown-fields"] == true && s["type"] == nil {
		return nil
	}
	typ, _ := s["type"].(string)
	if s["x-kubernetes-int-or-string"] == true {
		switch v.(type) {
		case string, int64, float64:
		default:
			return at("%s is neither an integer nor a string", jsonText(v))
		}
	} else {
		switch typ {
		case "string":
			if _, ok := v.(string); !ok {
				return at("%s is not a string", jsonText(v))
			}
		case "integer":
			if f, ok := number(v); !ok || f != math.Trunc(f) {
				return at("%s is not an integer", jsonText(v))
			}
		case "number":
			if _, ok := number(v); !ok {
				return at("%s is not a number", jsonText(v))
			}
		case "boolean":
			if _, ok := v.(bool); !ok {
				return at("%s is not a boolean", jsonText(v))
			}
		case "array":
			if _, ok := v.([]any); !ok {
				return at("%s is not an array", jsonText(v))
			}
		case "object":
			if _, ok := v.(map[string]any); !ok {
				return at("%s is not an object", jsonText(v))
			}
		}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return jsonText(e) == jsonText(v) }) {
		return at("%s is not one of the enum values %s", jsonText(v), jsonText(enum))
	}
	if f, ok := number(v); ok {
		if lo, ok := number(s["minimum"]); ok && f < lo {
			return at("%v is below the minimum %v", f, lo)
		}
		if hi, ok := number(s["maximum"]); ok && f > hi {
			return at("%v is above the maximum %v", f, hi)
		}
	}
	if str, ok := v.(string); ok {
		n := int64(utf8.RuneCountInString(str))
		if lo, ok := s["minLength"].(int64); ok && n < lo {
			return at("%q is shorter than minLength %d", str, lo)
		}
		if hi, ok := s["maxLength"].(int64); ok && n > hi {
			return at("%q is longer than maxLength %d", str, hi)
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err == nil && !re.MatchString(str) {
				return at("%q does not match the pattern %s", str, p)
			}
		}
	}
	if list, ok := v.([]any); ok {
		if lo, ok := s["minItems"].(int64); ok && int64(len(list)) < lo {
			return at("%d items are fewer than minItems %d", len(list), lo)
		}
		if hi, ok := s["maxItems"].(int64); ok && int64(len(list)) > hi {
			return at("%d items are more than maxItems %d", len(list), hi)
		}
		if items, ok := s["items"].(schema); ok {
			for i, e := range list {
				if err := validateValue(e, items, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := s["properties"].(schema)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			child := path + "." + k
			if p, ok := props[k].(schema); ok {
				if err := validateValue(obj[k], p, child); err != nil {
					return err
				}
			} else if ap, ok := s["additionalProperties"].(schema); ok {
				if err := validateValue(obj[k], ap, child); err != nil {
					return err
				}
			}
		}
		req, _ := s["required"].([]string)
		for _, r := range req {
			if _, ok := obj[r]; !ok {
				if p, ok := props[r].(schema); !ok || p["default"] == nil {
					return at("required field %s is missing", r)
				}
			}
		}
	}
	for _, sub := range anyList(s["allOf"]) {
		if err := validateValue(v, sub, path); err != nil {
			return err
		}
	}
	return nil
}

func anyList(v any) []schema {
	list, _ := v.([]any)
	out := make([]schema, 0, len(list))
	for _, e := range list {
		if s, ok := e.(schema); ok {
			out = append(out, s)
		}
	}
	return out
}
