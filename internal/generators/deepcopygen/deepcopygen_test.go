package deepcopygen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// module writes a Go module example.com/m with files (paths relative to its root) into a temp dir.
func module(t *testing.T, files map[string]string) string {
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

// generate runs Generate over every package of the module, returning the set, the warnings and the error.
func generate(t *testing.T, dir string) (*output.Set, []string, error) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	set := output.NewSet(Generator)
	err = Generate(prog, Config{OutputFile: "zz_generated.deepcopy.go", Warn: func(m string) { warnings = append(warnings, m) }}, set)
	return set, warnings, err
}

const pkgDoc = "// +k8s:deepcopy-gen=package\n\npackage p\n"

func TestErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  []string
	}{
		"chan field": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype T struct {\n\tOK []int\n\tC chan int\n}\n"},
			[]string{"p/types.go:5: field T.C: type chan int cannot be deep-copied"}},
		"empty interface": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype T struct {\n\tF any\n}\n"},
			[]string{"p/types.go:4: field T.F: DeepCopy of \"any\" is unsupported"}},
		"interface without DeepCopy method": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype I interface{ M() }\n\ntype T struct {\n\tF []I\n}\n"},
			[]string{"p/types.go:6: field T.F: interface example.com/m/p.I has no DeepCopyI method"}},
		"foreign struct without DeepCopyInto": {map[string]string{"p/doc.go": pkgDoc,
			"o/o.go":     "package o\n\ntype NoCopy struct{ Items []string }\n",
			"p/types.go": "package p\n\nimport \"example.com/m/o\"\n\ntype T struct {\n\tN o.NoCopy\n\tP *o.NoCopy\n}\n"},
			[]string{"p/types.go:6: field T.N: type example.com/m/o.NoCopy has no DeepCopyInto method",
				"p/types.go:7: field T.P: type example.com/m/o.NoCopy has no DeepCopyInto method"}},
		"foreign type with DeepCopy only": {map[string]string{"p/doc.go": pkgDoc,
			"o/o.go":     "package o\n\ntype OnlyCopy struct{ Items []string }\n\nfunc (in *OnlyCopy) DeepCopy() *OnlyCopy { return in }\n",
			"p/types.go": "package p\n\nimport \"example.com/m/o\"\n\ntype T struct {\n\tF o.OnlyCopy\n\tS []o.OnlyCopy\n}\n"},
			[]string{"p/types.go:6: field T.F: type example.com/m/o.OnlyCopy has no DeepCopyInto method",
				"p/types.go:7: field T.S: type example.com/m/o.OnlyCopy has no DeepCopyInto method"}},
		"local struct not generated": {map[string]string{
			"p/types.go": "package p\n\n// +k8s:deepcopy-gen=true\ntype A struct {\n\tB B\n}\n\ntype B struct{ S []string }\n"},
			[]string{"p/types.go:5: field A.B: type example.com/m/p.B has no DeepCopyInto method"}},
		"uncopyable opt-in": {map[string]string{
			"p/types.go": "package p\n\n// +k8s:deepcopy-gen=true\ntype Phase string\n"},
			[]string{"p/types.go:4: type Phase"}},
		"package tag true": {map[string]string{"p/doc.go": "// +k8s:deepcopy-gen=true\n\npackage p\n",
			"p/types.go": "package p\n\ntype T struct{}\n"},
			[]string{"p/doc.go:1: +k8s:deepcopy-gen=true: unsupported value"}},
		"package tag parameter": {map[string]string{"p/doc.go": "// +k8s:deepcopy-gen=package,foo=bar\n\npackage p\n",
			"p/types.go": "package p\n\ntype T struct{}\n"},
			[]string{"p/doc.go:1: +k8s:deepcopy-gen=package,foo=bar: unsupported parameter \"foo=bar\""}},
		"type tag value": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\n// +k8s:deepcopy-gen=yes\ntype T struct{}\n"},
			[]string{"p/types.go:3: type T: +k8s:deepcopy-gen=yes: unsupported value"}},
		"bad DeepCopy signature": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype T struct{ S []string }\n\nfunc (in *T) DeepCopy() T { return *in }\n\ntype U struct{ A, B T }\n"},
			[]string{"p/types.go:5: T.DeepCopy has the wrong signature for deepcopy-gen"}},
		"bad DeepCopyInto signature": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype T struct{ S []string }\n\nfunc (in *T) DeepCopyInto(out T) {}\n"},
			[]string{"p/types.go:5: T.DeepCopyInto has the wrong signature for deepcopy-gen"}},
		"interfaces tag not an interface": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\n// +k8s:deepcopy-gen:interfaces=example.com/m/p.T\ntype T struct{}\n"},
			[]string{"p/types.go:3: +k8s:deepcopy-gen:interfaces=example.com/m/p.T: not an interface type"}},
		"interfaces tag unknown package": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\n// +k8s:deepcopy-gen:interfaces=example.com/nowhere.I\ntype T struct{}\n"},
			[]string{"p/types.go:3: +k8s:deepcopy-gen:interfaces=example.com/nowhere.I: package example.com/nowhere is not a dependency"}},
		"contradicting nonpointer-interfaces": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\n// +k8s:deepcopy-gen:nonpointer-interfaces=true\n// +k8s:deepcopy-gen:nonpointer-interfaces=false\ntype T struct{}\n"},
			[]string{"p/types.go:4: type T: +k8s:deepcopy-gen:nonpointer-interfaces=false contradicts"}},
		"two package tags": {map[string]string{"p/doc.go": "// +k8s:deepcopy-gen=package\n// +k8s:deepcopy-gen=false\n\npackage p\n",
			"p/types.go": "package p\n\ntype T struct{}\n"},
			[]string{"p/doc.go:2: found 2 +k8s:deepcopy-gen tags, want one"}},
		"pointer map key": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype T struct {\n\tM map[*int]string\n}\n"},
			[]string{"p/types.go:4: field T.M: map key type *int cannot be deep-copied by assignment"}},
		"unresolved type": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype T struct {\n\tM Missing\n}\n"},
			[]string{"p/types.go:4: field T.M: the field's type does not resolve"}},
		"one bad package of two": {map[string]string{"p/doc.go": pkgDoc,
			"p/types.go": "package p\n\ntype T struct{ F func() }\n",
			"q/doc.go":   "// +k8s:deepcopy-gen=package\n\npackage q\n",
			"q/types.go": "package q\n\ntype T struct{ S []string }\n"},
			[]string{"p/types.go:3: field T.F: type func() cannot be deep-copied"}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := module(t, tc.files)
			set, _, err := generate(t, dir)
			if err == nil {
				t.Fatal("no error")
			}
			msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			if set.Len() != 0 {
				t.Errorf("a failed run produced %d files", set.Len())
			}
			for _, w := range tc.want {
				if n := strings.Count(msg, w); n > 1 {
					t.Errorf("%q reported %d times", w, n)
				}
			}
		})
	}
}

func TestActivation(t *testing.T) {
	dir := module(t, map[string]string{
		// A package tag outside doc.go is ignored, with a warning.
		"a/types.go": "// +k8s:deepcopy-gen=package\n\n// Package a has no doc.go.\npackage a\n\ntype T struct{ S []string }\n",
		// =false in doc.go wins over type opt-ins.
		"b/doc.go":   "// +k8s:deepcopy-gen=false\n\npackage b\n",
		"b/types.go": "package b\n\n// +k8s:deepcopy-gen=true\ntype T struct{ S []string }\n",
		// Package mode without copyable types writes no file.
		"c/doc.go":   pkgDoc[:len(pkgDoc)-2] + "c\n",
		"c/types.go": "package c\n\ntype Phase string\n\ntype private struct{}\n\ntype I interface{}\n",
		// The register parameter is accepted (and, as in code-generator v0.37.2, changes nothing).
		"e/doc.go":   "// +k8s:deepcopy-gen=package,register=true\n\npackage e\n",
		"e/types.go": "package e\n\ntype T struct{ S []string }\n",
		// Type mode: only opted-in types.
		"d/types.go": "package d\n\n// +k8s:deepcopy-gen=true\ntype In struct{ S []string }\n\ntype Out struct{ S []string }\n",
	})
	set, warnings, err := generate(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], filepath.Join("a", "types.go")+":1: +k8s:deepcopy-gen=package: ignored") {
		t.Errorf("warnings: %q", warnings)
	}
	paths := set.Paths()
	if len(paths) != 2 || paths[0] != filepath.Join(dir, "d", "zz_generated.deepcopy.go") || paths[1] != filepath.Join(dir, "e", "zz_generated.deepcopy.go") {
		t.Fatalf("generated %v, want d and e", paths)
	}
	d := string(set.Content(paths[0]))
	if !strings.Contains(d, "func (in *In) DeepCopy() *In") || strings.Contains(d, "Out") {
		t.Errorf("d:\n%s", d)
	}
	if !strings.HasPrefix(d, BuildTag) || !strings.Contains(d, "// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage d\n") {
		t.Errorf("d's header:\n%s", d)
	}
}

// TestDeterministic generates the testdata API packages twice and compares the bytes.
func TestDeterministic(t *testing.T) {
	var runs [2]*output.Set
	for i := range runs {
		prog, err := load.Load(load.Config{Dir: "../../../testdata"}, "./apis/...")
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = output.NewSet(Generator)
		if err := Generate(prog, Config{OutputFile: "x.go"}, runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if runs[0].Len() < 8 {
		t.Fatalf("generated %d files", runs[0].Len())
	}
	for _, p := range runs[0].Paths() {
		if !bytes.Equal(runs[0].Content(p), runs[1].Content(p)) {
			t.Errorf("%s differs between runs", p)
		}
	}
}
