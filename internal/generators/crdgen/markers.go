package crdgen

import (
	"encoding/json"
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// argKind is the type of a marker's value or of one of its named arguments.
type argKind int

const (
	argNone    argKind = iota // a flag: +nullable
	argString                 // bare, "go-quoted" or `raw`
	argInt                    // a Go integer
	argFloat                  // a number
	argBool                   // true or false
	argStrings                // a;b;c or {a,b,c}
	argAny                    // a JSON-ish literal: 5, foo, "x", {a:1}, {x,y}, true
	argAnyList                // a;b;c of argAny
	argJSON                   // strict JSON (+default=)
)

// where a marker may appear.
const (
	onField = 1 << iota
	onType
	onPackage
)

// markerDef describes one marker of the vocabulary crd-gen reads.
type markerDef struct {
	name  string
	where int
	// value is the kind of the single value of +name=value (argNone: no value).
	value argKind
	// args are the named arguments of +name:key=value,key=value; required lists those that must be set.
	args     map[string]argKind
	required []string
	// items is set for the kubebuilder:validation:items:* variants: the marker applies to array items.
	items bool

	// What the marker does (vocabulary.go). key is the schema keyword the marker sets, by which errors
	// found once a schema is complete name it ("" when it sets none); order ranks markers whose effect
	// later ones depend on (applied in ascending order); apply applies the marker to a schema layer
	// (nil for markers read elsewhere: requiredness, kinds, versions, packages).
	key   string
	order int
	apply applyFunc
}

// marker is one parsed marker occurrence.
type marker struct {
	def *markerDef
	// value is the single value, args the named arguments, converted to their kinds.
	value any
	args  map[string]any
	// text is the tag as written, pos its file:line.
	text, pos string
}

func (m *marker) name() string { return m.def.name }

// str returns named argument key as a string ("" when absent).
func (m *marker) str(key string) string {
	s, _ := m.args[key].(string)
	return s
}

// errorf reports a problem with the marker at its position, naming it.
func (m *marker) errorf(format string, args ...any) error {
	return &markerError{Pos: m.pos, Tag: m.text, Problem: fmt.Sprintf(format, args...)}
}

// markerError is a malformed, misplaced or contradictory marker at its source position.
type markerError struct {
	// Pos is the file:line of the marker, Tag the marker as written.
	Pos, Tag string
	// Problem says what is wrong.
	Problem string
}

// Error implements error.
func (e *markerError) Error() string { return fmt.Sprintf("%s: %s: %s", e.Pos, e.Tag, e.Problem) }

// byLength lists the registry's names longest first, so a marker matches its most specific name.
var byLength = func() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	return names
}()

// foreignKubebuilder are kubebuilder marker families other tools (controller-gen's object, rbac, webhook
// and apply-configuration generators) read: crd-gen ignores them instead of calling them misspelt.
var foreignKubebuilder = []string{"kubebuilder:object:", "kubebuilder:rbac:", "kubebuilder:webhook:", "kubebuilder:ac:",
	"kubebuilder:webhookconfiguration:", "kubebuilder:docs-gen:", "kubebuilder:object:root", "kubebuilder:skipclient"}

// k8sIgnored are +k8s: tags crd-gen knows but that have no CRD schema counterpart (validation-gen
// enforces them in Go; the schema cannot say them).
var k8sIgnored = []string{
	"forbidden", "maxBytes", "unique", "customUnique", "update", "monotonic", "neq", "unionDiscriminator",
	"unionMember", "zeroOrOneOfMember", "dependentRequired", "dependentForbidden", "modeDiscriminator", "ifMode",
	"eachVal", "eachKey", "item", "subfield", "opaqueType", "customValidation", "alpha", "beta", "ifEnabled",
	"ifDisabled", "enumExclude", "isSubresource", "supportsSubresource", "declarativeValidationNative",
}

// parseMarkers parses the tag lines of one comment, keeping the markers of the vocabulary. where says
// what the comment documents. In strict mode (input packages) a marker of the vocabulary found elsewhere,
// a kubebuilder marker crd-gen does not know (a misspelling), an unknown +k8s: validation tag or a
// malformed value is an error; otherwise (dependencies, which may use newer tags) such markers are
// skipped.
func parseMarkers(lines []commentLine, where int, strict bool) ([]*marker, error) {
	var out []*marker
	for _, l := range lines {
		text := strings.TrimSpace(l.text)
		if !strings.HasPrefix(text, "+") {
			continue
		}
		body := text[1:]
		m, err := parseMarker(body, text, position(l.pos), strict)
		if err != nil && strict {
			return nil, err
		}
		if m == nil || err != nil {
			continue
		}
		if m.def.where&where == 0 {
			if !strict {
				continue
			}
			return nil, m.errorf("not allowed on a %s (allowed on: %s)", whereName(where), whereNames(m.def.where))
		}
		out = append(out, m)
	}
	return out, nil
}

func whereName(w int) string {
	switch w {
	case onField:
		return "field"
	case onType:
		return "type"
	}
	return "package"
}

func whereNames(w int) string {
	var names []string
	for _, bit := range []int{onField, onType, onPackage} {
		if w&bit != 0 {
			names = append(names, whereName(bit))
		}
	}
	return strings.Join(names, ", ")
}

// parseMarker parses one tag without its "+"; nil means the tag is not crd-gen's.
func parseMarker(body, text, pos string, strictK8s bool) (*marker, error) {
	if strings.HasPrefix(body, "k8s:") {
		// validation-gen: after " #" comes a comment.
		if i := strings.Index(body, " #"); i >= 0 {
			body = strings.TrimSpace(body[:i])
		}
	}
	var def *markerDef
	var rest string
	for _, name := range byLength {
		if r, ok := strings.CutPrefix(body, name); ok && (r == "" || r[0] == '=' || r[0] == ':') {
			def, rest = registry[name], r
			break
		}
	}
	if def == nil {
		return nil, unknownMarker(body, text, pos, strictK8s)
	}
	if strings.HasPrefix(rest, ":=") {
		rest = rest[1:] // +name:=value is controller-gen's other spelling of +name=value
	}
	m := &marker{def: def, text: text, pos: pos, args: map[string]any{}}
	bad := func(format string, args ...any) error { return m.errorf(format, args...) }
	switch {
	case rest == "":
		if def.value != argNone && def.args == nil {
			return nil, bad("needs a value")
		}
	case rest[0] == '=':
		if def.value == argNone {
			if def.args != nil {
				return nil, bad("takes named arguments (+%s:key=value,...)", def.name)
			}
			// +kubebuilder:validation:XIntOrString=true style flags are accepted when true.
			if v := strings.TrimSpace(rest[1:]); v != "true" {
				return nil, bad("takes no value")
			}
			break
		}
		v, err := parseValue(strings.TrimSpace(rest[1:]), def.value)
		if err != nil {
			return nil, bad("%v", err)
		}
		m.value = v
	default: // ':'
		if def.args == nil {
			return nil, bad("unknown marker (did you mean +%s%s?)", def.name, map[bool]string{true: "", false: "=<value>"}[def.value == argNone])
		}
		parts, err := splitTopLevel(rest[1:], ',')
		if err != nil {
			return nil, bad("%v", err)
		}
		for _, p := range parts {
			key, val, ok := strings.Cut(p, "=")
			key = strings.TrimSpace(key)
			kind, known := def.args[key]
			if !known {
				return nil, bad("unknown argument %q (known: %s)", key, strings.Join(sortedKeys(def.args), ", "))
			}
			if !ok {
				if kind != argBool {
					return nil, bad("argument %s needs a value", key)
				}
				val = "true"
			}
			v, err := parseValue(strings.TrimSpace(val), kind)
			if err != nil {
				return nil, bad("argument %s: %v", key, err)
			}
			m.args[key] = v
		}
	}
	for _, r := range def.required {
		if _, ok := m.args[r]; !ok {
			return nil, bad("missing argument %s", r)
		}
	}
	return m, nil
}

// unknownMarker decides whether a tag outside the vocabulary is an error.
func unknownMarker(body, text, pos string, strictK8s bool) error {
	name, _, _ := strings.Cut(body, "=")
	switch {
	case strings.HasPrefix(name, "kubebuilder:"):
		for _, f := range foreignKubebuilder {
			if strings.HasPrefix(name, f) || name == strings.TrimSuffix(f, ":") {
				return nil
			}
		}
		return &markerError{Pos: pos, Tag: text, Problem: "unknown kubebuilder marker" + suggestion(name)}
	case strings.HasPrefix(name, "k8s:") && strictK8s:
		base := strings.TrimPrefix(name, "k8s:")
		if i := strings.IndexAny(base, ":("); i >= 0 {
			base = base[:i]
		}
		if strings.Contains(base, "-gen") || strings.HasPrefix(base, "openapi") || strings.HasPrefix(base, "prerelease-lifecycle") ||
			slices.Contains(k8sIgnored, base) {
			return nil
		}
		return &markerError{Pos: pos, Tag: text, Problem: "unknown +k8s: validation tag" + suggestion(name)}
	}
	return nil
}

// suggestion names the registered marker closest to name, if one is close.
func suggestion(name string) string {
	best, bestDist := "", 4
	for _, n := range byLength {
		if d := editDistance(strings.ToLower(n), strings.ToLower(name)); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean +%s?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// splitTopLevel splits s at sep outside quotes, backticks and braces.
func splitTopLevel(s string, sep byte) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' {
					j++
				}
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			i = j
		case '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return nil, fmt.Errorf("unterminated raw string in %q", s)
			}
			i += j + 1
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced } in %q", s)
			}
		default:
			if c == sep && depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced { in %q", s)
	}
	return append(out, s[start:]), nil
}

// parseValue converts a marker value to kind.
func parseValue(s string, kind argKind) (any, error) {
	switch kind {
	case argString:
		return parseString(s)
	case argInt:
		n, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", s)
		}
		return n, nil
	case argFloat:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return f, nil
	case argBool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", s)
		}
		return b, nil
	case argStrings:
		parts, err := listParts(s)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(parts))
		for i, p := range parts {
			if out[i], err = parseString(strings.TrimSpace(p)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case argAnyList:
		parts, err := listParts(s)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			if out[i], err = parseAny(strings.TrimSpace(p)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case argAny:
		return parseAny(s)
	case argJSON:
		if strings.HasPrefix(s, "ref(") {
			return refValue(strings.TrimSuffix(strings.TrimPrefix(s, "ref("), ")")), nil
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("%q is not JSON: %v", s, err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("takes no value")
}

// refValue is a +default=ref(Name) default, resolved against the declaring package later.
type refValue string

// listParts splits a list value: {a,b,c} or a;b;c.
func listParts(s string) ([]string, error) {
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		return splitTopLevel(s[1:len(s)-1], ',')
	}
	if s == "" {
		return nil, fmt.Errorf("empty list")
	}
	return splitTopLevel(s, ';')
}

// parseString reads a bare, "quoted" or `raw` string.
func parseString(s string) (string, error) {
	switch {
	case strings.HasPrefix(s, `"`):
		v, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("bad quoted string %s", s)
		}
		return v, nil
	case strings.HasPrefix(s, "`"):
		if len(s) < 2 || !strings.HasSuffix(s, "`") {
			return "", fmt.Errorf("bad raw string %s", s)
		}
		return s[1 : len(s)-1], nil
	}
	return s, nil
}

// parseAny reads controller-gen's loose literal syntax: numbers, true/false, null, quoted or bare strings,
// {k:v,...} objects and {a,b} or a;b lists.
func parseAny(s string) (any, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return nil, fmt.Errorf("needs a value")
	case s == "true" || s == "false":
		return s == "true", nil
	case s == "null":
		return nil, nil
	case strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "`"):
		return parseString(s)
	case strings.HasPrefix(s, "{"):
		if !strings.HasSuffix(s, "}") {
			return nil, fmt.Errorf("unbalanced { in %q", s)
		}
		inner := strings.TrimSpace(s[1 : len(s)-1])
		if inner == "" {
			return map[string]any{}, nil
		}
		parts, err := splitTopLevel(inner, ',')
		if err != nil {
			return nil, err
		}
		if key, _, isMap := cutTopLevelColon(parts[0]); isMap && !strings.HasPrefix(strings.TrimSpace(key), "{") {
			obj := map[string]any{}
			for _, p := range parts {
				k, v, ok := cutTopLevelColon(p)
				if !ok {
					return nil, fmt.Errorf("%q: every entry of an object needs key:value", s)
				}
				key, err := parseString(strings.TrimSpace(k))
				if err != nil {
					return nil, err
				}
				if obj[key], err = parseAny(v); err != nil {
					return nil, err
				}
			}
			return obj, nil
		}
		list := make([]any, len(parts))
		for i, p := range parts {
			if list[i], err = parseAny(p); err != nil {
				return nil, err
			}
		}
		return list, nil
	}
	if parts, _ := splitTopLevel(s, ';'); len(parts) > 1 {
		list := make([]any, len(parts))
		for i, p := range parts {
			var err error
			if list[i], err = parseAny(p); err != nil {
				return nil, err
			}
		}
		return list, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, nil
	}
	return s, nil
}

// cutTopLevelColon splits "key:value" at the first colon outside quotes and braces.
func cutTopLevelColon(s string) (string, string, bool) {
	parts, err := splitTopLevel(s, ':')
	if err != nil || len(parts) < 2 {
		return s, "", false
	}
	return parts[0], s[len(parts[0])+1:], true
}

// commentLine is one line of a comment with the position it starts at.
type commentLine struct {
	text string
	pos  token.Position
}

func position(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }
