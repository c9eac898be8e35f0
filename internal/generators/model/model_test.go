package model

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/load"
)

// loadModel loads the packages patterns match in dir (the current directory if empty) and builds their
// Model, as the generator commands do.
func loadModel(patterns []string, dir string, opts Options) (*Model, error) {
	prog, err := load.Load(load.Config{Dir: dir}, patterns...)
	if err != nil {
		return nil, err
	}
	return FromProgram(prog, prog.Packages, opts)
}

func loadTestdata(t *testing.T) *Model {
	t.Helper()
	m, err := loadModel([]string{"../../../testdata/apis/..."}, "", Options{PluralExceptions: map[string]string{"Fish": "Fish"}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func findType(t *testing.T, m *Model, group, version, name string) *Type {
	t.Helper()
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			for _, ty := range v.Types {
				if g.Dir == group && v.Name == version && ty.Name == name {
					return ty
				}
			}
		}
	}
	t.Fatalf("type %s/%s.%s not in model", group, version, name)
	return nil
}

func TestLoadGroups(t *testing.T) {
	m := loadTestdata(t)
	var got []string
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			got = append(got, g.Dir+"/"+v.Name+"="+g.Name+"|"+g.GoName+"|"+g.PkgName())
		}
	}
	want := []string{
		"example/v1=example.kgen.dev|Example|example",
		"example/v1beta1=example.kgen.dev|Example|example",
		"example2/v1=example2.kgen.dev|SecondExample|example2",
		"example3.io/v1=example3.io|Example3|example3",
		"hyphen-group/v1=hyphen-group.kgen.dev|HyphenGroup|hyphengroup",
		"mixedcase/v1=mixedcase.kgen.dev|Mixedcase|mixedcase",
		"pointeritems/v1=pointeritems.kgen.dev|Pointeritems|pointeritems",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("groups:\n got %q\nwant %q", got, want)
	}
}

func TestLoadTypes(t *testing.T) {
	m := loadTestdata(t)
	for _, tc := range []struct {
		group, version, name string
		verbs                string
		namespaced           bool
		plural, resource     string
	}{
		{"example", "v1", "TestType", "create,update,updateStatus,delete,deleteCollection,get,list,watch,patch", true, "TestTypes", "testtypes"},
		{"example", "v1", "ClusterTestType", "create,update,updateStatus,delete,deleteCollection,get,list,watch,patch", false, "ClusterTestTypes", "clustertesttypes"},
		{"example", "v1beta1", "TestType", "get,list,watch", true, "TestTypes", "testtypes"},
		{"example2", "v1", "Widget", "create,delete,get,list,watch", true, "Widgets", "widgets"},
		{"example2", "v1", "Gadget", "create,update,updateStatus,delete,get,list,watch", true, "Gadgets", "gizmos"},
		{"example2", "v1", "Fish", "create,update,delete,deleteCollection,get,list,watch,patch", false, "Fish", "fish"},
		{"example2", "v1", "Marker", "", true, "Markers", "markers"},
	} {
		ty := findType(t, m, tc.group, tc.version, tc.name)
		if got := strings.Join(ty.Verbs, ","); got != tc.verbs {
			t.Errorf("%s verbs = %s; want %s", tc.name, got, tc.verbs)
		}
		if ty.Namespaced != tc.namespaced || ty.Plural != tc.plural || ty.Resource != tc.resource {
			t.Errorf("%s: namespaced %v plural %s resource %s; want %v %s %s", tc.name, ty.Namespaced, ty.Plural, ty.Resource, tc.namespaced, tc.plural, tc.resource)
		}
	}
	ty := findType(t, m, "example", "v1", "TestType")
	if len(ty.Extensions) != 8 {
		t.Fatalf("TestType has %d extensions; want 8", len(ty.Extensions))
	}
	scale := ty.Extensions[1]
	if scale.Method != "UpdateScale" || scale.Verb != "update" || scale.Subresource != "scale" ||
		scale.Input != (TypeRef{"k8s.io/api/autoscaling/v1", "Scale"}) || scale.Result != (TypeRef{"k8s.io/api/autoscaling/v1", "Scale"}) {
		t.Errorf("UpdateScale extension = %+v", scale)
	}
	report := ty.Extensions[3]
	if report.Input != (TypeRef{ty.Version.PkgPath, "Report"}) || report.Result != report.Input {
		t.Errorf("CreateReport extension = %+v; want same-package Report input and result", report)
	}
	if get := ty.Extensions[2]; get.Result != ty.Ref() {
		t.Errorf("GetStatus result defaults to %+v; want the type itself", get.Result)
	}
}

func TestApplyVerbsNeedApplyConfigurations(t *testing.T) {
	m, err := loadModel([]string{"../../../testdata/apis/example/v1"}, "", Options{WithApply: true})
	if err != nil {
		t.Fatal(err)
	}
	ty := findType(t, m, "example", "v1", "TestType")
	if !ty.HasVerb("apply") || !ty.HasVerb("applyStatus") {
		t.Fatalf("verbs with apply configurations = %v; want apply and applyStatus", ty.Verbs)
	}
}

// writeModule writes a throw-away module with one API package holding types.go.
func writeModule(t *testing.T, types string) string {
	t.Helper()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "apis", "grp", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(dir, "go.mod"):   "module example.com/bad\n\ngo 1.24\n",
		filepath.Join(pkg, "doc.go"):   "// +groupName=grp.example.com\npackage v1\n",
		filepath.Join(pkg, "types.go"): "package v1\n\n" + types,
	}
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBadTags(t *testing.T) {
	for _, tc := range []struct {
		tag, problem string
	}{
		{"+genclient=true", "takes no value"},
		{"+genclient:nonNamespace", "unknown tag"},
		{"+genclient:noVerbs=yes", "takes no value"},
		{"+genclient:onlyVerbs=get,frobnicate", `unknown verb "frobnicate"`},
		{"+genclient:skipVerbs=", "needs a comma-separated list"},
		{"+genclient:method=GetScale,subresource=scale", "needs a verb"},
		{"+genclient:method=GetScale,verb=watch", `verb "watch" is not supported for extension methods`},
		{"+genclient:method=GetScale,verb=get,input=Scale", `input= is not supported for "get"`},
		{"+genclient:method=GetScale,verb=get,colour=blue", `unknown key "colour"`},
		{"+genclient:method=getScale,verb=get", "not an exported Go identifier"},
		{"+genclient:method=GetScale,verb=get,result=example.com/x.", "does not end in an exported Go identifier"},
		{"+genclient:method=GetScale,verb=get,result=Scal", `type Scal is not declared in package "example.com/bad/apis/grp/v1"`},
		{"+genclient:method=UpdateScale,verb=update,input=example.com/bad/apis/grp/v1.Fo", `type Fo is not declared`},
		{"+genclient:method=GetScale,verb=get,result=example.com/bad/apis/autoscaling/v1.Scale", `package "example.com/bad/apis/autoscaling/v1" of type Scale cannot be loaded`},
		{"+genclient:method=ListFoos,verb=list", `type FooList is not declared`},
		{"+resourceName=", "needs a value"},
		{"+nonNamespaced=true", "is no longer supported"},
	} {
		t.Run(tc.tag, func(t *testing.T) {
			dir := writeModule(t, "// +genclient\n// "+tc.tag+"\n\n// Foo is a test type.\ntype Foo struct{}\n")
			_, err := loadModel([]string{"./apis/..."}, dir, Options{})
			var tagErr *TagError
			if !errors.As(err, &tagErr) {
				t.Fatalf("Load error = %v; want a TagError", err)
			}
			if !strings.HasSuffix(tagErr.Pos, filepath.Join("apis", "grp", "v1", "types.go")+":4") {
				t.Errorf("position = %s; want types.go:4", tagErr.Pos)
			}
			if tagErr.Tag != tc.tag || !strings.Contains(tagErr.Problem, tc.problem) {
				t.Errorf("error = %v; want tag %q and problem containing %q", err, tc.tag, tc.problem)
			}
		})
	}
}

func TestConflictingVerbTags(t *testing.T) {
	dir := writeModule(t, "// +genclient\n// +genclient:onlyVerbs=get,list\n// +genclient:skipVerbs=list\n\n// Foo is a test type.\ntype Foo struct{}\n")
	_, err := loadModel([]string{"./apis/..."}, dir, Options{})
	if err == nil || !strings.Contains(err.Error(), `verb "list" is also listed in +genclient:onlyVerbs`) {
		t.Fatalf("Load error = %v; want the conflict reported", err)
	}
}

func TestSecondClosestCommentBlock(t *testing.T) {
	dir := writeModule(t, "// +genclient\n// +genclient:nonNamespaced\n\n// Foo is a test type.\ntype Foo struct{ metav1.TypeMeta; metav1.ObjectMeta; Status string }\n\ntype FooList struct{ Items []Foo }\n\n// Bar has no tags.\ntype Bar struct{}\n")
	m, err := loadModel([]string{"./apis/..."}, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ty := findType(t, m, "grp", "v1", "Foo")
	if ty.Namespaced || !ty.HasStatus {
		t.Fatalf("Foo = %+v; want cluster-scoped with status", ty)
	}
	if n := len(m.Groups[0].Versions[0].Types); n != 1 {
		t.Fatalf("%d types; want only Foo", n)
	}
}

func TestPackageOptOuts(t *testing.T) {
	dir := writeModule(t, "// +genclient\n\n// Foo is a test type.\ntype Foo struct{ metav1.TypeMeta; metav1.ObjectMeta }\n\ntype FooList struct{ Items []Foo }\n")
	doc := filepath.Join(dir, "apis", "grp", "v1", "doc.go")
	if err := os.WriteFile(doc, []byte("// +groupName=grp.example.com\n// +k8s:lister-gen=false\npackage v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := loadModel([]string{"./apis/..."}, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := m.Groups[0].Versions[0]
	if v.SkipClient || !v.SkipLister || v.SkipInformer {
		t.Fatalf("opt-outs = client %v lister %v informer %v; want only lister", v.SkipClient, v.SkipLister, v.SkipInformer)
	}
	// Two bad opt-outs: the first in client-gen, lister-gen, informer-gen order is reported, every time.
	bad := "// +groupName=grp.example.com\n// +k8s:informer-gen=no\n// +k8s:lister-gen=maybe\npackage v1\n"
	if err := os.WriteFile(doc, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		_, err := loadModel([]string{"./apis/..."}, dir, Options{})
		if err == nil || !strings.Contains(err.Error(), "+k8s:lister-gen=maybe: must be true or false") {
			t.Fatalf("Load error = %v; want the lister-gen opt-out reported", err)
		}
	}
}

func TestListedAndInformed(t *testing.T) {
	for _, tc := range []struct {
		verbs, selected  []string
		listed, informed bool
	}{
		{[]string{"get", "list", "watch"}, []string{"get", "list", "watch"}, true, true},
		{[]string{"get", "list"}, []string{"get", "list"}, true, false},
		{[]string{"list", "watch"}, []string{"list", "watch"}, false, false},
		{nil, nil, false, false},
		// +genclient:noVerbs: a lister (code-generator's lister-gen ignores noVerbs), no informer.
		{nil, []string{"get", "list", "watch"}, true, false},
	} {
		ty := &Type{Verbs: tc.verbs, SelectedVerbs: tc.selected}
		if ty.Listed() != tc.listed || ty.Informed() != tc.informed {
			t.Errorf("verbs %v: listed %v informed %v; want %v %v", tc.verbs, ty.Listed(), ty.Informed(), tc.listed, tc.informed)
		}
	}
}

func TestStatusFollowsNamedTypes(t *testing.T) {
	dir := writeModule(t, "// Foo is the hub type.\ntype Foo struct{ metav1.TypeMeta; metav1.ObjectMeta; Status string }\n")
	beta := filepath.Join(dir, "apis", "grp", "v1beta1")
	if err := os.MkdirAll(beta, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"doc.go": "// +groupName=grp.example.com\npackage v1beta1\n",
		"types.go": "package v1beta1\n\nimport grpv1 \"example.com/bad/apis/grp/v1\"\n\n" +
			"// +genclient\n\n// Foo is Foo of v1 under another version.\ntype Foo grpv1.Foo\n\n" +
			"// +genclient\n\n// Bar is a local named struct.\ntype Bar barBody\n\ntype barBody struct{ metav1.TypeMeta; metav1.ObjectMeta; Status string }\n\ntype FooList struct{ Items []Foo }\n\ntype BarList struct{ Items []Bar }\n\n" +
			"// +genclient\n\n// Baz has no status.\ntype Baz grpv1.Other\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(beta, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := loadModel([]string{"./apis/grp/v1beta1"}, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"Foo": true, "Bar": true, "Baz": false} {
		if got := findType(t, m, "grp", "v1beta1", name).HasStatus; got != want {
			t.Errorf("%s.HasStatus = %v, want %v", name, got, want)
		}
	}
}

func TestExtractTagsKeepsCodeGeneratorSyntax(t *testing.T) {
	var lines []CommentLine
	for _, text := range []string{
		"+genclient",
		"  +groupName=example.com  ",
		"+groupName=",
		"+genclient:method=GetScale,verb=get,subresource=scale",
		"+genclient:method =Spaced",
		"\t+tabbed",
		"not a +tag",
		"+",
	} {
		lines = append(lines, CommentLine{Text: text})
	}
	type kv struct {
		key, value string
		hasValue   bool
	}
	var got []kv
	for _, tag := range extractTags(lines) {
		got = append(got, kv{tag.key, tag.value, tag.hasValue})
	}
	want := []kv{
		{"genclient", "", false},
		{"groupName", "example.com", true},
		{"groupName", "", true},
		{"genclient:method", "GetScale,verb=get,subresource=scale", true},
		{"genclient:method ", "Spaced", true},
		{"", "", false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tags = %+v; want %+v", got, want)
	}
}

func TestMissingGroupNameIsReportedAtTheVersionsDocGo(t *testing.T) {
	const types = "package %s\n\n// +genclient\n\n// Foo is a test type.\ntype Foo struct{ metav1.TypeMeta; metav1.ObjectMeta }\n\ntype FooList struct{ Items []Foo }\n"
	dir := writeModule(t, "// +genclient\n\n// Foo is a test type.\ntype Foo struct{ metav1.TypeMeta; metav1.ObjectMeta }\n\ntype FooList struct{ Items []Foo }\n")
	beta := filepath.Join(dir, "apis", "grp", "v1beta1")
	if err := os.MkdirAll(beta, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"doc.go": "// Package v1beta1 forgot its group.\npackage v1beta1\n", "types.go": strings.ReplaceAll(types, "%s", "v1beta1")} {
		if err := os.WriteFile(filepath.Join(beta, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := loadModel([]string{"./apis/..."}, dir, Options{})
	var tagErr *TagError
	if !errors.As(err, &tagErr) || tagErr.Tag != "+groupName" || !strings.HasSuffix(tagErr.Pos, filepath.Join("v1beta1", "doc.go")+":2") ||
		!strings.Contains(tagErr.Problem, "is missing") {
		t.Fatalf("Load error = %v; want +groupName missing at v1beta1/doc.go:2", err)
	}
	// Without doc.go the error names where doc.go belongs.
	if err := os.Remove(filepath.Join(beta, "doc.go")); err != nil {
		t.Fatal(err)
	}
	_, err = loadModel([]string{"./apis/grp/v1beta1"}, dir, Options{})
	if !errors.As(err, &tagErr) || tagErr.Pos != filepath.Join(beta, "doc.go") || !strings.Contains(tagErr.Problem, "no doc.go") {
		t.Fatalf("Load error without doc.go = %v; want +groupName missing at %s", err, filepath.Join(beta, "doc.go"))
	}
	// A legacy package naming its group only in a GroupName constant equal to its directory keeps working
	// (k8s.io/api/apps/v1); one that names another group does not.
	for value, ok := range map[string]bool{"grp": true, "grp.example.com": false} {
		if err := os.WriteFile(filepath.Join(beta, "register.go"), []byte("package v1beta1\n\nconst GroupName = \""+value+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := loadModel([]string{"./apis/grp/v1beta1"}, dir, Options{})
		if ok && (err != nil || m.Groups[0].Name != "grp") {
			t.Fatalf("GroupName = %q: %v; want group grp", value, err)
		}
		if !ok && (err == nil || !strings.Contains(err.Error(), "+groupName: is missing")) {
			t.Fatalf("GroupName = %q: %v; want +groupName missing", value, err)
		}
	}
	// An empty +groupName= is the core group.
	if err := os.WriteFile(filepath.Join(beta, "doc.go"), []byte("// +groupName=\npackage v1beta1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := loadModel([]string{"./apis/grp/v1beta1"}, dir, Options{})
	if err != nil || len(m.Groups) != 1 || m.Groups[0].Name != "" || m.Groups[0].GoName != "Core" {
		t.Fatalf("+groupName= : %v, %+v; want the core group", err, m)
	}
}

// TestShapeErrors checks that a +genclient type whose generated code could not build is an error at the
// type naming what is missing, and that types providing it (directly or through embedded structs) or not
// needing it pass.
func TestShapeErrors(t *testing.T) {
	for _, tc := range []struct {
		types, want string
	}{
		{"type Foo struct{ Spec string }\n\ntype FooList struct{ Items []Foo }\n",
			"+genclient: type Foo lacks an embedded metav1.ObjectMeta, an embedded metav1.TypeMeta; its generated client would not build"},
		{"type Foo struct{ metav1.TypeMeta }\n\ntype FooList struct{ Items []Foo }\n", "type Foo lacks an embedded metav1.ObjectMeta;"},
		{"type Foo struct{ metav1.TypeMeta; metav1.ObjectMeta }\n",
			"type Foo lacks the list type FooList (metav1.TypeMeta, metav1.ListMeta and Items []Foo), which list and watch need;"},
		{"type Foo struct{ metav1.TypeMeta; metav1.ObjectMeta }\n\ntype FooList struct{ metav1.ListMeta }\n", "type Foo lacks an Items slice in FooList;"},
		{"type Foo struct{ base }\n\ntype base struct{ metav1.TypeMeta; *metav1.ObjectMeta }\n\ntype FooList struct{ Items []*Foo }\n", ""},
		// Embedded types that cannot be followed are given the benefit of the doubt.
		{"type Foo struct{ elsewhere.Base }\n\ntype FooList struct{ Items []Foo }\n", ""},
	} {
		for _, tags := range []string{"", "// +genclient:onlyVerbs=get,create\n", "// +genclient:noVerbs\n"} {
			dir := writeModule(t, "// +genclient\n"+tags+"\n// Foo is a test type.\n"+tc.types)
			if _, err := loadModel([]string{"./apis/..."}, dir, Options{}); err != nil {
				t.Errorf("%q with %q, for apply configurations only: %v", tc.types, tags, err)
			}
			_, err := loadModel([]string{"./apis/..."}, dir, Options{Clients: true})
			want := tc.want
			if tags == "// +genclient:noVerbs\n" || tags != "" && strings.Contains(want, "FooList") {
				want = "" // no verbs need nothing; get and create need no list type
			}
			switch {
			case want == "" && err != nil:
				t.Errorf("%q with %q: %v", tc.types, tags, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("%q with %q: error %v, want %q", tc.types, tags, err, want)
			case want != "":
				line := 6 + strings.Count(tags, "\n")
				if !strings.Contains(err.Error(), filepath.Join("apis", "grp", "v1", "types.go")+":"+strconv.Itoa(line)+": ") {
					t.Errorf("%q with %q: error %v, want it at types.go:%d", tc.types, tags, err, line)
				}
			}
		}
	}
}

// TestTagLinesAndNothingGenerated checks which lines carry a tag (not +tag=false, not +tag:sub) and the
// warning for a run that generated nothing.
func TestTagLinesAndNothingGenerated(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "t.go", "package v1\n\n// +genclient\n// +genclient:noStatus\n// +k8s:deepcopy-gen=false\ntype A struct{}\n\n// +k8s:deepcopy-gen=true\n// +genclient\ntype B struct{}\n", parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if got := TagLines(fset, []*ast.File{f}, "genclient"); strings.Join(got, " ") != "t.go:3 t.go:9" {
		t.Errorf("genclient lines: %v", got)
	}
	if got := TagLines(fset, []*ast.File{f}, "k8s:deepcopy-gen"); strings.Join(got, " ") != "t.go:8" {
		t.Errorf("deepcopy-gen lines: %v", got)
	}
	if msg := NothingGenerated([]string{"client-gen", "lister-gen"}, false, "genclient", []string{"t.go:3", "t.go:9"}); !strings.HasPrefix(msg, "t.go:3: +genclient (and 1 more lines), but client-gen, lister-gen generated nothing") {
		t.Errorf("warning: %q", msg)
	}
	for _, msg := range []string{
		NothingGenerated([]string{"client-gen"}, true, "genclient", []string{"t.go:3"}),
		NothingGenerated([]string{"client-gen"}, false, "genclient", nil),
		NothingGenerated(nil, false, "genclient", []string{"t.go:3"}),
	} {
		if msg != "" {
			t.Errorf("unexpected warning %q", msg)
		}
	}
}
