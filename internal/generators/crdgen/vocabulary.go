package crdgen

import (
	"go/types"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/celcheck"
	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/markers"
)

// The vocabulary: every marker crd-gen reads, each with its grammar (where it may appear, its value or
// named arguments) and what it does to a schema (its apply function), side by side. Adding a marker is
// a row here; a marker read outside schemas (a kind's resource, versions, packages) has no apply
// function and is read where that is built (crdgen.go, schema.go's isRequired).

// markerDef is one marker of the vocabulary: its grammar and what it does.
type markerDef struct {
	markers.Def
	// key is the schema keyword the marker sets, by which errors found once a schema is complete name
	// it ("" when it sets none); order ranks markers whose effect later ones depend on (applied in
	// ascending order); apply applies the marker to a schema layer (nil for markers read elsewhere).
	key   string
	order int
	apply applyFunc
}

// applyFunc applies one marker to the layer a markerContext is building.
type applyFunc func(c *markerContext, m *markers.Marker) error

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
		{Def: markers.Def{Name: "kubebuilder:validation:Optional", Where: markers.OnField | markers.OnPackage}},
		{Def: markers.Def{Name: "kubebuilder:validation:Required", Where: markers.OnField | markers.OnPackage}},
		{Def: markers.Def{Name: "optional", Where: markers.OnField}},
		{Def: markers.Def{Name: "required", Where: markers.OnField}},
		{Def: markers.Def{Name: "k8s:optional", Where: markers.OnField}},
		{Def: markers.Def{Name: "k8s:required", Where: markers.OnField}, apply: nonEmpty},
		{Def: markers.Def{Name: "nullable", Where: markers.OnField}, key: "nullable", apply: setTrue("nullable")},

		// The shape of the value.
		{Def: markers.Def{Name: "kubebuilder:validation:EmbeddedResource", Where: markers.OnField}, key: "x-kubernetes-embedded-resource", apply: embeddedResource},
		{Def: markers.Def{Name: "kubebuilder:validation:Schemaless", Where: markers.OnField}}, // read by walker.fieldSchema
		{Def: markers.Def{Name: "kubebuilder:pruning:PreserveUnknownFields", Where: markers.OnField | markers.OnType}, key: "x-kubernetes-preserve-unknown-fields", apply: setTrue("x-kubernetes-preserve-unknown-fields")},
		{Def: markers.Def{Name: "listType", Where: markers.OnField | markers.OnType, Value: markers.String}, key: "x-kubernetes-list-type", order: orderShape, apply: listType},
		{Def: markers.Def{Name: "k8s:listType", Where: markers.OnField | markers.OnType, Value: markers.String}, key: "x-kubernetes-list-type", order: orderShape, apply: listType},
		{Def: markers.Def{Name: "listMapKey", Where: markers.OnField | markers.OnType, Value: markers.String}, key: "x-kubernetes-list-map-keys", apply: listMapKey},
		{Def: markers.Def{Name: "k8s:listMapKey", Where: markers.OnField | markers.OnType, Value: markers.String}, key: "x-kubernetes-list-map-keys", apply: listMapKey},
		{Def: markers.Def{Name: "mapType", Where: markers.OnField | markers.OnType, Value: markers.String}, key: "x-kubernetes-map-type", apply: mapType},
		{Def: markers.Def{Name: "structType", Where: markers.OnField | markers.OnType, Value: markers.String}, key: "x-kubernetes-map-type", apply: mapType},

		// CEL rules and the one-of constraints written as rules.
		{Def: markers.Def{Name: "kubebuilder:validation:XValidation", Where: markers.OnField | markers.OnType, Args: celArgs, Required: []string{"rule"}}, key: "x-kubernetes-validations", apply: xValidation},
		{Def: markers.Def{Name: "kubebuilder:validation:items:XValidation", Where: markers.OnField | markers.OnType, Args: celArgs, Required: []string{"rule"}, Items: true}, key: "x-kubernetes-validations", apply: xValidation},
		{Def: markers.Def{Name: "kubebuilder:validation:ExactlyOneOf", Where: markers.OnType, Value: markers.Strings}, apply: oneOfConstraint},
		{Def: markers.Def{Name: "kubebuilder:validation:AtMostOneOf", Where: markers.OnType, Value: markers.Strings}, apply: oneOfConstraint},
		{Def: markers.Def{Name: "kubebuilder:validation:AtLeastOneOf", Where: markers.OnType, Value: markers.Strings}, apply: oneOfConstraint},
		{Def: markers.Def{Name: "k8s:immutable", Where: markers.OnField}, key: "x-kubernetes-validations", apply: immutable},

		// Defaults, examples and documentation.
		{Def: markers.Def{Name: "default", Where: markers.OnField | markers.OnType, Value: markers.JSON}, key: "default", order: orderDefault, apply: defaultValue},
		{Def: markers.Def{Name: "kubebuilder:default", Where: markers.OnField | markers.OnType, Value: markers.Any}, key: "default", order: orderKubebuilderDefault, apply: defaultValue},
		{Def: markers.Def{Name: "kubebuilder:example", Where: markers.OnField | markers.OnType, Value: markers.Any}, key: "example", apply: setValue("example")},
		{Def: markers.Def{Name: "kubebuilder:title", Where: markers.OnField | markers.OnType, Value: markers.String}, key: "title", apply: setValue("title")},
		{Def: markers.Def{Name: "kubebuilder:externalDocs", Where: markers.OnField | markers.OnType, Args: map[string]markers.Kind{"url": markers.String, "description": markers.String}}, key: "externalDocs", apply: externalDocs},

		// Kinds and versions, read by buildCRD.
		{Def: markers.Def{Name: "kubebuilder:subresource:status", Where: markers.OnType}},
		{Def: markers.Def{Name: "kubebuilder:subresource:scale", Where: markers.OnType, Args: map[string]markers.Kind{"specpath": markers.String, "statuspath": markers.String, "selectorpath": markers.String}, Required: []string{"specpath", "statuspath"}}},
		{Def: markers.Def{Name: "kubebuilder:printcolumn", Where: markers.OnType, Args: map[string]markers.Kind{"name": markers.String, "type": markers.String, "JSONPath": markers.String, "description": markers.String, "format": markers.String, "priority": markers.Int}, Required: []string{"name", "type", "JSONPath"}}},
		{Def: markers.Def{Name: "kubebuilder:resource", Where: markers.OnType, Args: map[string]markers.Kind{"path": markers.String, "shortName": markers.Strings, "categories": markers.Strings, "singular": markers.String, "scope": markers.String}}},
		{Def: markers.Def{Name: "kubebuilder:storageversion", Where: markers.OnType}},
		{Def: markers.Def{Name: "kubebuilder:unservedversion", Where: markers.OnType}},
		{Def: markers.Def{Name: "kubebuilder:deprecatedversion", Where: markers.OnType, Args: map[string]markers.Kind{"warning": markers.String}}},
		{Def: markers.Def{Name: "kubebuilder:skipversion", Where: markers.OnType}},
		{Def: markers.Def{Name: "kubebuilder:selectablefield", Where: markers.OnType, Args: map[string]markers.Kind{"JSONPath": markers.String}, Required: []string{"JSONPath"}}},
		{Def: markers.Def{Name: "kubebuilder:metadata", Where: markers.OnType, Args: map[string]markers.Kind{"annotations": markers.Strings, "labels": markers.Strings}}},

		// Packages, read by packageKinds.
		{Def: markers.Def{Name: "kubebuilder:skip", Where: markers.OnPackage}},
		{Def: markers.Def{Name: "groupName", Where: markers.OnPackage, Value: markers.String}},
		{Def: markers.Def{Name: "versionName", Where: markers.OnPackage, Value: markers.String}},

		// Kubernetes declarative validation tags with a schema counterpart (k8s:format is accepted and,
		// as before, sets nothing).
		{Def: markers.Def{Name: "k8s:minimum", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "minimum", apply: bound("minimum")},
		{Def: markers.Def{Name: "k8s:maximum", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "maximum", apply: bound("maximum")},
		{Def: markers.Def{Name: "k8s:minLength", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "minLength", apply: count("minLength", "strings", textual)},
		{Def: markers.Def{Name: "k8s:maxLength", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "maxLength", apply: count("maxLength", "strings", textual)},
		{Def: markers.Def{Name: "k8s:minItems", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "minItems", apply: count("minItems", "arrays", isType("array"))},
		{Def: markers.Def{Name: "k8s:maxItems", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "maxItems", apply: count("maxItems", "arrays", isType("array"))},
		{Def: markers.Def{Name: "k8s:minProperties", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "minProperties", apply: count("minProperties", "objects", isType("object"))},
		{Def: markers.Def{Name: "k8s:maxProperties", Where: markers.OnField | markers.OnType, Value: markers.Int}, key: "maxProperties", apply: count("maxProperties", "objects", isType("object"))},
		{Def: markers.Def{Name: "k8s:format", Where: markers.OnField | markers.OnType, Value: markers.String}},
		{Def: markers.Def{Name: "k8s:enum", Where: markers.OnType}, key: "enum", apply: k8sEnum},
	}
	// The value validations, each as +kubebuilder:validation:Name and, on array items,
	// +kubebuilder:validation:items:Name.
	for _, v := range []markerDef{
		{Def: markers.Def{Name: "Minimum", Value: markers.Float}, key: "minimum", apply: bound("minimum")},
		{Def: markers.Def{Name: "Maximum", Value: markers.Float}, key: "maximum", apply: bound("maximum")},
		{Def: markers.Def{Name: "ExclusiveMinimum", Value: markers.Bool}, key: "exclusiveMinimum", apply: exclusive("exclusiveMinimum")},
		{Def: markers.Def{Name: "ExclusiveMaximum", Value: markers.Bool}, key: "exclusiveMaximum", apply: exclusive("exclusiveMaximum")},
		{Def: markers.Def{Name: "MultipleOf", Value: markers.Float}, key: "multipleOf", apply: multipleOf},
		{Def: markers.Def{Name: "MinLength", Value: markers.Int}, key: "minLength", apply: count("minLength", "strings", textual)},
		{Def: markers.Def{Name: "MaxLength", Value: markers.Int}, key: "maxLength", apply: count("maxLength", "strings", textual)},
		{Def: markers.Def{Name: "Pattern", Value: markers.String}, key: "pattern", apply: pattern},
		{Def: markers.Def{Name: "MinItems", Value: markers.Int}, key: "minItems", apply: count("minItems", "arrays", isType("array"))},
		{Def: markers.Def{Name: "MaxItems", Value: markers.Int}, key: "maxItems", apply: count("maxItems", "arrays", isType("array"))},
		{Def: markers.Def{Name: "UniqueItems", Value: markers.Bool}, key: "uniqueItems", apply: uniqueItems},
		{Def: markers.Def{Name: "MinProperties", Value: markers.Int}, key: "minProperties", apply: count("minProperties", "objects", isType("object"))},
		{Def: markers.Def{Name: "MaxProperties", Value: markers.Int}, key: "maxProperties", apply: count("maxProperties", "objects", isType("object"))},
		{Def: markers.Def{Name: "Enum", Value: markers.AnyList}, key: "enum", apply: setValue("enum")},
		{Def: markers.Def{Name: "Format", Value: markers.String}, key: "format", apply: format},
		{Def: markers.Def{Name: "Type", Value: markers.String}, key: "type", order: orderType, apply: typeMarker},
		{Def: markers.Def{Name: "XIntOrString"}, key: "x-kubernetes-int-or-string", order: orderShape, apply: setTrue("x-kubernetes-int-or-string")},
		{Def: markers.Def{Name: "XPreserveUnknownFields"}, key: "x-kubernetes-preserve-unknown-fields", apply: setTrue("x-kubernetes-preserve-unknown-fields")},
		{Def: markers.Def{Name: "XEmbeddedResource"}, key: "x-kubernetes-embedded-resource", apply: embeddedResource},
	} {
		v.Where = markers.OnField | markers.OnType
		onItems := v
		v.Name, onItems.Name, onItems.Items = "kubebuilder:validation:"+v.Name, "kubebuilder:validation:items:"+v.Name, true
		defs = append(defs, &v, &onItems)
	}
	out := map[string]*markerDef{}
	for _, d := range defs {
		out[d.Name] = d
	}
	return out
}()

// vocabulary is the grammar of the registry's markers.
var vocabulary = func() *markers.Vocabulary {
	defs := make([]*markers.Def, 0, len(registry))
	for _, d := range registry {
		defs = append(defs, &d.Def)
	}
	return markers.NewVocabulary(defs)
}()

// parseMarkers parses the markers of the vocabulary in a comment's lines (see markers.Vocabulary.Parse).
func parseMarkers(lines []markers.Line, where int, strict bool) ([]*markers.Marker, error) {
	return vocabulary.Parse(lines, where, strict)
}

// defOf returns the definition of a marker of the vocabulary.
func defOf(m *markers.Marker) *markerDef { return registry[m.Name()] }

var celArgs = map[string]markers.Kind{
	"rule": markers.String, "message": markers.String, "messageExpression": markers.String, "reason": markers.String,
	"fieldPath": markers.String, "optionalOldSelf": markers.Bool,
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
func (c *markerContext) need(m *markers.Marker, ok bool, what string) error {
	if ok {
		return nil
	}
	found := c.typ
	if found == "" {
		found = "a value of any type"
	}
	return m.Errorf("applies to %s, but the value is %s", what, found)
}

func numeric(c *markerContext) bool { return c.typ == "integer" || c.typ == "number" }

func textual(c *markerContext) bool { return c.typ == "string" || intOrString(c.eff, c.target) }

func isType(t string) func(*markerContext) bool {
	return func(c *markerContext) bool { return c.typ == t }
}

func setTrue(key string) applyFunc {
	return func(c *markerContext, m *markers.Marker) error {
		c.target[key] = true
		return nil
	}
}

func setValue(key string) applyFunc {
	return func(c *markerContext, m *markers.Marker) error {
		c.target[key] = m.Value
		return nil
	}
}

// bound sets a number bound (minimum, maximum), an integer on integer values.
func bound(key string) applyFunc {
	return func(c *markerContext, m *markers.Marker) error {
		if err := c.need(m, numeric(c), "numbers"); err != nil {
			return err
		}
		var f float64
		switch v := m.Value.(type) {
		case float64:
			f = v
		case int64:
			f = float64(v)
		}
		if c.typ == "integer" && f != math.Trunc(f) {
			return m.Errorf("%v is not an integer, but the value is an integer", f)
		}
		c.target[key] = f
		return nil
	}
}

func multipleOf(c *markerContext, m *markers.Marker) error {
	if err := bound("multipleOf")(c, m); err != nil {
		return err
	}
	if c.target["multipleOf"].(float64) <= 0 {
		return m.Errorf("must be positive")
	}
	return nil
}

func exclusive(key string) applyFunc {
	return func(c *markerContext, m *markers.Marker) error {
		if err := c.need(m, numeric(c), "numbers"); err != nil {
			return err
		}
		c.target[key] = m.Value
		return nil
	}
}

// count sets a non-negative count (lengths, items, properties) on values applies accepts.
func count(key, what string, applies func(*markerContext) bool) applyFunc {
	return func(c *markerContext, m *markers.Marker) error {
		if err := c.need(m, applies(c), what); err != nil {
			return err
		}
		v := m.Value.(int64)
		if v < 0 {
			return m.Errorf("must not be negative")
		}
		c.target[key] = v
		return nil
	}
}

func pattern(c *markerContext, m *markers.Marker) error {
	if err := c.need(m, textual(c), "strings"); err != nil {
		return err
	}
	if _, err := regexp.Compile(m.Value.(string)); err != nil {
		return m.Errorf("the pattern does not compile: %v", err)
	}
	c.target["pattern"] = m.Value
	return nil
}

func uniqueItems(c *markerContext, m *markers.Marker) error {
	if err := c.need(m, c.typ == "array", "arrays"); err != nil {
		return err
	}
	if m.Value == true {
		return m.Errorf("uniqueItems cannot be used in CRD schemas (the API server rejects it); use +listType=set")
	}
	return nil
}

func format(c *markerContext, m *markers.Marker) error {
	if err := c.need(m, textual(c), "strings"); err != nil {
		return err
	}
	c.target["format"] = m.Value
	return nil
}

func typeMarker(c *markerContext, m *markers.Marker) error {
	switch m.Value {
	case "string", "integer", "number", "boolean", "object", "array":
	default:
		return m.Errorf("type must be one of string, integer, number, boolean, object, array")
	}
	c.target["type"] = m.Value
	return nil
}

func embeddedResource(c *markerContext, m *markers.Marker) error {
	if err := c.need(m, c.typ == "object", "objects"); err != nil {
		return err
	}
	c.target["x-kubernetes-embedded-resource"] = true
	return nil
}

func xValidation(c *markerContext, m *markers.Marker) error {
	rule := schema{"rule": m.Str("rule")}
	for _, k := range []string{"message", "messageExpression", "fieldPath", "reason"} {
		if v := m.Str(k); v != "" {
			rule[k] = v
		}
	}
	if v, ok := m.Args["optionalOldSelf"].(bool); ok && v {
		rule["optionalOldSelf"] = true
	}
	switch r := m.Str("reason"); r {
	case "", "FieldValueRequired", "FieldValueInvalid", "FieldValueForbidden", "FieldValueDuplicate":
	default:
		return m.Errorf("reason %q must be FieldValueRequired, FieldValueInvalid, FieldValueForbidden or FieldValueDuplicate", r)
	}
	if fp := m.Str("fieldPath"); fp != "" {
		if err := checkFieldPath(fp, c.eff); err != nil {
			return m.Errorf("fieldPath %s: %v", fp, err)
		}
	}
	if err := celcheck.Check(m, rule); err != nil {
		return err
	}
	rules, _ := c.target["x-kubernetes-validations"].([]any)
	c.target["x-kubernetes-validations"] = append(rules, rule)
	return nil
}

// oneOfConstraint collects the CEL rule of an ExactlyOneOf, AtMostOneOf or AtLeastOneOf marker (see layer).
func oneOfConstraint(c *markerContext, m *markers.Marker) error {
	r, err := oneOfRule(m, c.base)
	if err != nil {
		return err
	}
	c.oneOf = append(c.oneOf, r)
	return nil
}

func immutable(c *markerContext, m *markers.Marker) error {
	rules, _ := c.target["x-kubernetes-validations"].([]any)
	c.target["x-kubernetes-validations"] = append(rules, schema{"rule": "self == oldSelf", "message": "field is immutable"})
	return nil
}

func externalDocs(c *markerContext, m *markers.Marker) error {
	docs := schema{}
	for _, k := range []string{"url", "description"} {
		if v := m.Str(k); v != "" {
			docs[k] = v
		}
	}
	c.target["externalDocs"] = docs
	return nil
}

// defaultValue sets +default (JSON, or ref(Name) of a constant) and +kubebuilder:default; the latter,
// applied last, wins.
func defaultValue(c *markerContext, m *markers.Marker) error {
	v := m.Value
	if ref, ok := v.(markers.RefValue); ok {
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
	if m.Name() == "default" {
		if _, set := c.target["default"]; set {
			return nil
		}
	}
	c.target["default"] = v
	c.target[defaultMarkerKey] = m
	return nil
}

func listType(c *markerContext, m *markers.Marker) error {
	if err := c.need(m, c.typ == "array", "arrays"); err != nil {
		return err
	}
	switch m.Value {
	case "atomic", "set", "map":
	default:
		return m.Errorf("must be atomic, set or map")
	}
	c.target["x-kubernetes-list-type"] = m.Value
	c.target[listMarkerKey] = m
	return nil
}

func listMapKey(c *markerContext, m *markers.Marker) error {
	if err := c.need(m, c.typ == "array", "arrays"); err != nil {
		return err
	}
	keys, _ := c.target["x-kubernetes-list-map-keys"].([]any)
	if !slices.Contains(keys, any(m.Value)) {
		c.target["x-kubernetes-list-map-keys"] = append(keys, m.Value)
	}
	if _, ok := c.target[keyMarkerKey]; !ok {
		c.target[keyMarkerKey] = m
	}
	return nil
}

// mapType sets +mapType and +structType, which say the same of maps and structs.
func mapType(c *markerContext, m *markers.Marker) error {
	if err := c.need(m, c.typ == "object", "objects"); err != nil {
		return err
	}
	switch m.Value {
	case "atomic", "granular":
	default:
		return m.Errorf("must be atomic or granular")
	}
	c.target["x-kubernetes-map-type"] = m.Value
	return nil
}

func k8sEnum(c *markerContext, m *markers.Marker) error {
	values, err := c.w.enumValues(c.n, m)
	if err != nil {
		return err
	}
	c.target["type"] = "string"
	c.target["enum"] = values
	return nil
}

// nonEmpty is +k8s:required's schema counterpart: a required string, list or map is not empty.
func nonEmpty(c *markerContext, m *markers.Marker) error {
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
func byKey(m *markers.Marker, key string) bool {
	d := defOf(m)
	return d.key != "" && strings.EqualFold(d.key, key)
}
