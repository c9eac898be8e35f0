// Package celcheck checks the x-kubernetes-validations rules of CRD schemas as the API server checks
// them when a CRD is created: compiled with its CEL environment against the structural schema of the
// node each rule is on, within its cost limits, each error at the rule's marker's file:line. Schemas
// are apiextensions.k8s.io/v1 JSONSchemaProps as generic JSON objects (map[string]any).
package celcheck

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/markers"
)

// The API server's limits on CEL cost (apiextensions validation's StaticEstimatedCostLimit and
// StaticEstimatedCRDCostLimit): one rule's or messageExpression's estimated cost, and all of one version
// schema's.
const (
	staticCostLimit = 10_000_000
	schemaCostLimit = 100_000_000
)

// ruleMarkerKey records, in a generated x-kubernetes-validations entry, the marker it came from.
const ruleMarkerKey = "\x00rule"

// schema is one schema node (see the package documentation).
type schema = map[string]any

// baseEnvSet is the API server's CEL environment, built once: building it costs more than compiling a
// CRD's rules.
var baseEnvSet = sync.OnceValue(func() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
})

// Check checks what can be checked of rule, the x-kubernetes-validations entry marker m writes, before
// its schema is complete, and records m in it (under a key output leaves out) for Compile's errors.
func Check(m *markers.Marker, rule schema) error {
	if strings.TrimSpace(rule["rule"].(string)) == "" {
		return m.Errorf("the rule is empty")
	}
	if strings.Contains(rule["rule"].(string), "\n") && rule["message"] == nil {
		return m.Errorf("a rule with line breaks needs a message")
	}
	rule[ruleMarkerKey] = m
	return nil
}

// Compile compiles every x-kubernetes-validations rule of a kind's finished schema as the API server
// does when the CRD is created: with its CEL environment and libraries, against the structural schema of
// the node the rule is on (self), and with its cost limits. A rule that does not compile, a
// messageExpression that does not compile, optionalOldSelf without oldSelf, a rule or messageExpression
// whose estimated cost exceeds the per-expression limit, and rules whose costs together exceed the limit
// for one schema are errors at the marker's file:line. As on the server, a rule's cost is multiplied by the
// number of times it can run: the product of the maxItems and maxProperties of the lists and maps around
// it, or, where one of those is unbounded, the most elements a request can hold.
// compiled holds the costs of the nodes whose rules compiled, by a fingerprint of what typeOnly keeps of
// them (and whether they are a root): a named type's rules travel with it to every use and every version,
// and compile once.
func Compile(root schema, compiled *Record) error {
	var total uint64
	var expensive []ruleCost // the rules adding at least 1 % of the schema's limit, most expensive first
	err := walkRules(root, true, one, func(node schema, rules []any, isRoot bool, runs *uint64) error {
		key := fmt.Sprintf("%t/%x", isRoot, compiled.prints.of(node))
		costs, ok := compiled.has(key)
		if !ok {
			b, err := json.Marshal(typeOnly(node))
			if err != nil {
				return err
			}
			structural, err := toStructural(b)
			if err != nil {
				// The API server reports a schema that is not structural itself; rules are only compiled on
				// structural schemas.
				return nil
			}
			decl := model.SchemaDeclType(structural, isRoot)
			results, err := cel.Compile(structural, decl, celconfig.PerCallLimit, baseEnvSet(), cel.NewExpressionsEnvLoader())
			if err != nil {
				return fmt.Errorf("compiling CEL rules: %w", err)
			}
			if err := ruleErrors(results, rules); err != nil {
				return err
			}
			costs = make([]ruleCost, len(results))
			for i, r := range results {
				costs[i] = ruleCost{Cost: r.MaxCost, Cardinality: r.MaxCardinality, MessageCost: r.MessageExpressionMaxCost}
			}
			compiled.add(key, costs)
		}
		for i, c := range costs {
			at := ruleAt(rules[i].(schema))
			cost := c.Cost
			if runs != nil {
				cost = timesSaturating(cost, *runs)
			} else {
				cost = timesSaturating(cost, c.Cardinality)
			}
			if cost > staticCostLimit {
				return at("the rule's estimated cost %d exceeds the API server's limit %d%s", cost, staticCostLimit, costHint(runs))
			}
			if c.MessageCost > staticCostLimit {
				return at("the messageExpression's estimated cost %d exceeds the API server's limit %d; bound the lists and strings it reads (maxItems, maxLength)", c.MessageCost, staticCostLimit)
			}
			for _, cost := range []uint64{cost, c.MessageCost} {
				total = plusSaturating(total, cost)
				if cost >= schemaCostLimit/100 {
					expensive = append(expensive, ruleCost{Cost: cost, rule: rules[i].(schema)})
				}
			}
		}
		return nil
	})
	if err != nil || total <= schemaCostLimit {
		return err
	}
	sort.SliceStable(expensive, func(i, j int) bool { return expensive[i].Cost > expensive[j].Cost })
	return ruleAt(expensive[0].rule)("the estimated cost of all the rules of the schema, %d, exceeds the API server's limit %d; this rule is the most expensive (%d)%s",
		total, schemaCostLimit, expensive[0].Cost, costHint(nil))
}

// ruleCost is what compiling a rule found about its cost.
type ruleCost struct {
	// Cost is the estimated cost of one run, Cardinality the most times it can run, as the compiler
	// estimates it from the largest request, and MessageCost the estimated cost of the messageExpression.
	Cost, Cardinality, MessageCost uint64
	rule                           schema // for the schema's most expensive rules
}

// one is the number of times a root's rules run.
var one = new(uint64(1))

// costHint says how to bring a rule's cost down.
func costHint(runs *uint64) string {
	if runs == nil {
		return "; it runs once per element of an unbounded list or map around it: bound them with maxItems or maxProperties, and the strings it reads with maxLength"
	}
	return "; bound the lists and strings it reads (maxItems, maxLength)"
}

// ruleAt returns the error constructor for a rule: at its marker's file:line when it has one.
func ruleAt(rule schema) func(format string, args ...any) error {
	m, _ := rule[ruleMarkerKey].(*markers.Marker)
	return func(format string, args ...any) error {
		if m != nil {
			return m.Errorf(format, args...)
		}
		return fmt.Errorf("rule %q: %s", rule["rule"], fmt.Sprintf(format, args...))
	}
}

// elementsOf is how many elements of each child a value of schema s can hold: a list's maxItems, a map's
// maxProperties, 1 for anything else, nil when unbounded.
func elementsOf(s schema) *uint64 {
	bound := func(key string) *uint64 {
		if n, ok := s[key].(int64); ok {
			return new(uint64(max(n, 0)))
		}
		return nil
	}
	switch {
	case s["type"] == "array":
		return bound("maxItems")
	case s["type"] == "object" && s["additionalProperties"] != nil:
		return bound("maxProperties")
	}
	return one
}

func timesSaturating(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

func plusSaturating(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
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
		switch {
		case r.Error != nil:
			return ruleAt(rule)("the rule does not compile: %s", r.Error.Detail)
		case r.MessageExpressionError != nil:
			return ruleAt(rule)("the messageExpression does not compile: %s", r.MessageExpressionError.Detail)
		case !r.UsesOldSelf && rule["optionalOldSelf"] == true:
			return ruleAt(rule)("optionalOldSelf is set but the rule does not use oldSelf")
		}
	}
	return nil
}

// walkRules calls fn for every node of the schema tree that has rules, with how many times its rules can
// run (runs, nil when unbounded): the product of the elements of the lists and maps it is in.
func walkRules(s schema, isRoot bool, runs *uint64, fn func(node schema, rules []any, isRoot bool, runs *uint64) error) error {
	if rules, ok := s["x-kubernetes-validations"].([]any); ok && len(rules) > 0 {
		if err := fn(s, rules, isRoot, runs); err != nil {
			return err
		}
	}
	childRuns := runs
	if elements := elementsOf(s); runs == nil || elements == nil {
		childRuns = nil
	} else if *elements != 1 {
		childRuns = new(timesSaturating(*runs, *elements))
	}
	if props, ok := s["properties"].(schema); ok {
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if err := walkRules(props[name].(schema), false, childRuns, fn); err != nil {
				return err
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if sub, ok := s[key].(schema); ok {
			if err := walkRules(sub, false, childRuns, fn); err != nil {
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

// fingerprints computes, safe for concurrent use, a SHA-256 digest of what typeOnly keeps of a schema
// node: equal digests for equal trees, and different ones, but for a collision of SHA-256, for trees whose
// typeOnly copies differ. Schema nodes are never changed once a finished tree holds them (see
// walker.named), so each map's digest is remembered by its identity, and a subtree shared by many nodes
// and CRDs is hashed once; a map's digest covers its children's digests.
type fingerprints struct {
	mu   sync.Mutex
	memo map[unsafe.Pointer][sha256.Size]byte
}

func newFingerprints() *fingerprints {
	return &fingerprints{memo: map[unsafe.Pointer][sha256.Size]byte{}}
}

// of returns the digest of the map s.
func (f *fingerprints) of(s map[string]any) [sha256.Size]byte {
	id := reflect.ValueOf(s).UnsafePointer()
	f.mu.Lock()
	d, ok := f.memo[id]
	f.mu.Unlock()
	if ok {
		return d
	}
	keys := make([]string, 0, len(s))
	for k, e := range s {
		if _, text := e.(string); k == "description" && text || strings.HasPrefix(k, "\x00") {
			continue // as typeOnly leaves them out
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	buf := []byte{'m'}
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, k := range keys {
		buf = appendText(buf, k)
		buf = f.appendValue(buf, s[k])
	}
	d = sha256.Sum256(buf)
	f.mu.Lock()
	f.memo[id] = d
	f.mu.Unlock()
	return d
}

// appendValue appends an unambiguous encoding of a value of a schema tree: its kind, then its content
// (a map by its digest).
func (f *fingerprints) appendValue(buf []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(buf, 'n')
	case map[string]any:
		if v == nil {
			return append(buf, 'N')
		}
		d := f.of(v)
		return append(append(buf, 'M'), d[:]...)
	case []any:
		if v == nil {
			return append(buf, 'L')
		}
		buf = append(buf, 'l')
		buf = binary.AppendUvarint(buf, uint64(len(v)))
		for _, e := range v {
			buf = f.appendValue(buf, e)
		}
		return buf
	case []string:
		if v == nil {
			return append(buf, 'S')
		}
		buf = append(buf, 's')
		buf = binary.AppendUvarint(buf, uint64(len(v)))
		for _, e := range v {
			buf = appendText(buf, e)
		}
		return buf
	case string:
		return appendText(append(buf, 't'), v)
	case bool:
		if v {
			return append(buf, 'T')
		}
		return append(buf, 'F')
	case int64:
		return binary.AppendVarint(append(buf, 'i'), v)
	case float64:
		return binary.BigEndian.AppendUint64(append(buf, 'f'), math.Float64bits(v))
	}
	// Anything else by its JSON, as typeOnly's copy is encoded.
	b, err := json.Marshal(v)
	if err != nil {
		b = fmt.Appendf(nil, "%T %#v", v, v)
	}
	return appendText(append(buf, 'j'), string(b))
}

// appendText appends a string with its length.
func appendText(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}
