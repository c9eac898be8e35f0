package crdgen

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// staticCostLimit is the API server's limit on one rule's estimated cost
// (apiextensions validation's StaticEstimatedCostLimit).
const staticCostLimit = 10000000

// ruleMarkerKey records, in a generated x-kubernetes-validations entry, the marker it came from.
const ruleMarkerKey = "\x00rule"

// baseEnvSet is the API server's CEL environment, built once: building it costs more than compiling a
// CRD's rules.
var baseEnvSet = sync.OnceValue(func() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
})

// checkCEL checks what can be checked of a rule before its schema is complete.
func checkCEL(m *marker, rule schema) error {
	if strings.TrimSpace(rule["rule"].(string)) == "" {
		return m.errorf("the rule is empty")
	}
	if strings.Contains(rule["rule"].(string), "\n") && rule["message"] == nil {
		return m.errorf("a rule with line breaks needs a message")
	}
	rule[ruleMarkerKey] = m
	return nil
}

// compileRules compiles every x-kubernetes-validations rule of a kind's finished schema as the API server
// does when the CRD is created: with its CEL environment and libraries, against the structural schema of
// the node the rule is on (self), and with its per-rule cost limit. A rule that does not compile, a
// messageExpression that does not compile, optionalOldSelf without oldSelf and a rule whose estimated cost
// alone exceeds the limit are errors at the marker's file:line.
// compiled holds the nodes whose rules compiled, by their JSON (and whether they are a root): a named type's
// rules travel with it to every use and every version, and compile once.
func compileRules(root schema, compiled *compiledRules) error {
	envSet := baseEnvSet()
	return walkRules(root, true, func(node schema, rules []any, isRoot bool) error {
		b, err := json.Marshal(typeOnly(node))
		if err != nil {
			return err
		}
		key := fmt.Sprintf("%t/%s", isRoot, b)
		if compiled.has(key) {
			return nil
		}
		structural, err := toStructural(b)
		if err != nil {
			// The API server reports a schema that is not structural itself; rules are only compiled on
			// structural schemas.
			return nil
		}
		decl := model.SchemaDeclType(structural, isRoot)
		results, err := cel.Compile(structural, decl, celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
		if err != nil {
			return fmt.Errorf("compiling CEL rules: %w", err)
		}
		if err := ruleErrors(results, rules); err != nil {
			return err
		}
		compiled.add(key)
		return nil
	})
}

// typeOnly copies the schema tree v without what cannot change how its rules compile: descriptions
// (most of a documented schema's bytes) and the walker's bookkeeping.
func typeOnly(v any) any {
	switch v := v.(type) {
	case schema:
		out := make(schema, len(v))
		for k, e := range v {
			if _, text := e.(string); k == "description" && text || strings.HasPrefix(k, "\x00") {
				continue // a field called description is a schema, not text
			}
			out[k] = typeOnly(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = typeOnly(e)
		}
		return out
	}
	return v
}

// ruleErrors reports the first problem of a node's compiled rules at its marker.
func ruleErrors(results []cel.CompilationResult, rules []any) error {
	for i, r := range results {
		rule := rules[i].(schema)
		m, _ := rule[ruleMarkerKey].(*marker)
		at := func(format string, args ...any) error {
			if m != nil {
				return m.errorf(format, args...)
			}
			return fmt.Errorf("rule %q: %s", rule["rule"], fmt.Sprintf(format, args...))
		}
		switch {
		case r.Error != nil:
			return at("the rule does not compile: %s", r.Error.Detail)
		case r.MessageExpressionError != nil:
			return at("the messageExpression does not compile: %s", r.MessageExpressionError.Detail)
		case r.MaxCost > staticCostLimit:
			return at("the rule's estimated cost %d exceeds the API server's limit %d; bound the lists and strings it reads (maxItems, maxLength)", r.MaxCost, staticCostLimit)
		case !r.UsesOldSelf && rule["optionalOldSelf"] == true:
			return at("optionalOldSelf is set but the rule does not use oldSelf")
		}
	}
	return nil
}

// walkRules calls fn for every node of the schema tree that has rules.
func walkRules(s schema, isRoot bool, fn func(node schema, rules []any, isRoot bool) error) error {
	if rules, ok := s["x-kubernetes-validations"].([]any); ok && len(rules) > 0 {
		if err := fn(s, rules, isRoot); err != nil {
			return err
		}
	}
	if props, ok := s["properties"].(schema); ok {
		for _, name := range sortedKeys(props) {
			if err := walkRules(props[name].(schema), false, fn); err != nil {
				return err
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if sub, ok := s[key].(schema); ok {
			if err := walkRules(sub, false, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// toStructural converts a schema, as JSON, to the API server's structural schema.
func toStructural(b []byte) (*structuralschema.Structural, error) {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(b, &v1); err != nil {
		return nil, err
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		return nil, err
	}
	return structuralschema.NewStructural(&internal)
}
