package crdgen

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/types"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// markerOrder ranks markers whose effect later ones depend on: the type and list type first, defaults
// last (they are checked against everything else).
func markerOrder(m *marker) int {
	switch strings.TrimPrefix(m.name(), "kubebuilder:validation:items:") {
	case "kubebuilder:validation:Type", "Type":
		return 0
	case "kubebuilder:validation:XIntOrString", "XIntOrString", "listType", "k8s:listType":
		return 1
	case "default":
		return 3
	case "kubebuilder:default":
		return 4
	}
	return 2
}

// canonical maps a marker to the schema key family it sets, merging the kubebuilder, items: and +k8s:
// spellings.
func canonical(m *marker) string {
	n := m.name()
	n = strings.TrimPrefix(n, "kubebuilder:validation:items:")
	n = strings.TrimPrefix(n, "kubebuilder:validation:")
	switch n {
	case "k8s:minimum":
		return "Minimum"
	case "k8s:maximum":
		return "Maximum"
	case "k8s:minLength":
		return "MinLength"
	case "k8s:maxLength":
		return "MaxLength"
	case "k8s:minItems":
		return "MinItems"
	case "k8s:maxItems":
		return "MaxItems"
	case "k8s:minProperties":
		return "MinProperties"
	case "k8s:maxProperties":
		return "MaxProperties"
	case "k8s:listType":
		return "listType"
	case "k8s:listMapKey":
		return "listMapKey"
	case "kubebuilder:pruning:PreserveUnknownFields":
		return "XPreserveUnknownFields"
	case "EmbeddedResource":
		return "XEmbeddedResource"
	}
	return n
}

// applyTypeMarkers applies a named type's markers to its schema s; pkg declares the type.
func (w *walker) applyTypeMarkers(s schema, ms []*marker, n *types.Named, pkg *types.Package, pos string) error {
	layer, err := w.layer(s, ms, n, pkg, pos)
	if err != nil {
		return err
	}
	merged, err := mergeLayers(s, layer, pos)
	if err != nil {
		return err
	}
	clear(s)
	for k, v := range merged {
		s[k] = v
	}
	return checkSchema(s, ms)
}

// layer applies markers to an empty schema, checking each against base, the schema they refine. n is the
// named type whose declaration carries the markers (nil for fields); pkg is the package they are written
// in, which +default=ref(Name) refers to.
func (w *walker) layer(base schema, ms []*marker, n *types.Named, pkg *types.Package, pos string) (schema, error) {
	ms = slices.Clone(ms)
	sort.SliceStable(ms, func(i, j int) bool { return markerOrder(ms[i]) < markerOrder(ms[j]) })
	layer := schema{}
	var oneOfRules []any
	for _, m := range ms {
		target, eff := layer, base
		if m.def.items {
			items, ok := base["items"].(schema)
			if typeOf(base, layer) != "array" || !ok {
				return nil, m.errorf("applies to array items, but the value is not an array")
			}
			sub, _ := layer["items"].(schema)
			if sub == nil {
				sub = schema{}
				layer["items"] = sub
			}
			target, eff = sub, items
		}
		if err := w.applyMarker(target, eff, m, n, pkg); err != nil {
			return nil, err
		}
		switch m.name() {
		case "kubebuilder:validation:AtMostOneOf", "kubebuilder:validation:ExactlyOneOf", "kubebuilder:validation:AtLeastOneOf":
			r, err := oneOfRule(m, base)
			if err != nil {
				return nil, err
			}
			oneOfRules = append(oneOfRules, r)
		}
	}
	if len(oneOfRules) > 0 {
		// In controller-gen's order: after the XValidation rules, at-most, exactly, at-least.
		rank := map[string]int{"at most": 0, "exactly": 1, "at least": 2}
		sort.SliceStable(oneOfRules, func(i, j int) bool {
			return rank[oneOfKind(oneOfRules[i])] < rank[oneOfKind(oneOfRules[j])]
		})
		rules, _ := layer["x-kubernetes-validations"].([]any)
		layer["x-kubernetes-validations"] = append(rules, oneOfRules...)
	}
	return layer, nil
}

func oneOfKind(r any) string {
	msg := r.(schema)["message"].(string)
	for _, k := range []string{"at most", "exactly", "at least"} {
		if strings.HasPrefix(msg, k) {
			return k
		}
	}
	return ""
}

// oneOfRule is the CEL rule of an ExactlyOneOf, AtMostOneOf or AtLeastOneOf marker over fields of base.
func oneOfRule(m *marker, base schema) (schema, error) {
	names := m.value.([]string)
	props, _ := base["properties"].(schema)
	for _, n := range names {
		if _, ok := props[n]; !ok {
			return nil, m.errorf("field %q is not a property of this type", n)
		}
		if req, _ := base["required"].([]string); slices.Contains(req, n) {
			return nil, m.errorf("field %q is required, so it cannot be part of a one-of constraint; mark it +optional", n)
		}
	}
	has := make([]string, len(names))
	for i, n := range names {
		has[i] = fmt.Sprintf("has(self.%s)", n)
	}
	counted := make([]string, len(names))
	for i, n := range names {
		counted[i] = fmt.Sprintf("(has(self.%s)?1:0)", n)
	}
	list := "[" + strings.Join(names, " ") + "]"
	switch m.name() {
	case "kubebuilder:validation:ExactlyOneOf":
		return schema{"rule": strings.Join(counted, "+") + " == 1", "message": "exactly one of the fields in " + list + " must be set"}, nil
	case "kubebuilder:validation:AtMostOneOf":
		return schema{"rule": strings.Join(counted, "+") + " <= 1", "message": "at most one of the fields in " + list + " may be set"}, nil
	}
	return schema{"rule": strings.Join(has, "||"), "message": "at least one of the fields in " + list + " must be set"}, nil
}

// typeOf is the JSON type of a schema refined by a layer.
func typeOf(base, layer schema) string {
	if t, ok := layer["type"].(string); ok {
		return t
	}
	t, _ := base["type"].(string)
	return t
}

func intOrString(base, layer schema) bool {
	return base["x-kubernetes-int-or-string"] == true || layer["x-kubernetes-int-or-string"] == true
}

// applyMarker applies one marker to target, checking it against eff, the schema target refines.
func (w *walker) applyMarker(target, eff schema, m *marker, n *types.Named, pkg *types.Package) error {
	typ := typeOf(eff, target)
	numeric := typ == "integer" || typ == "number"
	textual := typ == "string" || intOrString(eff, target)
	need := func(ok bool, what string) error {
		if ok {
			return nil
		}
		found := typ
		if found == "" {
			found = "a value of any type"
		}
		return m.errorf("applies to %s, but the value is %s", what, found)
	}
	number := func(key string) error {
		if err := need(numeric, "numbers"); err != nil {
			return err
		}
		var f float64
		switch v := m.value.(type) {
		case float64:
			f = v
		case int64:
			f = float64(v)
		}
		if typ == "integer" && f != math.Trunc(f) {
			return m.errorf("%v is not an integer, but the value is an integer", f)
		}
		target[key] = f
		return nil
	}
	count := func(key, what string, ok bool) error {
		if err := need(ok, what); err != nil {
			return err
		}
		v := m.value.(int64)
		if v < 0 {
			return m.errorf("must not be negative")
		}
		target[key] = v
		return nil
	}
	switch canonical(m) {
	case "Minimum":
		return number("minimum")
	case "Maximum":
		return number("maximum")
	case "MultipleOf":
		if err := number("multipleOf"); err != nil {
			return err
		}
		if target["multipleOf"].(float64) <= 0 {
			return m.errorf("must be positive")
		}
	case "ExclusiveMinimum", "ExclusiveMaximum":
		if err := need(numeric, "numbers"); err != nil {
			return err
		}
		target[lowerFirst(canonical(m))] = m.value
	case "MinLength":
		return count("minLength", "strings", textual)
	case "MaxLength":
		return count("maxLength", "strings", textual)
	case "Pattern":
		if err := need(textual, "strings"); err != nil {
			return err
		}
		if _, err := regexp.Compile(m.value.(string)); err != nil {
			return m.errorf("the pattern does not compile: %v", err)
		}
		target["pattern"] = m.value
	case "MinItems":
		return count("minItems", "arrays", typ == "array")
	case "MaxItems":
		return count("maxItems", "arrays", typ == "array")
	case "UniqueItems":
		if err := need(typ == "array", "arrays"); err != nil {
			return err
		}
		if m.value == true {
			return m.errorf("uniqueItems cannot be used in CRD schemas (the API server rejects it); use +listType=set")
		}
	case "MinProperties":
		return count("minProperties", "objects", typ == "object")
	case "MaxProperties":
		return count("maxProperties", "objects", typ == "object")
	case "Enum":
		target["enum"] = m.value
	case "Format":
		if err := need(textual, "strings"); err != nil {
			return err
		}
		target["format"] = m.value
	case "Type":
		switch m.value {
		case "string", "integer", "number", "boolean", "object", "array":
		default:
			return m.errorf("type must be one of string, integer, number, boolean, object, array")
		}
		target["type"] = m.value
	case "XIntOrString":
		target["x-kubernetes-int-or-string"] = true
	case "XPreserveUnknownFields":
		target["x-kubernetes-preserve-unknown-fields"] = true
	case "XEmbeddedResource":
		if err := need(typ == "object", "objects"); err != nil {
			return err
		}
		target["x-kubernetes-embedded-resource"] = true
	case "XValidation":
		rule := schema{"rule": m.str("rule")}
		for _, k := range []string{"message", "messageExpression", "fieldPath", "reason"} {
			if v := m.str(k); v != "" {
				rule[k] = v
			}
		}
		if v, ok := m.args["optionalOldSelf"].(bool); ok && v {
			rule["optionalOldSelf"] = true
		}
		switch r := m.str("reason"); r {
		case "", "FieldValueRequired", "FieldValueInvalid", "FieldValueForbidden", "FieldValueDuplicate":
		default:
			return m.errorf("reason %q must be FieldValueRequired, FieldValueInvalid, FieldValueForbidden or FieldValueDuplicate", r)
		}
		if fp := m.str("fieldPath"); fp != "" {
			if err := checkFieldPath(fp, eff); err != nil {
				return m.errorf("fieldPath %s: %v", fp, err)
			}
		}
		if err := checkCEL(m, rule); err != nil {
			return err
		}
		rules, _ := target["x-kubernetes-validations"].([]any)
		target["x-kubernetes-validations"] = append(rules, rule)
	case "nullable":
		target["nullable"] = true
	case "kubebuilder:title":
		target["title"] = m.value
	case "kubebuilder:externalDocs":
		docs := schema{}
		for _, k := range []string{"url", "description"} {
			if v := m.str(k); v != "" {
				docs[k] = v
			}
		}
		target["externalDocs"] = docs
	case "kubebuilder:example":
		target["example"] = m.value
	case "default", "kubebuilder:default":
		v := m.value
		if ref, ok := v.(refValue); ok {
			if pkg != nil && !w.src.prog.Editable(pkg.Path()) {
				// A dependency's ref() default (k8s.io/api's) is left out, as controller-gen leaves every
				// ref() out: the CRD keeps the server's behaviour for the type it embeds.
				return nil
			}
			resolved, err := w.resolveRef(ref, pkg, m)
			if err != nil {
				return err
			}
			v = resolved
		}
		if obj, ok := v.(map[string]any); ok && len(obj) == 0 && typ == "array" {
			v = []any{} // {} is controller-gen's spelling of an empty list
		}
		if m.name() == "default" {
			if _, set := target["default"]; set {
				return nil // +kubebuilder:default, applied last, wins
			}
		}
		target["default"] = v
		target[defaultMarkerKey] = m
	case "listType":
		if err := need(typ == "array", "arrays"); err != nil {
			return err
		}
		switch m.value {
		case "atomic", "set", "map":
		default:
			return m.errorf("must be atomic, set or map")
		}
		target["x-kubernetes-list-type"] = m.value
		target[listMarkerKey] = m
	case "listMapKey":
		if err := need(typ == "array", "arrays"); err != nil {
			return err
		}
		keys, _ := target["x-kubernetes-list-map-keys"].([]any)
		if !slices.Contains(keys, any(m.value)) {
			target["x-kubernetes-list-map-keys"] = append(keys, m.value)
		}
		if _, ok := target[keyMarkerKey]; !ok {
			target[keyMarkerKey] = m
		}
	case "mapType", "structType":
		if err := need(typ == "object", "objects"); err != nil {
			return err
		}
		switch m.value {
		case "atomic", "granular":
		default:
			return m.errorf("must be atomic or granular")
		}
		target["x-kubernetes-map-type"] = m.value
	case "k8s:enum":
		values, err := w.enumValues(n, m)
		if err != nil {
			return err
		}
		target["type"] = "string"
		target["enum"] = values
	case "k8s:required":
		switch {
		case typ == "string" && eff["minLength"] == nil:
			target["minLength"] = int64(1)
		case typ == "array" && eff["minItems"] == nil:
			target["minItems"] = int64(1)
		case typ == "object" && eff["minProperties"] == nil && eff["x-kubernetes-preserve-unknown-fields"] != true:
			target["minProperties"] = int64(1)
		}
	case "k8s:immutable":
		rules, _ := target["x-kubernetes-validations"].([]any)
		target["x-kubernetes-validations"] = append(rules, schema{"rule": "self == oldSelf", "message": "field is immutable"})
	}
	return nil
}

// Bookkeeping keys: the marker that set a value, for errors found once the schema is complete. They
// start with a character no schema key has and are removed before output.
const (
	defaultMarkerKey = "\x00default"
	listMarkerKey    = "\x00listType"
	keyMarkerKey     = "\x00listMapKey"
)

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// resolveRef resolves +default=ref(Name) to the value of constant Name of pkg, the package the marker is
// written in (or ref(import/path.Name)).
func (w *walker) resolveRef(ref refValue, pkg *types.Package, m *marker) (any, error) {
	name := string(ref)
	if dot := strings.LastIndex(name, "."); dot > 0 {
		p, err := w.src.prog.Import(name[:dot])
		if err != nil {
			return nil, m.errorf("%v", err)
		}
		pkg, name = p, name[dot+1:]
	}
	if pkg == nil {
		return nil, m.errorf("cannot resolve %s", ref)
	}
	pkg, err := w.src.complete(pkg)
	if err != nil {
		return nil, m.errorf("%v", err)
	}
	c, ok := pkg.Scope().Lookup(name).(*types.Const)
	if !ok {
		return nil, m.errorf("%s names no constant of %s", ref, pkg.Path())
	}
	return constantValue(c.Val()), nil
}

func constantValue(v constant.Value) any {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v)
	case constant.Bool:
		return constant.BoolVal(v)
	case constant.Int:
		if i, ok := constant.Int64Val(v); ok {
			return i
		}
	}
	f, _ := constant.Float64Val(v)
	return f
}

// enumValues lists the string constants of the named type n in its package, sorted by their JSON text.
func (w *walker) enumValues(n *types.Named, m *marker) ([]any, error) {
	if n == nil {
		return nil, m.errorf("must be set on a type, not a field")
	}
	if b, ok := n.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return nil, m.errorf("applies to string types, but %s is %s", n.Obj().Name(), n.Underlying())
	}
	pkg, err := w.src.complete(n.Obj().Pkg())
	if err != nil {
		return nil, m.errorf("%v", err)
	}
	scope := pkg.Scope()
	var texts []string
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(c.Type(), n) || c.Val().Kind() != constant.String {
			continue
		}
		b, _ := json.Marshal(constant.StringVal(c.Val()))
		texts = append(texts, string(b))
	}
	if len(texts) == 0 {
		return nil, m.errorf("type %s has no string constants to enumerate", n.Obj().Name())
	}
	sort.Strings(texts)
	texts = slices.Compact(texts)
	out := make([]any, len(texts))
	for i, t := range texts {
		var s string
		json.Unmarshal([]byte(t), &s)
		out[i] = s
	}
	return out, nil
}

// checkFieldPath checks that an x-kubernetes-validations fieldPath (".a.b", ".a['b']", ".list[0]")
// names a field of the schema the rule is on, as the API server requires.
func checkFieldPath(path string, s schema) error {
	rest := path
	if !strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "[") {
		return fmt.Errorf("must start with . or [")
	}
	for rest != "" {
		var name string
		switch {
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			name, rest = rest[:end], rest[end:]
		case strings.HasPrefix(rest, "['"):
			end := strings.Index(rest, "']")
			if end < 0 {
				return fmt.Errorf("unterminated ['")
			}
			name, rest = rest[2:end], rest[end+2:]
		case strings.HasPrefix(rest, "["):
			end := strings.Index(rest, "]")
			if end < 0 {
				return fmt.Errorf("unterminated [")
			}
			rest = rest[end+1:]
			items, ok := s["items"].(schema)
			if !ok {
				if ap, ok := s["additionalProperties"].(schema); ok {
					s = ap
					continue
				}
				return fmt.Errorf("indexes a value that is not a list or map")
			}
			s = items
			continue
		default:
			return fmt.Errorf("cannot parse %q", rest)
		}
		props, _ := s["properties"].(schema)
		p, ok := props[name].(schema)
		if !ok {
			if ap, ok := s["additionalProperties"].(schema); ok {
				s = ap
				continue
			}
			return fmt.Errorf("%q is not a field here", name)
		}
		s = p
	}
	return nil
}
