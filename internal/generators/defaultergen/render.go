package defaultergen

import (
	"bytes"
	"fmt"
	"go/types"
	"strings"
	"text/template"

	"github.com/kgen-dev/kgen/internal/generators/gofile"
)

// body renders the generated code into a gofile.File verbatim.
var body = template.Must(template.New("body").Parse("{{.}}"))

// writer renders one package's file.
type writer struct {
	p   *pkgRun
	f   *gofile.File
	out strings.Builder
}

func (g *writer) w(format string, args ...any) { fmt.Fprintf(&g.out, format, args...) }

// render writes RegisterDefaults, registering the object defaulters of kept in order, and one
// SetObjectDefaults_<T> per kept type from its tree.
func (p *pkgRun) render(kept []*newDefaulter, trees []*node) ([]byte, error) {
	g := &writer{p: p, f: gofile.New(p.outPath, p.pkg.Name)}
	g.w("// RegisterDefaults adds defaulters functions to the given scheme.\n")
	g.w("// Public to allow building arbitrary schemes.\n")
	g.w("// All generated defaulters are covering - they call all nested defaulters.\n")
	g.w("func RegisterDefaults(scheme *%s) error {\n", g.f.Ident(gofile.Symbols.Runtime.Scheme))
	for _, c := range kept {
		t := g.f.Ref(c.obj.Pkg().Path(), c.obj.Name())
		g.w("scheme.AddTypeDefaultingFunc(&%s{}, func(obj interface{}) { SetObjectDefaults_%s(obj.(*%s)) })\n", t, c.obj.Name(), t)
	}
	g.w("return nil\n}\n\n")
	for i, c := range kept {
		g.w("func SetObjectDefaults_%s(in *%s) {\n", c.obj.Name(), g.f.Ref(c.obj.Pkg().Path(), c.obj.Name()))
		if err := g.node(trees[i], "in", 0, nil); err != nil {
			return nil, err
		}
		g.w("}\n\n")
	}
	if err := g.f.Execute(body, g.out.String()); err != nil {
		return nil, err
	}
	tag := p.run.cfg.BuildTag
	constraint := fmt.Sprintf("//go:build !%s\n// +build !%s\n\n", tag, tag)
	src, err := g.f.Bytes(append([]byte(constraint), p.run.cfg.Header...), Generator)
	if err != nil {
		return nil, err
	}
	return groupImports(src), nil
}

// groupImports puts the standard library's imports of src's import block first, in a group of their own,
// as goimports (which code-generator formats its output with) does.
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	end := bytes.Index(src[start:], []byte("\n)\n"))
	if end < 0 {
		return src
	}
	end += start + 1
	var std, other []string
	for line := range strings.Lines(string(src[start:end])) {
		_, path, _ := strings.Cut(line, `"`)
		if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src
	}
	var b bytes.Buffer
	b.Write(src[:start])
	b.WriteString(strings.Join(std, ""))
	b.WriteString("\n")
	b.WriteString(strings.Join(other, ""))
	b.Write(src[end:])
	return b.Bytes()
}

// Index and local variable names by loop depth.
const (
	indexVars = "ijklmnop"
	localVars = "abcdefgh"
)

func varsForDepth(depth int) (index, local string) {
	if depth >= len(indexVars) {
		return fmt.Sprintf("i%d", depth), fmt.Sprintf("local%d", depth)
	}
	return indexVars[depth : depth+1], localVars[depth : depth+1]
}

// node writes the code of n for the value varName names (a pointer at the root), below ancestors.
func (g *writer) node(n *node, varName string, depth int, ancestors []*node) error {
	if n.field != "" {
		varName += "." + n.field
	}
	if n.unreachable != nil && n.writes() {
		return fmt.Errorf("%s: field %s of %s is unexported, so the object defaulter generated in %s cannot set its defaults",
			position(g.p.run.prog.Fset.Position(n.unreachable.Pos())), n.unreachable.Name(), n.unreachable.Pkg().Path(), g.p.outPath)
	}
	index, local := varsForDepth(depth)
	isPointer := n.elem && !n.index
	guard := isPointer && len(ancestors) > 0
	if guard {
		g.w("if %s != nil {\n", varName)
	}
	below := append(ancestors, n)
	switch {
	case n.index:
		g.w("for %s := range %s {\n", index, varName)
		used := len(n.calls) > 0
		for _, c := range n.children {
			used = used || c.writes()
		}
		if !n.markerOnly && used {
			if n.elem {
				g.w("%s := %s[%s]\n", local, varName, index)
			} else {
				g.w("%s := &%s[%s]\n", local, varName, index)
			}
		}
		g.setDefault(n, varName, index, isPointer)
		g.calls(n, local, true)
		for _, c := range n.children {
			if err := g.node(c, local, depth+1, below); err != nil {
				return err
			}
		}
		g.w("}\n")
	case n.key:
		if n.def != nil {
			index += "_" + ancestors[len(ancestors)-1].field
			g.w("for %s := range %s {\n", index, varName)
			g.setDefault(n, varName, index, isPointer)
			g.w("}\n")
		}
	default:
		g.setDefault(n, varName, index, isPointer)
		g.calls(n, varName, isPointer)
		for _, c := range n.children {
			if err := g.node(c, varName, depth, below); err != nil {
				return err
			}
		}
	}
	if guard {
		g.w("}\n")
	}
	return nil
}

// calls writes n's function calls on varName (a pointer when isPointer, else addressed).
func (g *writer) calls(n *node, varName string, isPointer bool) {
	arg := varName
	if !isPointer {
		arg = "&" + arg
	}
	for _, c := range n.calls {
		name := c.name
		if c.fn != nil {
			name = g.f.Ref(c.fn.Pkg().Path(), c.fn.Name())
		}
		g.w("%s(%s)\n", name, arg)
	}
}

// setDefault writes the code setting n's default on varName (its element index for slices and maps)
// when it is unset.
func (g *writer) setDefault(n *node, varName, index string, isPointer bool) {
	d := n.def
	if d == nil {
		return
	}
	target := varName
	if n.index || n.key {
		target = varName + "[" + index + "]"
	}
	value := d.literal
	if d.ref != nil {
		value = g.f.Ref(d.ref.pkg, d.ref.name)
	}
	switch path := pointerPath(d.top); {
	case d.primitive && len(path) > 0:
		elem := path[len(path)-1]
		g.w("if %s == nil {\n", target)
		if d.ref == nil {
			g.w("var ptrVar%d %s = %s\n", len(path), g.typeExpr(elem), value)
		} else {
			g.w("ptrVar%d := %s(%s)\n", len(path), g.typeExpr(elem), value)
		}
		for i := len(path); i >= 1; i-- {
			dest, assign := fmt.Sprintf("ptrVar%d", i-1), ":="
			if i == 1 {
				dest, assign = target, "="
			}
			source := "*" + types.TypeString(elem, nil)
			if i == len(path) {
				source = types.TypeString(elem, nil)
			}
			elem = path[i-1]
			if types.TypeString(elem, nil) == source {
				g.w("%s %s &ptrVar%d\n", dest, assign, i)
			} else {
				g.w("%s %s (*%s)(&ptrVar%d)\n", dest, assign, g.typeExpr(elem), i)
			}
		}
	case d.primitive:
		g.w("if %s == %s {\n", target, zeroLiteral(d.base.(*types.Basic)))
		if d.ref == nil {
			g.w("%s = %s\n", target, value)
		} else {
			g.w("%s = %s(%s)\n", target, g.typeExpr(d.top), value)
		}
	default:
		unmarshal := g.f.Ident(gofile.Symbols.JSON.Unmarshal)
		g.w("if %s == nil {\n", target)
		if n.key {
			tmp := index + "_default"
			g.w("%s := %s[%s]\n", tmp, varName, index)
			g.w("if err := %s([]byte(`%s`), &%s); err != nil {\npanic(err)\n}\n", unmarshal, value, tmp)
			g.w("%s[%s] = %s\n", varName, index, tmp)
		} else {
			ptr := target
			if !isPointer {
				ptr = "&" + ptr
			}
			g.w("if err := %s([]byte(`%s`), %s); err != nil {\npanic(err)\n}\n", unmarshal, value, ptr)
		}
	}
	g.w("}\n")
}

// zeroLiteral is the zero value of a builtin type as Go code.
func zeroLiteral(b *types.Basic) string {
	switch info := b.Info(); {
	case info&types.IsString != 0:
		return `""`
	case info&types.IsBoolean != 0:
		return "false"
	}
	return "0"
}

// typeExpr spells t in the generated file, importing the packages it names.
func (g *writer) typeExpr(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == g.p.outPath {
			return ""
		}
		return strings.TrimSuffix(g.f.Ref(p.Path(), "X"), ".X")
	})
}
