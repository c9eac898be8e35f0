package model

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

func TestKindOfAndElemOf(t *testing.T) {
	const src = `package p

type (
	N  int
	M  map[string]int
	S  []string
	St struct{}
	P  *int
	A  [2]int
	I  interface{}
	F  func()
	Al = M
)

var (
	b  bool
	ps []*St
)
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	typ := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	for name, want := range map[string]Kind{
		"N": KindAlias, "M": KindAlias, "S": KindAlias, "St": KindStruct, "P": KindPointer, "A": KindArray,
		"I": KindInterface, "F": KindOther, "Al": KindAlias, "b": KindBuiltin, "ps": KindSlice,
	} {
		if got := KindOf(typ(name)); got != want {
			t.Errorf("KindOf(%s) = %d, want %d", name, got, want)
		}
	}
	if e := ElemOf(typ("ps")); types.TypeString(e, nil) != "*p.St" || ElemOf(ElemOf(e)) != nil {
		t.Errorf("ElemOf([]*St) = %v", e)
	}
	if e := ElemOf(typ("M")); types.TypeString(e, nil) != "int" {
		t.Errorf("ElemOf(M) = %v", e)
	}
}

func TestTagValues(t *testing.T) {
	pos := token.Position{Filename: "doc.go", Line: 3}
	lines := []CommentLine{{Text: " +k8s:a=one  ", Pos: pos}, {Text: "+k8s:b=x", Pos: pos}, {Text: "+k8s:a(arg)=two", Pos: pos}, {Text: "prose +k8s:a=no", Pos: pos}}
	vals, err := TagValues(lines, "k8s:a")
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 2 || vals[0].Value != "one" || len(vals[0].Args) != 0 || vals[1].Value != "two" || len(vals[1].Args) != 1 || vals[1].Raw != "k8s:a(arg)=two" {
		t.Errorf("values %+v", vals)
	}
	if _, err := TagValues([]CommentLine{{Text: "+k8s:a(=x", Pos: pos}}, "k8s:a"); err == nil || err.Error()[:9] != "doc.go:3:" {
		t.Errorf("a malformed tag: %v, want an error at doc.go:3", err)
	}
}
