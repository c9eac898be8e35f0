package crdgen

import (
	"go/types"
	"math"
	"regexp"
	"slices"
	"strings"
)

// The vocabulary: every marker crd-gen reads, each with its grammar (where it may appear, its value or
// named arguments) and what it does to a schema (its apply function), side by side. Adding a marker is
// a row here; a marker read outside schemas (a kind's resource, versions, packages) has no apply
// function and is read where that is built (crdgen.go, schema.go's isRequired).

// applyFunc applies one marker to the layer a markerContext is building.
type applyFunc func(c *markerContext, m *marker) error

// Ranks of markerDef.order: a marker's effect may depend on markers of a lower rank.
const (
	orderType               = -2 // the JSON type
	orderShape              = -1 // int-or-string and the list type, which later checks read
	orderValue              = 0  // everything else
	orderDefault            = 1  // +default, checked against everything else
	orderKubebuilderDefault = 2  // +kubebuilder:default, which wins over +default
)

// registry holds every marker crd-gen reads, by name.
var registry = func() map[string]*markerDef {
	defs := []*markerDef{
		// Requiredness, read by walker.isRequired, and nullability.
		{name: "kubebuilder:validation:Optional", where: onField | onPackage},
		{name: "kubebuilder:validation:Required", where: onField | onPackage},
		{name: "optional", where: onField},
		{name: "required", where: onField},
		{name: "k8s:optional", where: onField},
		{name: "k8s:required", where: onField, apply: nonEmpty},
		{name: "nullable", where: onField, key: "nullable", apply: setTrue("nullable")},

		// The shape of the value.
		{name: "kubebuilder:validation:EmbeddedResource", where: onField, key: "x-kubernetes-embedded-resource", apply: embeddedResource},
		{name: "kubebuilder:validation:Schemaless", where: onField}, // read by walker.fieldSchema
		{name: "kubebuilder:pruning:PreserveUnknownFields", where: onField | onType, key: "x-kubernetes-preserve-unknown-fields", apply: setTrue("x-kubernetes-preserve-unknown-fields")},
		{name: "listType", where: onField | onType, value: argString, key: "x-kubernetes-list-type", order: orderShape, apply: listType},
		{name: "k8s:listType", where: onField | onType, value: argString, key: "x-kubernetes-list-type", order: orderShape, apply: listType},
		{name: "listMapKey", where: onField | onType, value: argString, key: "x-kubernetes-list-map-keys", apply: listMapKey},
		{name: "k8s:listMapKey", where: onField | onType, value: argString, key: "x-kubernetes-list-map-keys", apply: listMapKey},
		{name: "mapType", where: onField | onType, value: argString, key: "x-kubernetes-map-type", apply: mapType},
		{name: "structType", where: onField | onType, value: argString, key: "x-kubernetes-map-type", apply: mapType},

		// CEL rules and the one-of constraints written as rules.
		{name: "kubebuilder:validation:XValidation", where: onField | onType, args: celArgs, required: []string{"rule"}, key: "x-kubernetes-validations", apply: xValidation},
		{name: "kubebuilder:validation:items:XValidation", where: onField | onType, args: celArgs, required: []string{"rule"}, items: true, key: "x-kubernetes-validations", apply: xValidation},
		{name: "kubebuilder:validation:ExactlyOneOf", where: onType, value: argStrings, apply: oneOfConstraint},
		{name: "kubebuilder:validation:AtMostOneOf", where: onType, value: argStrings, apply: oneOfConstraint},
		{name: "kubebuilder:validation:AtLeastOneOf", where: onType, value: argStrings, apply: oneOfConstraint},
		{name: "k8s:immutable", where: onField, key: "x-kubernetes-validations", apply: immutable},

		// Defaults, examples and documentation.
		{name: "default", where: onField | onType, value: argJSON, key: "default", order: orderDefault, apply: defaultValue},
		{name: "kubebuilder:default", where: onField | onType, value: argAny, key: "default", order: orderKubebuilderDefault, apply: defaultValue},
		{name: "kubebuilder:example", where: onField | onType, value: argAny, key: "example", apply: setValue("example")},
		{name: "kubebuilder:title", where: onField | onType, value: argString, key: "title", apply: setValue("title")},
		{name: "kubebuilder:externalDocs", where: onField | onType, args: map[string]argKind{"url": argString, "description": argString}, key: "externalDocs", apply: externalDocs},

		// Kinds and versions, read by buildCRD.
		{name: "kubebuilder:subresource:status", where: onType},
		{name: "kubebuilder:subresource:scale", where: onType, args: map[string]argKind{"specpath": argString, "statuspath": argString, "selectorpath": argString}, required: []string{"specpath", "statuspath"}},
		{name: "kubebuilder:printcolumn", where: onType, args: map[string]argKind{"name": argString, "type": argString, "JSONPath": argString, "description": argString, "format": argString, "priority": argInt}, required: []string{"name", "type", "JSONPath"}},
		{name: "kubebuilder:resource", where: onType, args: map[string]argKind{"path": argString, "shortName": argStrings, "categories": argStrings, "singular": argString, "scope": argString}},
		{name: "kubebuilder:storageversion", where: onType},
		{name: "kubebuilder:unservedversion", where: onType},
		{name: "kubebuilder:deprecatedversion", where: onType, args: map[string]argKind{"warning": argString}},
		{name: "kubebuilder:skipversion", where: onType},
		{name: "kubebuilder:selectablefield", where: onType, args: map[string]argKind{"JSONPath": argString}, required: []string{"JSONPath"}},
		{name: "kubebuilder:metadata", where: onType, args: map[string]argKind{"annotations": argStrings, "labels": argStrings}},

		// Packages, read by packageKinds.
		{name: "kubebuilder:skip", where: onPackage},
		{name: "groupName", where: onPackage, value: argString},
		{name: "versionName", where: onPackage, value: argString},

		// Kubernetes declarative validation tags with a schema counterpart (k8s:format is accepted and,
		// as before, sets nothing).
		{name: "k8s:minimum", where: onField | onType, value: argInt, key: "minimum", apply: bound("minimum")},
		{name: "k8s:maximum", where: onField | onType, value: argInt, key: "maximum", apply: bound("maximum")},
		{name: "k8s:minLength", where: onField | onType, value: argInt, key: "minLength", apply: count("minLength", "strings", textual)},
		{name: "k8s:maxLength", where: onField | onType, value: argInt, key: "maxLength", apply: count("maxLength", "strings", textual)},
		{name: "k8s:minItems", where: onField | onType, value: argInt, key: "minItems", apply: count("minItems", "arrays", isType("array"))},
		{name: "k8s:maxItems", where: onField | onType, value: argInt, key: "maxItems", apply: count("maxItems", "arrays", isType("array"))},
		{name: "k8s:minProperties", where: onField | onType, value: argInt, key: "minProperties", apply: count("minProperties", "objects", isType("object"))},
		{name: "k8s:maxProperties", where: onField | onType, value: argInt, key: "maxProperties", apply: count("maxProperties", "objects", isType("object"))},
		{name: "k8s:format", where: onField | onType, value: argString},
		{name: "k8s:enum", where: onType, key: "enum", apply: k8sEnum},
	}
	// The value validations, each as +kubebuilder:validation:Name and, on array items,
	// +kubebuilder:validation:items:Name.
	for _, v := range []markerDef{
		{name: "Minimum", value: argFloat, key: "minimum", apply: bound("minimum")},
		{name: "Maximum", value: argFloat, key: "maximum", apply: bound("maximum")},
		{name: "ExclusiveMinimum", value: argBool, key: "exclusiveMinimum", apply: exclusive("exclusiveMinimum")},
		{name: "ExclusiveMaximum", value: argBool, key: "exclusiveMaximum", apply: exclusive("exclusiveMaximum")},
		{name: "MultipleOf", value: argFloat, key: "multipleOf", apply: multipleOf},
		{name: "MinLength", value: argInt, key: "minLength", apply: count("minLength", "strings", textual)},
		{name: "MaxLength", value: argInt, key: "maxLength", apply: count("maxLength", "strings", textual)},
		{name: "Pattern", value: argString, key: "pattern", apply: pattern},
		{name: "MinItems", value: argInt, key: "minItems", apply: count("minItems", "arrays", isType("array"))},
		{name: "MaxItems", value: argInt, key: "maxItems", apply: count("maxItems", "arrays", isType("array"))},
		{name: "UniqueItems", value: argBool, key: "uniqueItems", apply: uniqueItems},
		{name: "MinProperties", value: argInt, key: "minProperties", apply: count("minProperties", "objects", isType("object"))},
		{name: "MaxProperties", value: argInt, key: "maxProperties", apply: count("maxProperties", "objects", isType("object"))},
		{name: "Enum", value: argAnyList, key: "enum", apply: setValue("enum")},
		{name: "Format", value: argString, key: "format", apply: format},
		{name: "Type", value: argString, key: "type", order: orderType, apply: typeMarker},
		{name: "XIntOrString", key: "x-kubernetes-int-or-string", order: orderShape, apply: setTrue("x-kubernetes-int-or-string")},
		{name: "XPreserveUnknownFields", key: "x-kubernetes-preserve-unknown-fields", apply: setTrue("x-kubernetes-preserve-unknown-fields")},
		{name: "XEmbeddedResource", key: "x-kubernetes-embedded-resource", apply: embeddedResource},
	} {
		v.where = onField | onType
		onItems := v
		v.name, onItems.name, onItems.items = "kubebuilder:validation:"+v.name, "kubebuilder:validation:items:"+v.name, true
		defs = append(defs, &v, &onItems)
	}
	out := map[string]*markerDef{}
	for _, d := range defs {
		out[d.name] = d
	}
	return out
}()

var celArgs = map[string]argKind{
	"rule": argString, "message": argString, "messageExpression": argString, "reason": argString,
	"fieldPath": argString, "optionalOldSelf": argBool,
}

// markerContext is what a marker is applied to: the layer of a field's or a type's markers over base,
// the schema they refine.
type markerContext struct {
	w *walker
	// n is the named type whose declaration carries the markers (nil for fields); pkg is the package
	// they are written in, which +default=ref(Name) refers to.
	n   *types.Named
	pkg *types.Package
	// base is the schema the layer refines; layer is the layer.
	base, layer schema
	// target is the node the current marker sets values in (the layer, or its items for an items:
	// marker); eff is the node target refines; typ is its JSON type.
	target, eff schema
	typ         string
	// oneOf collects the rules of the one-of markers, added after the XValidation rules.
	oneOf []any
}

// need reports that m applies to what only, unless ok.
func (c *markerContext) need(m *marker, ok bool, what string) error {
	if ok {
		return nil
	}
	found := c.typ
	if found == "" {
		found = "a value of any type"
	}
	return m.errorf("applies to %s, but the value is %s", what, found)
}

func numeric(c *markerContext) bool { return c.typ == "integer" || c.typ == "number" }

func textual(c *markerContext) bool { return c.typ == "string" || intOrString(c.eff, c.target) }

func isType(t string) func(*markerContext) bool {
	return func(c *markerContext) bool { return c.typ == t }
}

func setTrue(key string) applyFunc {
	return func(c *markerContext, m *marker) error {
		c.target[key] = true
		return nil
	}
}

func setValue(key string) applyFunc {
	return func(c *markerContext, m *marker) error {
		c.target[key] = m.value
		return nil
	}
}

// bound sets a number bound (minimum, maximum), an integer on integer values.
func bound(key string) applyFunc {
	return func(c *markerContext, m *marker) error {
		if err := c.need(m, numeric(c), "numbers"); err != nil {
			return err
		}
		var f float64
		switch v := m.value.(type) {
		case float64:
			f = v
		case int64:
			f = float64(v)
		}
		if c.typ == "integer" && f != math.Trunc(f) {
			return m.errorf("%v is not an integer, but the value is an integer", f)
		}
		c.target[key] = f
		return nil
	}
}

func multipleOf(c *markerContext, m *marker) error {
	if err := bound("multipleOf")(c, m); err != nil {
		return err
	}
	if c.target["multipleOf"].(float64) <= 0 {
		return m.errorf("must be positive")
	}
	return nil
}

func exclusive(key string) applyFunc {
	return func(c *markerContext, m *marker) error {
		if err := c.need(m, numeric(c), "numbers"); err != nil {
			return err
		}
		c.target[key] = m.value
		return nil
	}
}

// count sets a non-negative count (lengths, items, properties) on values applies accepts.
func count(key, what string, applies func(*markerContext) bool) applyFunc {
	return func(c *markerContext, m *marker) error {
		if err := c.need(m, applies(c), what); err != nil {
			return err
		}
		v := m.value.(int64)
		if v < 0 {
			return m.errorf("must not be negative")
		}
		c.target[key] = v
		return nil
	}
}

func pattern(c *markerContext, m *marker) error {
	if err := c.need(m, textual(c), "strings"); err != nil {
		return err
	}
	if _, err := regexp.Compile(m.value.(string)); err != nil {
		return m.errorf("the pattern does not compile: %v", err)
	}
	c.target["pattern"] = m.value
	return nil
}

func uniqueItems(c *markerContext, m *marker) error {
	if err := c.need(m, c.typ == "array", "arrays"); err != nil {
		return err
	}
	if m.value == true {
		return m.errorf("uniqueItems cannot be used in CRD schemas (the API server rejects it); use +listType=set")
	}
	return nil
}

func format(c *markerContext, m *marker) error {
	if err := c.need(m, textual(c), "strings"); err != nil {
		return err
	}
	c.target["format"] = m.value
	return nil
}

func typeMarker(c *markerContext, m *marker) error {
	switch m.value {
	case "string", "integer", "number", "boolean", "object", "array":
	default:
		return m.errorf("type must be one of string, integer, number, boolean, object, array")
	}
	c.target["type"] = m.value
	return nil
}

func embeddedResource(c *markerContext, m *marker) error {
	if err := c.need(m, c.typ == "object", "objects"); err != nil {
		return err
	}
	c.target["x-kubernetes-embedded-resource"] = true
	return nil
}

func xValidation(c *markerContext, m *marker) error {
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
		if err := checkFieldPath(fp, c.eff); err != nil {
			return m.errorf("fieldPath %s: %v", fp, err)
		}
	}
	if err := checkCEL(m, rule); err != nil {
		return err
	}
	rules, _ := c.target["x-kubernetes-validations"].([]any)
	c.target["x-kubernetes-validations"] = append(rules, rule)
	return nil
}

// oneOfConstraint collects the CEL rule of an ExactlyOneOf, AtMostOneOf or AtLeastOneOf marker (see layer).
func oneOfConstraint(c *markerContext, m *marker) error {
	r, err := oneOfRule(m, c.base)
	if err != nil {
		return err
	}
	c.oneOf = append(c.oneOf, r)
	return nil
}

func immutable(c *markerContext, m *marker) error {
	rules, _ := c.target["x-kubernetes-validations"].([]any)
	c.target["x-kubernetes-validations"] = append(rules, schema{"rule": "self == oldSelf", "message": "field is immutable"})
	return nil
}

func externalDocs(c *markerContext, m *marker) error {
	docs := schema{}
	for _, k := range []string{"url", "description"} {
		if v := m.str(k); v != "" {
			docs[k] = v
		}
	}
	c.target["externalDocs"] = docs
	return nil
}

// defaultValue sets +default (JSON, or ref(Name) of a constant) and +kubebuilder:default; the latter,
// applied last, wins.
func defaultValue(c *markerContext, m *marker) error {
	v := m.value
	if ref, ok := v.(refValue); ok {
		if c.pkg != nil && !c.w.src.prog.Editable(c.pkg.Path()) {
			// A dependency's ref() default (k8s.io/api's) is left out, as controller-gen leaves every
			// ref() out: the CRD keeps the server's behaviour for the type it embeds.
			return nil
		}
		resolved, err := c.w.resolveRef(ref, c.pkg, m)
		if err != nil {
			return err
		}
		v = resolved
	}
	if obj, ok := v.(map[string]any); ok && len(obj) == 0 && c.typ == "array" {
		v = []any{} // {} is controller-gen's spelling of an empty list
	}
	if m.name() == "default" {
		if _, set := c.target["default"]; set {
			return nil
		}
	}
	c.target["default"] = v
	c.target[defaultMarkerKey] = m
	return nil
}

func listType(c *markerContext, m *marker) error {
	if err := c.need(m, c.typ == "array", "arrays"); err != nil {
		return err
	}
	switch m.value {
	case "atomic", "set", "map":
	default:
		return m.errorf("must be atomic, set or map")
	}
	c.target["x-kubernetes-list-type"] = m.value
	c.target[listMarkerKey] = m
	return nil
}

func listMapKey(c *markerContext, m *marker) error {
	if err := c.need(m, c.typ == "array", "arrays"); err != nil {
		return err
	}
	keys, _ := c.target["x-kubernetes-list-map-keys"].([]any)
	if !slices.Contains(keys, any(m.value)) {
		c.target["x-kubernetes-list-map-keys"] = append(keys, m.value)
	}
	if _, ok := c.target[keyMarkerKey]; !ok {
		c.target[keyMarkerKey] = m
	}
	return nil
}

// mapType sets +mapType and +structType, which say the same of maps and structs.
func mapType(c *markerContext, m *marker) error {
	if err := c.need(m, c.typ == "object", "objects"); err != nil {
		return err
	}
	switch m.value {
	case "atomic", "granular":
	default:
		return m.errorf("must be atomic or granular")
	}
	c.target["x-kubernetes-map-type"] = m.value
	return nil
}

func k8sEnum(c *markerContext, m *marker) error {
	values, err := c.w.enumValues(c.n, m)
	if err != nil {
		return err
	}
	c.target["type"] = "string"
	c.target["enum"] = values
	return nil
}

// nonEmpty is +k8s:required's schema counterpart: a required string, list or map is not empty.
func nonEmpty(c *markerContext, m *marker) error {
	switch {
	case c.typ == "string" && c.eff["minLength"] == nil:
		c.target["minLength"] = int64(1)
	case c.typ == "array" && c.eff["minItems"] == nil:
		c.target["minItems"] = int64(1)
	case c.typ == "object" && c.eff["minProperties"] == nil && c.eff["x-kubernetes-preserve-unknown-fields"] != true:
		c.target["minProperties"] = int64(1)
	}
	return nil
}

// byKey reports whether m sets the schema keyword key (compared case-insensitively).
func byKey(m *marker, key string) bool { return m.def.key != "" && strings.EqualFold(m.def.key, key) }
