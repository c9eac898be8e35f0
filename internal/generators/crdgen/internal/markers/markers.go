// Package markers is crd-gen's marker grammar: it reads the +name, +name=value and
// +name:key=value,... tags of comments into markers of a Vocabulary, with their values converted to
// the kinds the definitions declare, and reports a malformed, misplaced or misspelt marker at its
// file:line. What a marker does is not its concern: crdgen's vocabulary table pairs each Def with its
// behaviour.
package markers

import (
	"encoding/json"
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Kind is the type of a marker's value or of one of its named arguments.
type Kind int

const (
	NoValue Kind = iota // a flag: +nullable
	String              // bare, "go-quoted" or `raw`
	Int                 // a Go integer
	Float               // a number
	Bool                // true or false
	Strings             // a;b;c or {a,b,c}
	Any                 // a JSON-ish literal: 5, foo, "x", {a:1}, {x,y}, true
	AnyList             // a;b;c of Any
	JSON                // strict JSON (+default=)
)

// Where a marker may appear: a set of these bits.
const (
	OnField = 1 << iota
	OnType
	OnPackage
)

// Def describes one marker's grammar.
type Def struct {
	Name string
	// Where is the set of places (OnField, OnType, OnPackage) the marker may appear.
	Where int
	// Value is the kind of the single value of +name=value (NoValue: none).
	Value Kind
	// Args are the named arguments of +name:key=value,key=value; Required lists those that must be set.
	Args     map[string]Kind
	Required []string
	// Items is set for the kubebuilder:validation:items:* variants: the marker applies to array items.
	Items bool
}

// Marker is one parsed marker occurrence.
type Marker struct {
	Def *Def
	// Value is the single value, Args the named arguments, converted to their kinds.
	Value any
	Args  map[string]any
	// Text is the tag as written, Pos its file:line.
	Text, Pos string
}

// Name is the name of the marker's definition.
func (m *Marker) Name() string { return m.Def.Name }

// Str returns named argument key as a string ("" when absent).
func (m *Marker) Str(key string) string {
	s, _ := m.Args[key].(string)
	return s
}

// Errorf reports a problem with the marker at its position, naming it.
func (m *Marker) Errorf(format string, args ...any) error {
	return &Error{Pos: m.Pos, Tag: m.Text, Problem: fmt.Sprintf(format, args...)}
}

// Error is a malformed, misplaced or contradictory marker at its source position.
type Error struct {
	// Pos is the file:line of the marker, Tag the marker as written.
	Pos, Tag string
	// Problem says what is wrong.
	Problem string
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("%s: %s: %s", e.Pos, e.Tag, e.Problem) }

// Vocabulary is a set of marker definitions, matched by name.
type Vocabulary struct {
	defs map[string]*Def
	// byLength lists the names longest first, so a marker matches its most specific name.
	byLength []string
}

// NewVocabulary returns the vocabulary of defs.
func NewVocabulary(defs []*Def) *Vocabulary {
	v := &Vocabulary{defs: make(map[string]*Def, len(defs))}
	for _, d := range defs {
		v.defs[d.Name] = d
		v.byLength = append(v.byLength, d.Name)
	}
	sort.Slice(v.byLength, func(i, j int) bool {
		names := v.byLength
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	return v
}

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

// Parse parses the tag lines of one comment, keeping the markers of the vocabulary. where says
// what the comment documents. In strict mode (input packages) a marker of the vocabulary found elsewhere,
// a kubebuilder marker crd-gen does not know (a misspelling), an unknown +k8s: validation tag or a
// malformed value is an error; otherwise (dependencies, which may use newer tags) such markers are
// skipped.
func (v *Vocabulary) Parse(lines []Line, where int, strict bool) ([]*Marker, error) {
	var out []*Marker
	for _, l := range lines {
		text := strings.TrimSpace(l.Text)
		if !strings.HasPrefix(text, "+") {
			continue
		}
		body := text[1:]
		m, err := v.parse(body, text, Position(l.Pos), strict)
		if err != nil && strict {
			return nil, err
		}
		if m == nil || err != nil {
			continue
		}
		if m.Def.Where&where == 0 {
			if !strict {
				continue
			}
			return nil, m.Errorf("not allowed on a %s (allowed on: %s)", whereName(where), whereNames(m.Def.Where))
		}
		out = append(out, m)
	}
	return out, nil
}

func whereName(w int) string {
	switch w {
	case OnField:
		return "field"
	case OnType:
		return "type"
	}
	return "package"
}

func whereNames(w int) string {
	var names []string
	for _, bit := range []int{OnField, OnType, OnPackage} {
		if w&bit != 0 {
			names = append(names, whereName(bit))
		}
	}
	return strings.Join(names, ", ")
}

// parse parses one tag without its "+"; nil means the tag is not of the vocabulary.
func (v *Vocabulary) parse(body, text, pos string, strictK8s bool) (*Marker, error) {
	if strings.HasPrefix(body, "k8s:") {
		// validation-gen: after " #" comes a comment.
		if i := strings.Index(body, " #"); i >= 0 {
			body = strings.TrimSpace(body[:i])
		}
	}
	var def *Def
	var rest string
	for _, name := range v.byLength {
		if r, ok := strings.CutPrefix(body, name); ok && (r == "" || r[0] == '=' || r[0] == ':') {
			def, rest = v.defs[name], r
			break
		}
	}
	if def == nil {
		return nil, v.unknown(body, text, pos, strictK8s)
	}
	if strings.HasPrefix(rest, ":=") {
		rest = rest[1:] // +name:=value is controller-gen's other spelling of +name=value
	}
	m := &Marker{Def: def, Text: text, Pos: pos, Args: map[string]any{}}
	bad := func(format string, args ...any) error { return m.Errorf(format, args...) }
	switch {
	case rest == "":
		if def.Value != NoValue && def.Args == nil {
			return nil, bad("needs a value")
		}
	case rest[0] == '=':
		if def.Value == NoValue {
			if def.Args != nil {
				return nil, bad("takes named arguments (+%s:key=value,...)", def.Name)
			}
			// +kubebuilder:validation:XIntOrString=true style flags are accepted when true.
			if v := strings.TrimSpace(rest[1:]); v != "true" {
				return nil, bad("takes no value")
			}
			break
		}
		v, err := ParseValue(strings.TrimSpace(rest[1:]), def.Value)
		if err != nil {
			return nil, bad("%v", err)
		}
		m.Value = v
	default: // ':'
		if def.Args == nil {
			return nil, bad("unknown marker (did you mean +%s%s?)", def.Name, map[bool]string{true: "", false: "=<value>"}[def.Value == NoValue])
		}
		if err := m.parseArgs(rest[1:]); err != nil {
			return nil, err
		}
	}
	if err := m.checkRequired(); err != nil {
		return nil, err
	}
	return m, nil
}

// ParseArgs parses args, the key=value,... text of a +name:key=value,... marker of def written as text
// at pos, checking the required arguments are there.
func ParseArgs(def *Def, args, text, pos string) (*Marker, error) {
	m := &Marker{Def: def, Text: text, Pos: pos, Args: map[string]any{}}
	if err := m.parseArgs(args); err != nil {
		return nil, err
	}
	if err := m.checkRequired(); err != nil {
		return nil, err
	}
	return m, nil
}

// parseArgs reads the named arguments key=value,... of m; a boolean's =true may be left out.
func (m *Marker) parseArgs(s string) error {
	parts, err := SplitTopLevel(s, ',')
	if err != nil {
		return m.Errorf("%v", err)
	}
	for _, p := range parts {
		key, val, ok := strings.Cut(p, "=")
		key = strings.TrimSpace(key)
		kind, known := m.Def.Args[key]
		if !known {
			return m.Errorf("unknown argument %q (known: %s)", key, strings.Join(sortedKeys(m.Def.Args), ", "))
		}
		if !ok {
			if kind != Bool {
				return m.Errorf("argument %s needs a value", key)
			}
			val = "true"
		}
		v, err := ParseValue(strings.TrimSpace(val), kind)
		if err != nil {
			return m.Errorf("argument %s: %v", key, err)
		}
		m.Args[key] = v
	}
	return nil
}

func (m *Marker) checkRequired() error {
	for _, r := range m.Def.Required {
		if _, ok := m.Args[r]; !ok {
			return m.Errorf("missing argument %s", r)
		}
	}
	return nil
}

// unknown decides whether a tag outside the vocabulary is an error.
func (v *Vocabulary) unknown(body, text, pos string, strictK8s bool) error {
	name, _, _ := strings.Cut(body, "=")
	switch {
	case strings.HasPrefix(name, "kubebuilder:"):
		for _, f := range foreignKubebuilder {
			if strings.HasPrefix(name, f) || name == strings.TrimSuffix(f, ":") {
				return nil
			}
		}
		return &Error{Pos: pos, Tag: text, Problem: "unknown kubebuilder marker" + v.suggestion(name)}
	case strings.HasPrefix(name, "k8s:") && strictK8s:
		base := strings.TrimPrefix(name, "k8s:")
		if i := strings.IndexAny(base, ":("); i >= 0 {
			base = base[:i]
		}
		if strings.Contains(base, "-gen") || strings.HasPrefix(base, "openapi") || strings.HasPrefix(base, "prerelease-lifecycle") ||
			slices.Contains(k8sIgnored, base) {
			return nil
		}
		return &Error{Pos: pos, Tag: text, Problem: "unknown +k8s: validation tag" + v.suggestion(name)}
	}
	return nil
}

// suggestion names the marker of the vocabulary closest to name, if one is close.
func (v *Vocabulary) suggestion(name string) string {
	best, bestDist := "", 4
	for _, n := range v.byLength {
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

// SplitTopLevel splits s at sep outside quotes, backticks and braces.
func SplitTopLevel(s string, sep byte) ([]string, error) {
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

// ParseValue converts a marker value to kind.
func ParseValue(s string, kind Kind) (any, error) {
	switch kind {
	case String:
		return parseString(s)
	case Int:
		n, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", s)
		}
		return n, nil
	case Float:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return f, nil
	case Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", s)
		}
		return b, nil
	case Strings:
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
	case AnyList:
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
	case Any:
		return parseAny(s)
	case JSON:
		if strings.HasPrefix(s, "ref(") {
			return RefValue(strings.TrimSuffix(strings.TrimPrefix(s, "ref("), ")")), nil
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("%q is not JSON: %v", s, err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("takes no value")
}

// RefValue is a +default=ref(Name) default (a JSON value's kind), resolved against the declaring
// package by the marker's user.
type RefValue string

// listParts splits a list value: {a,b,c} or a;b;c.
func listParts(s string) ([]string, error) {
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		return SplitTopLevel(s[1:len(s)-1], ',')
	}
	if s == "" {
		return nil, fmt.Errorf("empty list")
	}
	return SplitTopLevel(s, ';')
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
		parts, err := SplitTopLevel(inner, ',')
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
	if parts, _ := SplitTopLevel(s, ';'); len(parts) > 1 {
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
	parts, err := SplitTopLevel(s, ':')
	if err != nil || len(parts) < 2 {
		return s, "", false
	}
	return parts[0], s[len(parts[0])+1:], true
}

// Line is one line of a comment with the position it starts at.
type Line struct {
	Text string
	Pos  token.Position
}

// Position is p as a marker error names it: file:line.
func Position(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }
