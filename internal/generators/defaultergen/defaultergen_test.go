package defaultergen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// writeModule writes a Go module example.com/m with files (paths relative to its root) into a temp dir.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
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

// generate runs Generate over every package of the module dir.
func generate(t *testing.T, dir string, cfg Config) (*output.Set, []string, error) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	cfg.OutputFile = "zz_generated.defaults.go"
	cfg.Warn = func(m string) { warnings = append(warnings, m) }
	set := output.NewSet(Generator)
	err = Generate(prog, cfg, set)
	return set, warnings, err
}

const doc = "// +k8s:defaulter-gen=TypeMeta\n\npackage p\n"

// object declares an object type T with a local TypeMeta and spec fields.
func object(fields string) string {
	return "package p\n\ntype TypeMeta struct{}\n\ntype T struct {\n\tTypeMeta\n\tSpec S\n}\n\ntype S struct {\n" + fields + "}\n"
}

func TestBadInputIsAnErrorAtItsLine(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  string
	}{
		"string for int": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=\"x\"\n\tN int32\n")},
			`p/types.go:11: +default="x" (field N of type int32): a string does not fit type int32`},
		"out of range": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=300\n\tN *int8\n")},
			`p/types.go:11: +default=300 (field N of type *int8): 300 overflows int8`},
		"fraction for int": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=1.5\n\tN int\n")},
			`p/types.go:11: +default=1.5 (field N of type int): 1.5 is not an integer, as type int needs`},
		"not JSON": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default={bad\n\tM map[string]string\n")},
			`p/types.go:11: +default={bad (field M): not a JSON value`},
		"unknown member": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default={\"b\": 1}\n\tP *Q\n}\n\ntype Q struct {\n\tA int `json:\"a\"`\n")},
			`p/types.go:11: +default={"b": 1} (field P of type *example.com/m/p.Q): example.com/m/p.Q has no field "b"`},
		"wrong member type": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default={\"a\": \"x\"}\n\tP *Q\n}\n\ntype Q struct {\n\tA int `json:\"a\"`\n")},
			`a string does not fit type int at .a`},
		"struct field": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default={}\n\tQ Q\n}\n\ntype Q struct {\n\tA *int\n")},
			`p/types.go:11: +default={} (field Q of type example.com/m/p.Q): the generated code sets the default when the value is nil`},
		"missing ref": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=ref(Missing)\n\tN int32\n")},
			`p/types.go:11: +default=ref(Missing) (field N of type int32): example.com/m/p has no constant or variable Missing`},
		"ref of wrong type": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=ref(Name)\n\tN int32\n}\n\nconst Name = \"x\"\n\nvar _ = struct {\n")},
			`p/types.go:11: +default=ref(Name) (field N of type int32): example.com/m/p.Name of type untyped string does not convert to int32`},
		"ref for a map": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=ref(X)\n\tM map[string]string\n}\n\nvar X = map[string]string{}\n\nvar _ = struct {\n")},
			`ref() defaults are for builtin types and pointers to them`},
		"two defaults": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=1\n\t// +default=2\n\tN int32\n")},
			`p/types.go:12: +default: a second default (the first is at line 11)`},
		"empty default": {map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=\n\tN int32\n")},
			`p/types.go:11: +default needs a value`},
		"false mixed": {map[string]string{"p/doc.go": "// +k8s:defaulter-gen=false\n// +k8s:defaulter-gen=TypeMeta\n\npackage p\n", "p/types.go": object("")},
			`p/doc.go:1: +k8s:defaulter-gen: cannot mix "false" with other values`},
		"relative input": {map[string]string{"p/doc.go": "// +k8s:defaulter-gen=TypeMeta\n// +k8s:defaulter-gen-input=./q\n\npackage p\n", "p/types.go": object("")},
			`p/doc.go:2: +k8s:defaulter-gen-input=./q: use the full package import path`},
		"missing input": {map[string]string{"p/doc.go": "// +k8s:defaulter-gen=TypeMeta\n// +k8s:defaulter-gen-input=example.com/m/nope\n\npackage p\n", "p/types.go": object("")},
			`p/doc.go:2: +k8s:defaulter-gen-input=example.com/m/nope: package example.com/m/nope is neither an input package nor imported by one`},
		"bad type switch": {map[string]string{"p/doc.go": doc, "p/types.go": "package p\n\n// +k8s:defaulter-gen=maybe\n\n// T is a type.\ntype T struct{}\n"},
			`p/types.go:3: type T: +k8s:defaulter-gen=maybe: a type takes exactly one value, true or false`},
		"two base defaulters": {map[string]string{"p/doc.go": doc, "p/types.go": object("\tN int32\n") + "\nfunc SetDefaults_S(*S) {}\n",
			"q/q.go": "package q\n\nimport \"example.com/m/p\"\n\nfunc SetDefaults_S(*p.S) {}\n"},
			`q/q.go:5: example.com/m/q.SetDefaults_S defaults example.com/m/p.S, which example.com/m/p.SetDefaults_S`},
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeModule(t, tc.files)
			set, _, err := generate(t, dir, Config{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v\nwant it to contain %q", err, tc.want)
			}
			if set.Len() != 0 {
				t.Fatalf("a failed run added %v", set.Paths())
			}
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("error %q names no file of the module", err)
			}
		})
	}
}

func TestTypeSwitchTouchingTheTypeIsIgnoredWithAWarning(t *testing.T) {
	dir := writeModule(t, map[string]string{"p/doc.go": doc, "p/types.go": "package p\n\n// +k8s:defaulter-gen=true\ntype T struct {\n\t// +default=1\n\tN int32\n}\n"})
	set, warnings, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "p/types.go:3: +k8s:defaulter-gen=true on type T is ignored") {
		t.Fatalf("warnings = %q", warnings)
	}
	got := string(set.Content(filepath.Join(dir, "p", "zz_generated.defaults.go")))
	if strings.Contains(got, "SetObjectDefaults_T") {
		t.Fatalf("T got an object defaulter:\n%s", got)
	}
}

func TestTagsOutsideDocGoAreReported(t *testing.T) {
	dir := writeModule(t, map[string]string{"p/types.go": "// +k8s:defaulter-gen=TypeMeta\n\npackage p\n\n// +k8s:defaulter-gen=true\n\n// T is a type.\ntype T struct{}\n"})
	set, warnings, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "p", "types.go") + ":1: +k8s:defaulter-gen (and 1 more lines), but example.com/m/p gets no defaulters: its doc.go has no +k8s:defaulter-gen=<member name>"
	if set.Len() != 0 || len(warnings) != 1 || !strings.HasPrefix(warnings[0], want) {
		t.Fatalf("files %v, warnings %q; want none and\n%s", set.Paths(), warnings, want)
	}
}

func TestRefToAPackageTheInputsDoNotImport(t *testing.T) {
	dir := writeModule(t, map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=ref(net/http.MethodGet)\n\tMethod string\n")})
	set, _, err := generate(t, dir, Config{})
	if err != nil {
		t.Fatal(err)
	}
	got := string(set.Content(filepath.Join(dir, "p", "zz_generated.defaults.go")))
	for _, want := range []string{"\thttp \"net/http\"\n", "\t\tin.Spec.Method = string(http.MethodGet)\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestBuildTagAndPeerPatterns(t *testing.T) {
	dir := writeModule(t, map[string]string{"p/doc.go": doc, "p/types.go": object("\t// +default=1\n\tN int32\n")})
	set, _, err := generate(t, dir, Config{BuildTag: "mytag"})
	if err != nil {
		t.Fatal(err)
	}
	got := set.Content(filepath.Join(dir, "p", "zz_generated.defaults.go"))
	if !bytes.HasPrefix(got, []byte("//go:build !mytag\n// +build !mytag\n\n// Code generated by defaulter-gen. DO NOT EDIT.\n")) {
		t.Fatalf("header:\n%s", got)
	}
	if _, _, err := generate(t, dir, Config{ExtraPeerDirs: []string{"example.com/m/nope"}}); err == nil || !strings.Contains(err.Error(), "--extra-peer-dirs example.com/m/nope: package example.com/m/nope is neither") {
		t.Fatalf("unknown peer: %v", err)
	}
	if _, _, err := generate(t, dir, Config{ExtraPeerDirs: []string{"example.com/m/nope/..."}}); err == nil || !strings.Contains(err.Error(), "--extra-peer-dirs example.com/m/nope/...: no input package matches") {
		t.Fatalf("unmatched peer pattern: %v", err)
	}
	if _, _, err := generate(t, dir, Config{ExtraPeerDirs: []string{"example.com/m/..."}}); err != nil {
		t.Fatalf("peer pattern: %v", err)
	}
}

// TestDeterministic generates the golden test API twice and compares the bytes.
func TestDeterministic(t *testing.T) {
	var runs [2]*output.Set
	for i := range runs {
		prog, err := load.Load(load.Config{Dir: "../../../testdata"}, "./defaults/...")
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = output.NewSet(Generator)
		if err := Generate(prog, Config{OutputFile: "zz_generated.defaults.go", ExtraPeerDirs: []string{"github.com/kgen-dev/kgen/testdata/defaults/common"}}, runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if runs[0].Len() != 2 {
		t.Fatalf("generated %d files, want 2", runs[0].Len())
	}
	for _, p := range runs[0].Paths() {
		if !bytes.Equal(runs[0].Content(p), runs[1].Content(p)) {
			t.Errorf("%s differs between runs", p)
		}
	}
}
