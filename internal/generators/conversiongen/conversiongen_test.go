package conversiongen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// module writes a Go module example.com/m that requires apimachinery (as kgen's module does) with files
// (paths relative to its root) into a temp dir.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	goMod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile("../../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = strings.Replace(string(goMod), "module github.com/kgen-dev/kgen", "module example.com/m", 1)
	files["go.sum"] = string(goSum)
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// generate runs Generate over every package of the module.
func generate(t *testing.T, dir string, cfg Config) (*output.Set, []string, error) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	set := output.NewSet(Generator)
	cfg.OutputFile = "zz_generated.conversion.go"
	cfg.Warn = func(m string) { warnings = append(warnings, m) }
	err = Generate(prog, cfg, set)
	return set, warnings, err
}

const (
	hubDoc = "package hub\n"
	v1Doc  = "// +k8s:conversion-gen=example.com/m/hub\n\npackage v1\n"
	v1Reg  = "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime\"\n\nvar (\n\tSchemeBuilder runtime.SchemeBuilder\n\tlocalSchemeBuilder = &SchemeBuilder\n)\n"
)

// files is a hub and a v1 package with the given types.
func files(hub, v1 string, more ...string) map[string]string {
	m := map[string]string{
		"hub/doc.go": hubDoc, "hub/types.go": "package hub\n\n" + hub,
		"v1/doc.go": v1Doc, "v1/register.go": v1Reg, "v1/types.go": "package v1\n\n" + v1,
	}
	for i := 0; i+1 < len(more); i += 2 {
		m[more[i]] = more[i+1]
	}
	return m
}

// generated returns the one file a run produced.
func generated(t *testing.T, set *output.Set) string {
	t.Helper()
	paths := set.Paths()
	if len(paths) != 1 {
		t.Fatalf("generated %v; want one file", paths)
	}
	return string(set.Content(paths[0]))
}

func TestErrorsWriteNothing(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  []string
	}{
		"missing manual conversion": {files(
			"type T struct {\n\tA string\n}\n",
			"type T struct {\n\tA string\n\tB string\n}\n"),
			[]string{"v1/types.go:5: field T.B needs a hand-written conversion from example.com/m/v1.T to example.com/m/hub.T",
				"write func Convert_v1_T_To_hub_T(in *T, out *hub.T, s conversion.Scope) error in package example.com/m/v1",
				"v1/types.go:5: field T.B: example.com/m/hub.T has no field B"}},
		"int to string": {files(
			"type T struct {\n\tCount string\n}\n",
			"type T struct {\n\tCount int\n}\n"),
			[]string{"v1/types.go:4: field T.Count needs a hand-written conversion from example.com/m/v1.T to example.com/m/hub.T",
				"field T.Count: a Go conversion from int to string does not keep the value",
				"hub/types.go:4: field T.Count needs a hand-written conversion from example.com/m/hub.T to example.com/m/v1.T"}},
		"int to string in map values": {files(
			"type T struct {\n\tM map[string]string\n}\n",
			"type T struct {\n\tM map[string]int\n}\n"),
			[]string{"v1/types.go:4: field T.M: a Go conversion from int to string does not keep the value"}},
		"struct of another package without conversion": {files(
			"import \"example.com/m/other\"\n\ntype T struct {\n\tO other.O\n}\n",
			"import \"example.com/m/other2\"\n\ntype T struct {\n\tO other2.O\n}\n",
			"other/o.go", "package other\n\ntype O struct{ S string }\n", "other2/o.go", "package other2\n\ntype O struct{ T string }\n"),
			[]string{"v1/types.go:6: field T.O: no conversion from example.com/m/other2.O to example.com/m/other.O: write func Convert_other2_O_To_other_O"}},
		"renamed field of a slice element": {files(
			"type Holder struct {\n\tList []Renamed\n}\n\ntype Renamed struct {\n\tB string\n}\n",
			"type Holder struct {\n\tList []Renamed\n}\n\ntype Renamed struct {\n\tA string\n}\n"),
			[]string{"v1/types.go:8: field Renamed.A needs a hand-written conversion from example.com/m/v1.Renamed to example.com/m/hub.Renamed"}},
		"peer package does not exist": {map[string]string{
			"v1/doc.go":   "// +k8s:conversion-gen=example.com/m/nope\n\npackage v1\n",
			"v1/types.go": "package v1\n\ntype T struct{}\n", "v1/register.go": v1Reg},
			[]string{"v1/doc.go:1: +k8s:conversion-gen=example.com/m/nope: the peer package does not exist"}},
		"manual conversion with the wrong signature": {files(
			"type T struct {\n\tA string\n}\n",
			"type T struct {\n\tA string\n}\n",
			"v1/conversion.go", "package v1\n\nimport \"example.com/m/hub\"\n\nfunc Convert_v1_T_To_hub_T(in *T, out *hub.T) error { return nil }\n"),
			[]string{"v1/conversion.go:5: Convert_v1_T_To_hub_T has the wrong signature for a conversion function, so conversion-gen would generate it again: want func Convert_v1_T_To_hub_T(in *T, out *hub.T, s conversion.Scope) error"}},
		"hand-written autoConvert": {files(
			"type T struct {\n\tA string\n}\n",
			"type T struct {\n\tA string\n}\n",
			"v1/conversion.go", "package v1\n\nfunc autoConvert_v1_T_To_hub_T() {}\n"),
			[]string{"v1/conversion.go:3: autoConvert_v1_T_To_hub_T is declared by hand, but conversion-gen generates it"}},
		"two packages convert the same pair": {files(
			"type T struct {\n\tA string\n}\n",
			"type T struct {\n\tA string\n}\n",
			"v1/conversion.go", "package v1\n\nimport (\n\t\"example.com/m/hub\"\n\t\"k8s.io/apimachinery/pkg/conversion\"\n)\n\nfunc Convert_v1_T_To_hub_T(in *T, out *hub.T, s conversion.Scope) error { return nil }\n",
			"other/conversion.go", "package other\n\nimport (\n\t\"example.com/m/hub\"\n\tv1 \"example.com/m/v1\"\n\t\"k8s.io/apimachinery/pkg/conversion\"\n)\n\nfunc Convert_v1_T_To_hub_T(in *v1.T, out *hub.T, s conversion.Scope) error { return nil }\n",
			"v1/peers.go", "package v1\n"),
			nil}, // set in the loop: needs --extra-peer-dirs
		"false mixed with a peer": {map[string]string{
			"v1/doc.go":   "// +k8s:conversion-gen=false\n// +k8s:conversion-gen=example.com/m/hub\n\npackage v1\n",
			"v1/types.go": "package v1\n", "hub/doc.go": hubDoc},
			[]string{"v1/doc.go:1: +k8s:conversion-gen: cannot mix \"false\" with other values"}},
		"relative peer": {map[string]string{
			"v1/doc.go": "// +k8s:conversion-gen=../hub\n\npackage v1\n", "v1/types.go": "package v1\n", "hub/doc.go": hubDoc},
			[]string{"v1/doc.go:1: +k8s:conversion-gen=../hub: relative path is not supported"}},
		"type tag value": {files(
			"type T struct{}\n",
			"// +k8s:conversion-gen=true\ntype T struct{}\n"),
			[]string{"v1/types.go:3: type T: +k8s:conversion-gen=true: unsupported value"}},
		"explicit-from another type": {files(
			"",
			"// +k8s:conversion-gen:explicit-from=net/http.Header\ntype T struct{}\n"),
			[]string{"v1/types.go:3: type T: +k8s:conversion-gen:explicit-from=net/http.Header: unsupported"}},
		"opted-out type needed by another": {files(
			"type T struct {\n\tItems []Item\n}\n\ntype Item struct{ S []string }\n",
			"type T struct {\n\tItems []Item\n}\n\n// +k8s:conversion-gen=false\n\n// Item is opted out.\ntype Item struct {\n\tS []string\n\tX string\n}\n"),
			[]string{"v1/types.go:4: field T.Items: no conversion from example.com/m/v1.Item to example.com/m/hub.Item (type Item is opted out by the +k8s:conversion-gen=false at",
				"v1/types.go:7)"}},
	} {
		t.Run(name, func(t *testing.T) {
			var cfg Config
			want := tc.want
			if name == "two packages convert the same pair" {
				cfg.ExtraPeerDirs = []string{"example.com/m/other"}
				want = []string{"v1/conversion.go:8: Convert_v1_T_To_hub_T converts example.com/m/v1.T to example.com/m/hub.T, and so does example.com/m/other.Convert_v1_T_To_hub_T (other/conversion.go:9): keep one"}
			}
			dir := module(t, tc.files)
			set, _, err := generate(t, dir, cfg)
			if err == nil {
				t.Fatalf("no error; generated %v", set.Paths())
			}
			msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			if set.Len() != 0 {
				t.Errorf("generated %v despite the error", set.Paths())
			}
		})
	}
}

// TestSwappedFieldsConvertByName: structs with the same memory layout whose same-typed fields are in
// another order are converted field by field (code-generator copies them whole, swapping the values),
// and so are slices of them.
func TestSwappedFieldsConvertByName(t *testing.T) {
	dir := module(t, files(
		"type S struct {\n\tA string\n\tB string\n}\n\ntype Holder struct {\n\tList []S\n}\n",
		"type S struct {\n\tB string\n\tA string\n}\n\ntype Holder struct {\n\tList []S\n}\n"))
	set, _, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	code := generated(t, set)
	for _, want := range []string{
		"func autoConvert_v1_S_To_hub_S(in *S, out *hub.S, s conversion.Scope) error {\n\tout.B = in.B\n\tout.A = in.A\n",
		"if err := Convert_v1_S_To_hub_S(&(*in)[i], &(*out)[i], s); err != nil {",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code lacks %q:\n%s", want, code)
		}
	}
	if strings.Contains(code, "unsafe") {
		t.Errorf("swapped structs converted through unsafe:\n%s", code)
	}
}

// TestDetachedOptOutIsHonoured: +k8s:conversion-gen=false one blank line above a type's doc comment opts
// the type out, as it does in the doc comment (code-generator ignores it there).
func TestDetachedOptOutIsHonoured(t *testing.T) {
	dir := module(t, files(
		"type Kept struct{ A string }\n\ntype Dropped struct{ A string }\n",
		"type Kept struct{ A string }\n\n// +k8s:conversion-gen=false\n\n// Dropped is opted out.\ntype Dropped struct{ A string }\n"))
	set, _, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	code := generated(t, set)
	if !strings.Contains(code, "Convert_v1_Kept_To_hub_Kept") || strings.Contains(code, "Dropped") {
		t.Errorf("want conversions for Kept only:\n%s", code)
	}
}

// TestSkipUnsafe converts memory-equal types without unsafe.Pointer.
func TestSkipUnsafe(t *testing.T) {
	dir := module(t, files(
		"type T struct {\n\tL []string\n\tP *int32\n\tS Sub\n}\n\ntype Sub struct{ A string }\n",
		"type T struct {\n\tL []string\n\tP *int32\n\tS Sub\n}\n\ntype Sub struct{ A string }\n"))
	set, _, err := generate(t, dir, Config{SkipUnsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	code := generated(t, set)
	if strings.Contains(code, "unsafe") {
		t.Errorf("--skip-unsafe output uses unsafe:\n%s", code)
	}
	for _, want := range []string{"out.L = in.L\n", "out.P = in.P\n", "if err := Convert_v1_Sub_To_hub_Sub(&in.S, &out.S, s); err != nil {"} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code lacks %q:\n%s", want, code)
		}
	}
}

// TestMisnamedConversionWarns: a function with a conversion function's signature whose name does not
// match its types is ignored with a warning naming the expected name.
func TestMisnamedConversionWarns(t *testing.T) {
	dir := module(t, files(
		"type T struct{ A string }\n",
		"type T struct{ A string }\n",
		"v1/conversion.go", "package v1\n\nimport (\n\t\"example.com/m/hub\"\n\t\"k8s.io/apimachinery/pkg/conversion\"\n)\n\nfunc Convert_T_To_hub_T(in *T, out *hub.T, s conversion.Scope) error { return nil }\n"))
	_, warnings, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "v1/conversion.go:8: example.com/m/v1.Convert_T_To_hub_T has a conversion function's signature but is ignored: a function converting example.com/m/v1.T to example.com/m/hub.T must be called Convert_v1_T_To_hub_T") {
		t.Errorf("warnings = %q", warnings)
	}
}

// TestExplicitOnlyRegistersHandWritten: +k8s:conversion-gen=false in doc.go gives a package no peers,
// only the registration of its hand-written functions.
func TestExplicitOnlyRegistersHandWritten(t *testing.T) {
	dir := module(t, files(
		"type T struct{ A string }\n",
		"type T struct{ A string }\n",
		"v1/doc.go", "// +k8s:conversion-gen=false\n\npackage v1\n",
		"v1/conversion.go", "package v1\n\nimport (\n\t\"example.com/m/hub\"\n\t\"k8s.io/apimachinery/pkg/conversion\"\n)\n\nfunc Convert_v1_T_To_hub_T(in *T, out *hub.T, s conversion.Scope) error { return nil }\n"))
	set, _, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	code := generated(t, set)
	if strings.Contains(code, "autoConvert") || !strings.Contains(code, "s.AddConversionFunc((*T)(nil), (*hub.T)(nil), func(a, b interface{}, scope conversion.Scope) error {\n\t\treturn Convert_v1_T_To_hub_T(a.(*T), b.(*hub.T), scope)") {
		t.Errorf("want only the registration of the hand-written function:\n%s", code)
	}
}

// TestNonStructPeerNeedsHandWrittenConversion: a type whose peer is not a struct gets the comment
// code-generator writes, and an error unless the conversion from the peer is hand-written.
func TestNonStructPeerNeedsHandWrittenConversion(t *testing.T) {
	hub := "type JSON interface{}\n"
	v1 := "type JSON struct {\n\tRaw []byte\n}\n"
	conv := "package v1\n\nimport (\n\t\"example.com/m/hub\"\n\t\"k8s.io/apimachinery/pkg/conversion\"\n)\n\n" +
		"func Convert_v1_JSON_To_hub_JSON(in *JSON, out *hub.JSON, s conversion.Scope) error { return nil }\n"
	dir := module(t, files(hub, v1, "v1/conversion.go", conv))
	set, _, err := generate(t, dir, Config{})
	if err == nil || !strings.Contains(err.Error(), "hub/types.go:3: type example.com/m/hub.JSON needs a hand-written conversion to example.com/m/v1.JSON (conversion-gen converts structs only): write func Convert_hub_JSON_To_v1_JSON(in *hub.JSON, out *JSON, s conversion.Scope) error") {
		t.Fatalf("error = %v; want the conversion from the interface to write", err)
	}
	if set.Len() != 0 {
		t.Fatalf("generated %v despite the error", set.Paths())
	}
	conv += "\nfunc Convert_hub_JSON_To_v1_JSON(in *hub.JSON, out *JSON, s conversion.Scope) error { return nil }\n"
	dir = module(t, files(hub, v1, "v1/conversion.go", conv))
	set, _, err = generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if code := generated(t, set); !strings.Contains(code, "func autoConvert_hub_JSON_To_v1_JSON(in *hub.JSON, out *JSON, s conversion.Scope) error {\n\t// FIXME: Type hub.JSON is unsupported.\n\treturn nil\n}") {
		t.Errorf("want code-generator's comment:\n%s", code)
	}
}

// TestExternalTypes: with +k8s:conversion-gen-external-types the types come from another package and the
// functions are written into the tagged one, as for Kubernetes' pkg/apis/<group>/<version> packages.
func TestExternalTypes(t *testing.T) {
	dir := module(t, map[string]string{
		"hub/types.go":        "package hub\n\ntype T struct {\n\tA string\n\tN int64\n}\n",
		"api/v1/types.go":     "package v1\n\ntype T struct {\n\tA string\n\tN int32\n}\n",
		"conv/v1/doc.go":      "// +k8s:conversion-gen=example.com/m/hub\n// +k8s:conversion-gen-external-types=example.com/m/api/v1\n\npackage v1\n",
		"conv/v1/register.go": v1Reg,
	})
	set, _, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	code := generated(t, set)
	for _, want := range []string{
		"package v1\n",
		"\tapiv1 \"example.com/m/api/v1\"\n\thub \"example.com/m/hub\"\n",
		"func autoConvert_v1_T_To_hub_T(in *apiv1.T, out *hub.T, s conversion.Scope) error {\n\tout.A = in.A\n\tout.N = int64(in.N)\n",
		"func Convert_hub_T_To_v1_T(in *hub.T, out *apiv1.T, s conversion.Scope) error {",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code lacks %q:\n%s", want, code)
		}
	}
	if !strings.HasSuffix(set.Paths()[0], filepath.Join("conv", "v1", "zz_generated.conversion.go")) {
		t.Errorf("written to %s; want the tagged package", set.Paths()[0])
	}
}

// TestAliasesNameTheirTarget: a type alias is converted and spelled as the type it stands for, as
// code-generator does (k8s.io/api's admissionregistration/v1beta1 aliases v1 types).
func TestAliasesNameTheirTarget(t *testing.T) {
	dir := module(t, files(
		"import \"example.com/m/other\"\n\ntype T struct {\n\tRules []other.Rule\n\tP *other.Policy\n}\n",
		"import \"example.com/m/other\"\n\ntype Rule = other.Rule\n\ntype Policy = other.Policy\n\ntype T struct {\n\tRules []Rule\n\tP *Policy\n\t// +k8s:conversion-gen=false\n\tX string\n}\n",
		"other/types.go", "package other\n\ntype Rule struct{ Name string }\n\ntype Policy string\n"))
	set, _, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	code := generated(t, set)
	for _, want := range []string{
		"func autoConvert_hub_T_To_v1_T(in *hub.T, out *T, s conversion.Scope) error {\n\tout.Rules = *(*[]other.Rule)(unsafe.Pointer(&in.Rules))\n\tout.P = (*other.Policy)(unsafe.Pointer(in.P))\n",
		"\tother \"example.com/m/other\"\n",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code lacks %q:\n%s", want, code)
		}
	}
}

// TestBuildTagAndHeader: --build-tag names the tag the file's constraint excludes; the header follows it.
func TestBuildTagAndHeader(t *testing.T) {
	dir := module(t, files("type T struct{ A string }\n", "type T struct{ A string }\n"))
	set, _, err := generate(t, dir, Config{BuildTag: "custom_tag", Header: []byte("// Copyright header.\n\n")})
	if err != nil {
		t.Fatal(err)
	}
	want := "//go:build !custom_tag\n// +build !custom_tag\n\n// Copyright header.\n\n// Code generated by conversion-gen. DO NOT EDIT.\n\npackage v1\n"
	if code := generated(t, set); !strings.HasPrefix(code, want) {
		t.Errorf("file starts\n%s\nwant\n%s", code[:min(len(code), len(want))], want)
	}
}
