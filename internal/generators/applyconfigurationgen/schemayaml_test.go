package applyconfigurationgen

import (
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// TestMarshalSchemaMatchesYAML checks marshalSchema against yaml.Marshal on the schema of all of
// k8s.io/api and on definitions with every shape the schema type allows.
func TestMarshalSchemaMatchesYAML(t *testing.T) {
	compare(t, "k8s.io/api", &ParseSchemaOf(t, "../../../builtin/applyconfigurations/internal/internal.go").Schema)

	str := func(s string) *string { return &s }
	scalar := func(s schema.Scalar) *schema.Scalar { return &s }
	rel := func(r schema.ElementRelationship) *schema.ElementRelationship { return &r }
	named := schema.TypeRef{NamedType: str("io.k8s.Named")}
	for name, td := range map[string]schema.TypeDef{
		"scalar":        {Name: "a", Atom: schema.Atom{Scalar: scalar(schema.String)}},
		"every field":   {Name: "b", Atom: schema.Atom{Map: &schema.Map{Fields: []schema.StructField{{Name: "f", Type: named}, {Name: "untyped"}, {Name: "inline", Type: schema.TypeRef{Inlined: schema.Atom{List: &schema.List{ElementType: named, ElementRelationship: schema.Associative, Keys: []string{"k1", "k2"}}}, ElementRelationship: rel(schema.Atomic)}}}, ElementType: schema.TypeRef{Inlined: schema.Atom{Scalar: scalar(schema.Untyped), Map: &schema.Map{ElementType: named, ElementRelationship: schema.Separable}}}, ElementRelationship: schema.Atomic}}},
		"quoted names":  {Name: "yes", Atom: schema.Atom{Map: &schema.Map{Fields: []schema.StructField{{Name: "on", Type: named}, {Name: "$ref", Type: named}, {Name: "a b", Type: named}, {Name: "1x", Type: named}, {Name: "", Type: named}, {Name: "null", Type: named}}}}},
		"quoted ref":    {Name: "c", Atom: schema.Atom{List: &schema.List{ElementType: schema.TypeRef{NamedType: str("No")}}}},
		"quoted key":    {Name: "d", Atom: schema.Atom{List: &schema.List{ElementType: named, Keys: []string{"true"}}}},
		"default":       {Name: "e", Atom: schema.Atom{Map: &schema.Map{Fields: []schema.StructField{{Name: "f", Type: named, Default: map[string]any{"x": 1}}}}}},
		"union":         {Name: "f", Atom: schema.Atom{Map: &schema.Map{Fields: []schema.StructField{{Name: "f", Type: named}}, Unions: []schema.Union{{Discriminator: str("kind"), Fields: []schema.UnionField{{FieldName: "f", DiscriminatorValue: "F"}}}}}}},
		"empty map":     {Name: "g", Atom: schema.Atom{Map: &schema.Map{}}},
		"empty list":    {Name: "h", Atom: schema.Atom{List: &schema.List{}}},
		"empty":         {Name: "i"},
		"no name":       {Atom: schema.Atom{Scalar: scalar(schema.Numeric)}},
		"underscores":   {Name: "__untyped_deduced_", Atom: schema.Atom{Scalar: scalar(schema.Untyped)}},
		"nullable":      {Name: "k", Atom: schema.Atom{Map: &schema.Map{Fields: []schema.StructField{{Name: "n", Type: schema.TypeRef{NamedType: str("x"), Nullable: true}}, {Name: "only", Type: schema.TypeRef{Nullable: true}}}}}},
		"path-like ref": {Name: "j/k-l.m_n", Atom: schema.Atom{Map: &schema.Map{ElementType: named}}},
	} {
		compare(t, name, &schema.Schema{Types: []schema.TypeDef{td, {Name: "after", Atom: schema.Atom{Scalar: scalar(schema.Boolean)}}}})
	}
	compare(t, "no types", &schema.Schema{})
}

// ParseSchemaOf parses the schema YAML that the generated internal.go at path embeds. It is exported
// for this package's external tests too.
func ParseSchemaOf(t *testing.T, path string) *typed.Parser {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, text, _ := strings.Cut(string(src), "typed.YAMLObject(`")
	text, _, _ = strings.Cut(text, "`)")
	parser, err := typed.NewParser(typed.YAMLObject(text))
	if err != nil {
		t.Fatal(err)
	}
	return parser
}

func compare(t *testing.T, name string, s *schema.Schema) {
	t.Helper()
	want, err := yaml.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := marshalSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s: marshalSchema differs from yaml.Marshal:\n%s\nwant:\n%s", name, got, want)
	}
}
