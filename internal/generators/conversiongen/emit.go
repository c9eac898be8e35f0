package conversiongen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	gtypes "k8s.io/gengo/v2/types"
)

// pkgGen generates the file of one target package.
type pkgGen struct {
	*run
	target   *target
	typesPkg *types.Package
	outPkg   string
	imports  *namer.DefaultImportTracker
	// used are the import paths the code refers to.
	used map[string]bool
	out  strings.Builder
	// paired are the types of the types package with a peer, and peer their peers.
	paired []*typ
	peer   map[*typ]*typ
	// skipped are the fields of a source struct that need a hand-written conversion.
	skipped map[*typ][]skippedField
	// public are the Convert_ functions this file defines; calls the Convert_ functions its code calls.
	public map[string]bool
	calls  []call
	// declared are the functions the file declares, with the pair each converts.
	declared     []string
	declaredPair map[string]pair
	// at is the field being converted, for errors.
	at   site
	errs []error
}

// skippedField is a field that needs a hand-written conversion, and why.
type skippedField struct {
	name   string
	pos    token.Pos
	reason string
}

// site is a struct field being converted: where it is declared and what to call it in errors.
type site struct {
	pos  token.Pos
	what string
	// in and out are the field's types.
	in, out *typ
}

// call is a call of a Convert_ function the file must define.
type call struct {
	name    string
	in, out *typ
	at      site
}

func (g *pkgGen) w(format string, args ...any) {
	if len(args) == 0 {
		g.out.WriteString(format)
		return
	}
	fmt.Fprintf(&g.out, format, args...)
}

// track imports the package of a named type, as naming it in a function name does in code-generator.
func (g *pkgGen) track(t *typ) {
	if t.pkg != "" && t.pkg != g.outPkg {
		g.imports.AddSymbol(typesName(t.pkg))
	}
}

func typesName(pkg string) gtypes.Name { return gtypes.Name{Package: pkg} }

// raw is t as the generated code spells it.
func (g *pkgGen) raw(t *typ) string {
	return types.TypeString(t.goType, func(p *types.Package) string {
		if p.Path() == g.outPkg {
			return ""
		}
		return g.ref(p.Path())
	})
}

// ref imports path and returns its local name.
func (g *pkgGen) ref(path string) string {
	g.imports.AddSymbol(typesName(path))
	g.used[path] = true
	return g.imports.LocalNameOf(path)
}

// fnName is the name of the conversion function from in to out, importing as code-generator's namer does.
func (g *pkgGen) fnName(in, out *typ) string {
	g.track(in)
	g.track(out)
	return "Convert_" + in.public() + "_To_" + out.public()
}

// fnRef is a hand-written function as the generated code calls it.
func (g *pkgGen) fnRef(m *manualFn) string {
	if m.fn.Pkg().Path() == g.outPkg {
		return m.fn.Name()
	}
	return g.ref(m.fn.Pkg().Path()) + "." + m.fn.Name()
}

func (g *pkgGen) preexists(in, out *typ) (*manualFn, bool) {
	m, ok := g.manual[pair{in, out}]
	return m, ok
}

func (g *pkgGen) preexistsPointers(in, out *typ) (*manualFn, bool) {
	if in.kind != kindPointer || out.kind != kindPointer {
		return nil, false
	}
	return g.preexists(in.elem, out.elem)
}

func (g *pkgGen) useUnsafe(a, b *typ) bool {
	return !g.cfg.SkipUnsafe && g.equal.equal(a, b)
}

// optedOut reports a type of the types package tagged +k8s:conversion-gen=false.
func (g *pkgGen) optedOut(t *typ) bool {
	if v, ok := g.optOut[t]; ok {
		return v
	}
	v := g.typeOptOut(t)
	g.optOut[t] = v
	return v
}

// generate renders the file of one target, after prefix (the formatted build tag, header and marker).
func (r *run) generate(t *target, prefix []byte) ([]byte, error) {
	g := &pkgGen{run: r, target: t, typesPkg: t.typesPkg, outPkg: t.pkg.Path,
		imports: generator.NewImportTrackerForPackage(t.pkg.Path), used: map[string]bool{},
		peer: map[*typ]*typ{}, skipped: map[*typ][]skippedField{}, public: map[string]bool{}, declaredPair: map[string]pair{}}
	type explicit struct {
		t    *typ
		from []*typ
	}
	var all []explicit
	for _, typ := range r.typesOf(t.typesPkg) {
		e := explicit{t: typ, from: r.explicitFrom(typ)}
		if p := r.peerOf(typ, t.peers); p != nil && g.convertible(typ, p) {
			g.paired = append(g.paired, typ)
			g.peer[typ] = p
		} else if len(e.from) == 0 {
			continue
		}
		all = append(all, e)
	}
	g.register(func() []pair {
		var out []pair
		for _, e := range all {
			for _, f := range e.from {
				out = append(out, pair{f, e.t})
			}
		}
		return out
	}())
	for _, e := range all {
		if p := g.peer[e.t]; p != nil {
			g.conversion(e.t, p)
			g.conversion(p, e.t)
		}
		for _, f := range e.from {
			g.fromURLValues(f, e.t)
		}
	}
	g.checkCalls()
	g.checkHandWritten()
	if len(g.errs) > 0 {
		return nil, errors.Join(g.errs...)
	}
	return g.file(prefix), nil
}

// file assembles the file: imports grouped as goimports does (standard library first), then the code.
func (g *pkgGen) file(prefix []byte) []byte {
	var std, other []string
	for _, line := range g.imports.ImportLines() {
		_, path, _ := strings.Cut(line, " ")
		path = strings.Trim(path, `"`)
		if !g.used[path] {
			continue
		}
		if strings.Contains(strings.Split(path, "/")[0], ".") {
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	var b bytes.Buffer
	b.Write(prefix)
	fmt.Fprintf(&b, "package %s\n\n", g.target.pkg.Name)
	if len(std)+len(other) > 0 {
		b.WriteString("import (\n")
		for _, l := range std {
			b.WriteString("\t" + l + "\n")
		}
		if len(std) > 0 && len(other) > 0 {
			b.WriteString("\n")
		}
		for _, l := range other {
			b.WriteString("\t" + l + "\n")
		}
		b.WriteString(")\n\n")
	}
	b.WriteString(strings.TrimRight(indent(g.out.String()), "\n"))
	b.WriteString("\n")
	return b.Bytes()
}

// indent indents the generated code as gofmt does: its lines carry no indentation of their own, every
// block opens at the end of a line and closes at the start of one.
func indent(code string) string {
	var b strings.Builder
	b.Grow(len(code) + len(code)/4)
	depth := 0
	for line := range strings.Lines(code) {
		if strings.HasPrefix(line, "}") {
			depth--
		}
		if line != "\n" {
			b.WriteString(strings.Repeat("\t", depth))
		}
		b.WriteString(line)
		if strings.HasSuffix(line, "{\n") {
			depth++
		}
	}
	return b.String()
}

// register writes init and RegisterConversions: the generated functions of each pair in type order (both
// directions, unless hand-written), the explicit-from conversions, then the hand-written functions of the
// output package by name.
func (g *pkgGen) register(explicit []pair) {
	g.w("func init() {\nlocalSchemeBuilder.Register(RegisterConversions)\n}\n\n")
	g.w("// RegisterConversions adds conversion functions to the given scheme.\n// Public to allow building arbitrary schemes.\n")
	g.w("func RegisterConversions(s *%s) error {\n", g.raw(g.u.of(g.schemeType())))
	generated := func(in, out *typ) {
		g.calls = append(g.calls, call{name: "Convert_" + in.public() + "_To_" + out.public(), in: in, out: out,
			at: site{pos: g.declPos(in, out), what: "RegisterConversions"}})
		g.w("if err := s.AddGeneratedConversionFunc((*%s)(nil), (*%s)(nil), func(a, b interface{}, scope %s) error {\nreturn %s(a.(*%s), b.(*%s), scope)\n}); err != nil {\nreturn err\n}\n",
			g.raw(in), g.raw(out), g.scope(), g.fnName(in, out), g.raw(in), g.raw(out))
	}
	for _, t := range g.paired {
		p := g.peer[t]
		if _, ok := g.preexists(t, p); !ok {
			generated(t, p)
		}
		if _, ok := g.preexists(p, t); !ok {
			generated(p, t)
		}
	}
	for _, e := range explicit {
		generated(e.in, e.out)
	}
	var own []pair
	for k, m := range g.manual {
		if m.fn.Pkg().Path() == g.outPkg {
			own = append(own, k)
		}
	}
	sort.Slice(own, func(i, j int) bool { return g.manual[own[i]].fn.Name() < g.manual[own[j]].fn.Name() })
	for _, k := range own {
		g.w("if err := s.AddConversionFunc((*%s)(nil), (*%s)(nil), func(a, b interface{}, scope %s) error {\nreturn %s(a.(*%s), b.(*%s), scope)\n}); err != nil {\nreturn err\n}\n",
			g.raw(k.in), g.raw(k.out), g.scope(), g.fnRef(g.manual[k]), g.raw(k.in), g.raw(k.out))
	}
	g.w("return nil\n}\n\n")
}

// declPos is where the type of a pair declared in the types package is.
func (g *pkgGen) declPos(in, out *typ) token.Pos {
	if in.pkg == g.typesPkg.Path() {
		return in.pos()
	}
	return out.pos()
}

// schemeType is runtime.Scheme, which RegisterConversions takes.
func (g *pkgGen) schemeType() types.Type {
	p, err := g.lookup(runtimePkg)
	if err != nil {
		g.errs = append(g.errs, fmt.Errorf("package %s: %s is not among its dependencies, but RegisterConversions takes its Scheme: import it (a register.go declaring localSchemeBuilder does)", g.outPkg, runtimePkg))
		return types.Typ[types.Invalid]
	}
	return p.Scope().Lookup("Scheme").Type()
}

func (g *pkgGen) scope() string { return g.ref(conversionPkg) + ".Scope" }

// conversion writes autoConvert_<in>_To_<out> and, unless hand-written, Convert_<in>_To_<out>. Fields
// that need a hand-written conversion are errors when there is none.
func (g *pkgGen) conversion(in, out *typ) {
	name := g.fnName(in, out)
	g.declare("auto"+name, in, out)
	g.w("func auto%s(in *%s, out *%s, s %s) error {\n", name, g.raw(in), g.raw(out), g.scope())
	if in.kind == kindStruct {
		g.doStruct(in, out)
	} else {
		g.w("// FIXME: Type %s is unsupported.\n", g.raw(in))
		g.skipped[in] = append(g.skipped[in], skippedField{pos: in.pos(), reason: "conversion-gen converts structs only"})
	}
	g.w("return nil\n}\n\n")
	if _, ok := g.preexists(in, out); ok {
		return
	}
	if skipped := g.skipped[in]; len(skipped) > 0 {
		if obj := g.target.pkg.Types.Scope().Lookup(name); obj != nil {
			return // reported by checkHandWritten
		}
		want := fmt.Sprintf("write func %s(in *%s, out *%s, s conversion.Scope) error in package %s", name, in.public2(g.outPkg), out.public2(g.outPkg), g.outPkg)
		if f := skipped[0]; f.name == "" {
			g.fail(f.pos, "type %s needs a hand-written conversion to %s (%s): %s", in, out, f.reason, want)
			return
		}
		var fields strings.Builder
		for _, f := range skipped {
			fmt.Fprintf(&fields, "\n\t%s: field %s.%s: %s", position(g.prog.Fset.Position(f.pos)), in.local, f.name, f.reason)
		}
		g.fail(skipped[0].pos, "field %s.%s needs a hand-written conversion from %s to %s: %s, calling auto%s for the other fields; the fields it must convert:%s",
			in.local, skipped[0].name, in, out, want, name, fields.String())
		return
	}
	g.public[name] = true
	g.declare(name, in, out)
	g.w("// %s is an autogenerated conversion function.\n", name)
	g.w("func %s(in *%s, out *%s, s %s) error {\nreturn auto%s(in, out, s)\n}\n\n", name, g.raw(in), g.raw(out), g.scope(), name)
}

// declare records a function the file declares.
func (g *pkgGen) declare(name string, in, out *typ) {
	g.declared = append(g.declared, name)
	g.declaredPair[name] = pair{in, out}
}

// public2 names t for a message written in package pkg: qualified by its package name unless it is there.
func (t *typ) public2(pkg string) string {
	if t.pkg == pkg || t.obj == nil {
		return t.local
	}
	return t.obj.Pkg().Name() + "." + t.local
}

// skip records a source struct field that needs a hand-written conversion.
func (g *pkgGen) skip(in *typ, m member, reason string) {
	g.skipped[in] = append(g.skipped[in], skippedField{name: m.name, pos: m.v.Pos(), reason: reason})
}

// missing reports a conversion the generated code would need and that neither exists nor is generated.
func (g *pkgGen) missing(in, out *typ) {
	g.w("// FIXME: Provide conversion function to convert %s to %s\ncompileErrorOnMissingConversion()\n", in, out)
	g.errs = append(g.errs, fmt.Errorf("%s: %s: no conversion from %s to %s%s: write func Convert_%s_To_%s(in *%s, out *%s, s conversion.Scope) error in package %s or one of its peers",
		position(g.prog.Fset.Position(g.at.pos)), g.at.what, in, out, g.optOutNote(in, out), in.public(), out.public(), in.public2(g.outPkg), out.public2(g.outPkg), g.outPkg))
}

// callGenerated writes a call of the generated Convert_ function for a pair, which the file must define.
func (g *pkgGen) callGenerated(in, out *typ, args string) {
	name := g.fnName(in, out)
	g.calls = append(g.calls, call{name: name, in: in, out: out, at: g.at})
	g.w("if err := %s(%s, s); err != nil {\n", name, args)
}

// checkCalls reports calls of Convert_ functions the file does not define; pairs that lack their public
// function because a field needs a hand-written conversion are reported at that field already.
func (g *pkgGen) checkCalls() {
	seen := map[string]bool{}
	for _, c := range g.calls {
		if g.public[c.name] || len(g.skipped[c.in]) > 0 || seen[c.name] {
			continue
		}
		if _, ok := g.preexists(c.in, c.out); ok {
			continue
		}
		seen[c.name] = true
		g.errs = append(g.errs, fmt.Errorf("%s: %s: calls %s, which is neither generated nor hand-written: there is no conversion from %s to %s%s",
			position(g.prog.Fset.Position(c.at.pos)), c.at.what, c.name, c.in, c.out, g.optOutNote(c.in, c.out)))
	}
}

// checkHandWritten reports hand-written declarations of the output package that the generated code
// declares too: an autoConvert_ function, or a Convert_ function without a conversion function's
// signature (one with it is used instead of the generated one).
func (g *pkgGen) checkHandWritten() {
	scope := g.target.pkg.Types.Scope()
	for _, name := range g.declared {
		obj := scope.Lookup(name)
		if obj == nil {
			continue
		}
		in, out := g.declaredPair[name].in, g.declaredPair[name].out
		if strings.HasPrefix(name, "auto") {
			g.fail(obj.Pos(), "%s is declared by hand, but conversion-gen generates it: rename it", name)
			continue
		}
		g.fail(obj.Pos(), "%s has the wrong signature for a conversion function, so conversion-gen would generate it again: want func %s(in *%s, out *%s, s conversion.Scope) error",
			name, name, in.public2(g.outPkg), out.public2(g.outPkg))
	}
}

func (g *pkgGen) fail(pos token.Pos, format string, args ...any) {
	g.errs = append(g.errs, fmt.Errorf("%s: %s", position(g.prog.Fset.Position(pos)), fmt.Sprintf(format, args...)))
}

// doStruct writes the body converting struct in to struct out: one unsafe copy when the layouts and
// member names agree, else member by member in source order.
func (g *pkgGen) doStruct(in, out *typ) {
	if g.canMemoryCopy(in, out) {
		g.w("*out = *(*%s)(%s.Pointer(in))\n", g.raw(out), g.ref("unsafe"))
		return
	}
	for _, im := range in.members {
		if g.memberOptOut(im) {
			g.w("// INFO: in.%s opted out of conversion generation\n", im.name)
			continue
		}
		om, found := out.findMember(im.name)
		if !found {
			g.w("// WARNING: in.%s requires manual conversion: does not exist in peer-type\n", im.name)
			g.skip(in, im, fmt.Sprintf("%s has no field %s", out, im.name))
			continue
		}
		if isPrivate(im.name) && g.outPkg != in.pkg {
			g.w("// WARNING: in.%s is not exported and cannot be read\n", im.name)
			g.skip(in, im, "the field is not exported")
			continue
		}
		if isPrivate(om.name) && g.outPkg != out.pkg {
			g.w("// WARNING: out.%s is not exported and cannot be set\n", im.name)
			g.skip(in, im, "the field is not exported")
			continue
		}
		it, ot := asMember(im.t), asMember(om.t)
		g.at = site{pos: im.v.Pos(), what: fmt.Sprintf("field %s.%s", in.local, im.name), in: im.t, out: om.t}
		if g.useUnsafe(it, ot) {
			switch it.kind {
			case kindPointer:
				g.w("out.%s = (%s)(%s.Pointer(in.%s))\n", im.name, g.raw(ot), g.ref("unsafe"), im.name)
				continue
			case kindMap, kindSlice:
				g.w("out.%s = *(*%s)(%s.Pointer(&in.%s))\n", im.name, g.raw(ot), g.ref("unsafe"), im.name)
				continue
			}
		}
		if fn, ok := g.preexists(im.t, om.t); ok {
			if fn.drop {
				continue
			}
			if !fn.copyOnly || !g.isFastConversion(it, ot) {
				g.w("if err := %s(&in.%s, &out.%s, s); err != nil {\nreturn err\n}\n", g.fnRef(fn), im.name, im.name)
				continue
			}
		}
		if it.kind != ot.kind {
			g.w("// WARNING: in.%s requires manual conversion: inconvertible types (%s vs %s)\n", im.name, it, ot)
			g.skip(in, im, fmt.Sprintf("inconvertible types %s and %s", it, ot))
			continue
		}
		switch it.kind {
		case kindBuiltin:
			switch {
			case it == ot:
				g.w("out.%s = in.%s\n", im.name, im.name)
			case !castable(it, ot):
				g.w("// WARNING: in.%s requires manual conversion: inconvertible types (%s vs %s)\n", im.name, it, ot)
				g.skip(in, im, fmt.Sprintf("a Go conversion from %s to %s does not keep the value", it, ot))
			default:
				g.w("out.%s = %s(in.%s)\n", im.name, g.raw(ot), im.name)
			}
		case kindMap, kindSlice, kindPointer:
			if g.directlyAssignable(it, ot) {
				g.w("out.%s = in.%s\n", im.name, im.name)
				continue
			}
			g.w("if in.%[1]s != nil {\nin, out := &in.%[1]s, &out.%[1]s\n", im.name)
			switch it.kind {
			case kindMap:
				g.doMap(it, ot)
			case kindSlice:
				g.doSlice(it, ot)
			default:
				g.doPointer(it, ot)
			}
			g.w("} else {\nout.%s = nil\n}\n", im.name)
		case kindStruct:
			if g.directlyAssignable(it, ot) {
				g.w("out.%s = in.%s\n", im.name, im.name)
				continue
			}
			if g.convertible(it, ot) {
				g.callGenerated(it, ot, fmt.Sprintf("&in.%s, &out.%s", im.name, im.name))
				g.w("return err\n}\n")
			} else {
				g.missing(it, ot)
			}
		default:
			if g.convertible(it, ot) {
				g.callGenerated(it, ot, fmt.Sprintf("&in.%s, &out.%s", im.name, im.name))
				g.w("return err\n}\n")
			} else {
				g.missing(it, ot)
			}
		}
	}
}

// canMemoryCopy reports whether struct in converts to out as one unsafe copy: equal memory layouts and
// member names, every member present in out, none opted out or unexported across packages, and no
// member pair with a hand-written conversion other than a copy-only one.
func (g *pkgGen) canMemoryCopy(in, out *typ) bool {
	if !g.useUnsafe(in, out) {
		return false
	}
	for _, im := range in.members {
		if g.memberOptOut(im) {
			return false
		}
		om, found := out.findMember(im.name)
		if !found {
			return false
		}
		if isPrivate(im.name) && g.outPkg != in.pkg || isPrivate(om.name) && g.outPkg != out.pkg {
			return false
		}
		if fn, ok := g.preexists(im.t, om.t); ok && !fn.copyOnly {
			return false
		}
	}
	return true
}

func (g *pkgGen) isFastConversion(in, out *typ) bool {
	switch in.kind {
	case kindBuiltin:
		return true
	case kindMap, kindSlice, kindPointer, kindStruct, kindAlias:
		return g.directlyAssignable(in, out)
	}
	return false
}

// directlyAssignable reports identical types once aliases are unwrapped.
func (g *pkgGen) directlyAssignable(in, out *typ) bool { return unwrapAlias(in) == unwrapAlias(out) }

// assignable reports element types whose values are assigned (or cast): primitives, and types of one
// package that assignment copies completely.
func assignable(in, out *typ) bool {
	return in.isAssignable() && (in.isPrimitive() || in.pkg == out.pkg)
}

// cast writes the conversion of expression x from in to out for assignable elements, or reports one that
// would not keep the value.
func (g *pkgGen) cast(in, out *typ, x string) string {
	if in == out {
		return x
	}
	if in.isPrimitive() && out.isPrimitive() && !castable(in, out) {
		g.errs = append(g.errs, fmt.Errorf("%s: %s: a Go conversion from %s to %s does not keep the value: write a conversion function for the field's types (%s to %s)",
			position(g.prog.Fset.Position(g.at.pos)), g.at.what, in, out, g.at.in, g.at.out))
	}
	return g.raw(out) + "(" + x + ")"
}

func (g *pkgGen) doMap(in, out *typ) {
	g.w("*out = make(%s, len(*in))\n", g.raw(out))
	if !assignable(in.key, out.key) {
		g.w("for range *in {\n// FIXME: Converting unassignable keys unsupported %s\n}\n", g.raw(in.key))
		g.errs = append(g.errs, fmt.Errorf("%s: %s: map keys of type %s cannot be converted to %s: write a conversion function for the field's types (%s to %s)",
			position(g.prog.Fset.Position(g.at.pos)), g.at.what, in.key, out.key, g.at.in, g.at.out))
		return
	}
	g.w("for key, val := range *in {\n")
	key := "key"
	if in.key != out.key {
		key = g.cast(in.key, out.key, "key")
	}
	if assignable(in.elem, out.elem) {
		g.w("(*out)[%s] = %s\n", key, g.cast(in.elem, out.elem, "val"))
		g.w("}\n")
		return
	}
	conditional := false
	if fn, ok := g.preexists(in.elem, out.elem); ok {
		g.w("newVal := new(%s)\n", g.raw(out.elem))
		g.w("if err := %s(&val, newVal, s); err != nil {\n", g.fnRef(fn))
	} else if fn, ok := g.preexistsPointers(in.elem, out.elem); ok {
		g.w("newVal := new(%s)\n", g.raw(out.elem))
		g.w("if val != nil {\n*newVal = new(%s)\n", g.raw(out.elem.elem))
		g.w("if err := %s(val, *newVal, s); err != nil {\n", g.fnRef(fn))
		conditional = true
	} else if g.convertible(in.elem, out.elem) {
		g.w("newVal := new(%s)\n", g.raw(out.elem))
		g.callGenerated(in.elem, out.elem, "&val, newVal")
	} else {
		g.missing(in.elem, out.elem)
		g.w("}\n")
		return
	}
	g.w("return err\n}\n")
	if conditional {
		g.w("}\n")
	}
	g.w("(*out)[%s] = *newVal\n}\n", key)
}

func (g *pkgGen) doSlice(in, out *typ) {
	g.w("*out = make(%s, len(*in))\n", g.raw(out))
	if in.elem == out.elem && in.elem.kind == kindBuiltin {
		g.w("copy(*out, *in)\n")
		return
	}
	g.w("for i := range *in {\n")
	switch {
	case assignable(in.elem, out.elem):
		g.w("(*out)[i] = %s\n", g.cast(in.elem, out.elem, "(*in)[i]"))
	default:
		conditional := false
		if fn, ok := g.preexists(in.elem, out.elem); ok {
			g.w("if err := %s(&(*in)[i], &(*out)[i], s); err != nil {\n", g.fnRef(fn))
		} else if fn, ok := g.preexistsPointers(in.elem, out.elem); ok {
			g.w("if (*in)[i] != nil {\n(*out)[i] = new(%s)\n", g.raw(out.elem.elem))
			g.w("if err := %s((*in)[i], (*out)[i], s); err != nil {\n", g.fnRef(fn))
			conditional = true
		} else if g.convertible(in.elem, out.elem) {
			g.callGenerated(in.elem, out.elem, "&(*in)[i], &(*out)[i]")
		} else {
			g.missing(in.elem, out.elem)
			break
		}
		g.w("return err\n}\n")
		if conditional {
			g.w("}\n")
		}
	}
	g.w("}\n")
}

func (g *pkgGen) doPointer(in, out *typ) {
	g.w("*out = new(%s)\n", g.raw(out.elem))
	if assignable(in.elem, out.elem) {
		g.w("**out = %s\n", g.cast(in.elem, out.elem, "**in"))
		return
	}
	if fn, ok := g.preexists(in.elem, out.elem); ok {
		g.w("if err := %s(*in, *out, s); err != nil {\n", g.fnRef(fn))
	} else if g.convertible(in.elem, out.elem) {
		g.callGenerated(in.elem, out.elem, "*in, *out")
	} else {
		g.missing(in.elem, out.elem)
		return
	}
	g.w("return err\n}\n")
}

// fromURLValues writes the conversion from url.Values to struct out: each field with a json name reads
// the values under that key.
func (g *pkgGen) fromURLValues(in, out *typ) {
	name := g.fnName(in, out)
	g.declare("auto"+name, in, out)
	g.w("func auto%s(in *%s, out *%s, s %s) error {\n", name, g.raw(in), g.raw(out), g.scope())
	strs := unwrapAlias(in)
	for _, om := range out.members {
		if g.memberOptOut(om) {
			g.w("// INFO: in.%s opted out of conversion generation\n", om.name)
			continue
		}
		jsonName, _, _ := strings.Cut(reflect.StructTag(om.tag).Get("json"), ",")
		if jsonName == "" {
			g.w("// WARNING: Field %s does not have json tag, skipping.\n\n", om.name)
			continue
		}
		g.at = site{pos: om.v.Pos(), what: fmt.Sprintf("field %s.%s", out.local, om.name), in: in, out: om.t}
		g.w("if values, ok := map[string][]string(*in)[%q]; ok && len(values) > 0 {\n", jsonName)
		g.fromValuesEntry(strs.elem, om)
		g.w("} else {\n")
		g.zeroValue(om)
		g.w("}\n")
	}
	g.w("return nil\n}\n\n")
	if _, ok := g.preexists(in, out); ok {
		return
	}
	g.public[name] = true
	g.declare(name, in, out)
	g.w("// %s is an autogenerated conversion function.\n", name)
	g.w("func %s(in *%s, out *%s, s %s) error {\nreturn auto%s(in, out, s)\n}\n\n", name, g.raw(in), g.raw(out), g.scope(), name)
}

func (g *pkgGen) fromValuesEntry(in *typ, om member) {
	if fn, ok := g.preexists(in, om.t); ok {
		g.w("if err := %s(&values, &out.%s, s); err != nil {\nreturn err\n}\n", g.fnRef(fn), om.name)
		return
	}
	switch {
	case om.t.kind == kindBuiltin && om.t.local == "string":
		g.w("out.%s = values[0]\n", om.name)
	case g.useUnsafe(in, om.t) && (in.kind == kindMap || in.kind == kindSlice):
		g.w("out.%s = *(*%s)(%s.Pointer(&values))\n", om.name, g.raw(om.t), g.ref("unsafe"))
	default:
		g.w("// FIXME: out.%s is of not yet supported type and requires manual conversion\n", om.name)
		g.errs = append(g.errs, fmt.Errorf("%s: %s: cannot be read from url.Values: write func Convert_%s_To_%s(in *[]string, out *%s, s conversion.Scope) error in package %s or one of its peers",
			position(g.prog.Fset.Position(om.v.Pos())), g.at.what, in.public(), om.t.public(), om.t.public2(g.outPkg), g.outPkg))
	}
}

func (g *pkgGen) zeroValue(om member) {
	t := unwrapAlias(om.t)
	switch t.kind {
	case kindBuiltin:
		b, _ := basicOf(t)
		switch {
		case b == nil:
		case b.Info()&types.IsString != 0:
			g.w("out.%s = \"\"\n", om.name)
			return
		case b.Info()&types.IsNumeric != 0:
			g.w("out.%s = 0\n", om.name)
			return
		case b.Info()&types.IsBoolean != 0:
			g.w("out.%s = false\n", om.name)
			return
		}
	case kindStruct:
		if t == om.t {
			g.w("out.%s = %s{}\n", om.name, g.raw(t))
		} else {
			g.w("out.%s = %s(%s{})\n", om.name, g.raw(om.t), g.raw(t))
		}
		return
	case kindMap, kindSlice, kindPointer, kindInterface:
		g.w("out.%s = nil\n", om.name)
		return
	}
	g.w("// FIXME: out.%s is of unsupported type and requires manual conversion\n", om.name)
	g.errs = append(g.errs, fmt.Errorf("%s: field %s.%s: its type %s has no zero value conversion-gen can write",
		position(g.prog.Fset.Position(om.v.Pos())), g.at.what, om.name, om.t))
}
