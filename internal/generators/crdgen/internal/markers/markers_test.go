package markers

import (
	"go/token"
	"reflect"
	"strings"
	"testing"
)

var testVocabulary = NewVocabulary([]*Def{
	{Name: "min", Where: OnField, Value: Int},
	{Name: "kubebuilder:validation:Enum", Where: OnField | OnType, Value: AnyList},
	{Name: "kubebuilder:validation", Where: OnField, Value: String},
	{Name: "kubebuilder:rule", Where: OnType, Args: map[string]Kind{"rule": String, "strict": Bool}, Required: []string{"rule"}},
	{Name: "nullable", Where: OnField},
})

func lines(texts ...string) []Line {
	out := make([]Line, len(texts))
	for i, t := range texts {
		out[i] = Line{Text: t, Pos: token.Position{Filename: "types.go", Line: i + 1}}
	}
	return out
}

// TestParse reads values of their kinds, matches the longest name, and skips other tags and text.
func TestParse(t *testing.T) {
	ms, err := testVocabulary.Parse(lines("Doc text.", "+min=0x10", "+kubebuilder:validation:Enum=a;`b;c`;3", "+nullable", "+other:tag", "+kubebuilder:object:root=true"), OnField, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Name())
	}
	if want := []string{"min", "kubebuilder:validation:Enum", "nullable"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("markers %q, want %q", got, want)
	}
	if ms[0].Value != int64(16) || !reflect.DeepEqual(ms[1].Value, []any{"a", "b;c", int64(3)}) || ms[2].Pos != "types.go:4" {
		t.Errorf("values %v, %v at %s", ms[0].Value, ms[1].Value, ms[2].Pos)
	}
	m, err := ParseArgs(testVocabulary.defs["kubebuilder:rule"], `rule="self.a, b",strict`, "+kubebuilder:rule:...", "types.go:9")
	if err != nil || m.Str("rule") != "self.a, b" || m.Args["strict"] != true {
		t.Errorf("ParseArgs: %v, %v", m, err)
	}
}

// TestParseErrors: in strict mode a malformed, misplaced or misspelt marker is an error naming its
// file:line and the tag; otherwise it is skipped.
func TestParseErrors(t *testing.T) {
	for tag, want := range map[string]string{
		"+min=x":                          `types.go:1: +min=x: "x" is not an integer`,
		"+min":                            "types.go:1: +min: needs a value",
		"+nullable=false":                 "takes no value",
		"+kubebuilder:rule":               "missing argument rule",
		"+kubebuilder:rule:rul=x":         `unknown argument "rul" (known: rule, strict)`,
		"+kubebuilder:validaton:X":        "unknown kubebuilder marker",
		"+kubebuilder:nulable":            "unknown kubebuilder marker",
		"+kubebuilder:validation:Enum={a": "unbalanced",
	} {
		where := OnField
		if strings.HasPrefix(tag, "+kubebuilder:rule") {
			where = OnType
		}
		_, err := testVocabulary.Parse(lines(tag), where, true)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "types.go:1: "+tag) {
			t.Errorf("%s: error %v, want one naming types.go:1, the tag and %q", tag, err, want)
		}
		if ms, err := testVocabulary.Parse(lines(tag), where, false); err != nil || len(ms) != 0 {
			t.Errorf("%s outside strict mode: %v, %v; want it skipped", tag, ms, err)
		}
	}
	if _, err := testVocabulary.Parse(lines("+nullable"), OnType, true); err == nil || !strings.Contains(err.Error(), "not allowed on a type (allowed on: field)") {
		t.Errorf("misplaced marker: %v", err)
	}
}
