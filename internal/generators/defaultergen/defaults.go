package defaultergen

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/model"
)

// defaultValue is a +default to set at a node.
type defaultValue struct {
	// literal is the value as Go code (a JSON string, number or bool) or, for the other types, the JSON
	// document unmarshalled at run time.
	literal string
	// ref is the constant or variable of +default=ref(...).
	ref *symbol
	// primitive: the value's type is a builtin, or a pointer to one (through named types).
	primitive bool
	// base is the builtin under top; top is the type of the field or element being defaulted.
	base, top types.Type
}

// symbol is a package-level identifier; pkg "" means the output package.
type symbol struct{ pkg, name string }

var refPattern = regexp.MustCompile(`^ref\(([^"]+)\)$`)

// fieldDefault adds the +default of struct field f to n (creating a node when n is nil); commentPkg is
// the package an unqualified ref() names.
func (p *pkgRun) fieldDefault(n *node, f *types.Var, commentPkg string) *node {
	lines, _, err := p.run.comments.Blocks(f.Pos())
	if err != nil {
		p.run.fail(err)
		return n
	}
	tag, err := oneDefault(lines)
	if err != nil {
		p.run.fail(err)
		return n
	}
	return p.populate(n, f.Type(), tag, commentPkg, "field "+f.Name())
}

// elemDefault is the node defaulting slice or map elements of type elem from the +default on elem's own
// declaration; nil without one.
func (p *pkgRun) elemDefault(elem types.Type) *node {
	var tag *tagValue
	if named, ok := types.Unalias(elem).(*types.Named); ok {
		var err error
		if tag, err = p.typeDefault(named); err != nil {
			p.run.fail(err)
			return nil
		}
	}
	return p.populate(nil, elem, tag, packageOf(elem), "elements of "+types.TypeString(elem, nil))
}

// typeDefault reads the +default of a named type's doc comment.
func (p *pkgRun) typeDefault(named *types.Named) (*tagValue, error) {
	lines, _, err := p.run.comments.Blocks(named.Obj().Pos())
	if err != nil {
		return nil, err
	}
	return oneDefault(lines)
}

// oneDefault returns the +default of lines, nil without one.
func oneDefault(lines []model.CommentLine) (*tagValue, error) {
	vals, err := values(lines, tagDefault)
	switch {
	case err != nil:
		return nil, err
	case len(vals) > 1:
		return nil, fmt.Errorf("%s: +%s: a second default (the first is at line %d)", vals[1], tagDefault, vals[0].pos.Line)
	case len(vals) == 0:
		return nil, nil
	case vals[0].value == "":
		return nil, fmt.Errorf("%s: +%s needs a value: a JSON literal or ref(<constant>)", vals[0], tagDefault)
	}
	return &vals[0], nil
}

// nestedDefault finds the +default of the named types a pointer type leads to, nearest first.
func (p *pkgRun) nestedDefault(t types.Type) (*tagValue, error) {
	for {
		t = types.Unalias(t)
		if named, ok := t.(*types.Named); ok {
			tag, err := p.typeDefault(named)
			if err != nil || tag != nil {
				return tag, err
			}
		}
		switch model.KindOf(t) {
		case model.KindAlias:
			t = t.Underlying()
		case model.KindPointer:
			t = model.ElemOf(t)
		default:
			return nil, nil
		}
	}
}

// resolveBase follows named types and pointers from t to the first type that is neither; depth counts
// the pointers.
func resolveBase(t types.Type) (types.Type, int) {
	depth := 0
	for {
		t = types.Unalias(t)
		switch model.KindOf(t) {
		case model.KindAlias:
			t = t.Underlying()
		case model.KindPointer:
			t = model.ElemOf(t)
			depth++
		default:
			return t, depth
		}
	}
}

// pointerPath returns the types the pointers from t lead to, in order (for *T: T; for a named pointer
// P to *T: *T, T).
func pointerPath(t types.Type) []types.Type {
	var path []types.Type
	for {
		t = types.Unalias(t)
		switch model.KindOf(t) {
		case model.KindAlias:
			t = t.Underlying()
		case model.KindPointer:
			t = types.Unalias(model.ElemOf(t))
			path = append(path, t)
		default:
			return path
		}
	}
}

// populate gives n the default tag sets for a value of type t (for pointers without a tag of their own,
// the one on the type they point to); what names the defaulted value in errors.
func (p *pkgRun) populate(n *node, t types.Type, tag *tagValue, commentPkg, what string) *node {
	base, depth := resolveBase(t)
	if depth > 0 && tag == nil {
		var err error
		if tag, err = p.nestedDefault(t); err != nil {
			p.run.fail(err)
			return n
		}
	}
	if tag == nil {
		return n
	}
	_, isBasic := base.(*types.Basic)
	d := &defaultValue{primitive: isBasic, base: base, top: t}
	var doc any
	if m := refPattern.FindStringSubmatch(tag.value); m != nil {
		sym := &symbol{name: m[1]}
		if i := strings.LastIndex(m[1], "."); i >= 0 {
			sym.pkg, sym.name = m[1][:i], m[1][i+1:]
		} else {
			sym.pkg = commentPkg
		}
		d.ref = sym
	} else {
		var err error
		if doc, err = decodeJSON(tag.value); err != nil {
			p.run.fail(fmt.Errorf("%s: +%s=%s (%s): not a JSON value: %v", tag, tagDefault, tag.value, what, err))
			return n
		}
		if doc != nil && isZero(t, doc) {
			return n
		}
		d.literal = tag.value
	}
	if err := p.check(d, doc); err != nil {
		p.run.fail(fmt.Errorf("%s: +%s=%s (%s of type %s): %v", tag, tagDefault, tag.value, what, types.TypeString(t, nil), err))
		return n
	}
	if n == nil {
		n = &node{markerOnly: true}
	}
	n.def = d
	return n
}

// decodeJSON parses one JSON value, keeping numbers as written.
func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("text after the value")
	}
	return v, nil
}

// isZero reports a literal equal to the zero value of t, which defaulter-gen skips; as there, only for
// unnamed builtins, []byte and time.Time.
func isZero(t types.Type, v any) bool {
	t = types.Unalias(t)
	name := ""
	switch u := t.(type) {
	case *types.Basic:
		name = u.Name()
	case *types.Slice:
		if b, ok := types.Unalias(u.Elem()).(*types.Basic); ok && b.Name() == "byte" {
			name = "[]byte"
		}
	case *types.Named:
		if u.Obj().Pkg() != nil && u.Obj().Pkg().Path() == "time" && u.Obj().Name() == "Time" {
			name = "time.Time"
		}
	}
	switch name {
	case "uint", "uint8", "uint16", "uint32", "uint64", "int", "int8", "int16", "int32", "int64", "byte", "float32", "float64":
		n, ok := v.(json.Number)
		f, err := n.Float64()
		return ok && err == nil && f == 0
	case "bool":
		return v == false
	case "string", "time.Time", "[]byte":
		return v == ""
	}
	return false
}

// check verifies that the default fits the type it defaults: a literal of a primitive must be a Go
// constant of that type, a ref() must name a constant or variable convertible to it, and a JSON document
// must unmarshal into a type the generated code can compare with nil.
func (p *pkgRun) check(d *defaultValue, doc any) error {
	if d.primitive {
		b := d.base.(*types.Basic)
		if b.Info()&(types.IsString|types.IsBoolean|types.IsInteger|types.IsFloat) == 0 {
			return fmt.Errorf("defaulter-gen sets no defaults of type %s", b.Name())
		}
		target := d.top
		if path := pointerPath(d.top); len(path) > 0 {
			target = path[len(path)-1]
		}
		if d.ref != nil {
			return p.checkRef(d.ref, target)
		}
		lit, err := goLiteral(doc, b, d.literal)
		if err != nil {
			return err
		}
		d.literal = lit
		return nil
	}
	if d.ref != nil {
		return errors.New("ref() defaults are for builtin types and pointers to them; give a JSON value")
	}
	switch types.Unalias(d.top).Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface:
	default:
		return errors.New("the generated code sets the default when the value is nil, which this type cannot be: make it a pointer, or set the default in a SetDefaults_ function")
	}
	if strings.Contains(d.literal, "`") {
		return errors.New("the value may not contain a backquote")
	}
	return checkJSON(doc, d.top, "")
}

// checkRef verifies that sym names a constant or variable convertible to target, when its package is
// loaded.
func (p *pkgRun) checkRef(sym *symbol, target types.Type) error {
	path := sym.pkg
	if path == "" {
		path = p.outPath
	}
	pkg, err := p.run.importPkg(path)
	if err != nil {
		// A package no input package imports is not loaded: the generated file imports it, and the
		// compiler checks the reference.
		return nil
	}
	obj := pkg.Scope().Lookup(sym.name)
	switch obj.(type) {
	case *types.Const, *types.Var:
	default:
		return fmt.Errorf("%s has no constant or variable %s", path, sym.name)
	}
	if !types.ConvertibleTo(obj.Type(), target) {
		return fmt.Errorf("%s.%s of type %s does not convert to %s", path, sym.name, types.TypeString(obj.Type(), nil), types.TypeString(target, nil))
	}
	return nil
}

// goLiteral returns the Go spelling of JSON value v, written as raw, as a constant of builtin type b: raw
// itself where Go reads it the same.
func goLiteral(v any, b *types.Basic, raw string) (string, error) {
	info := b.Info()
	switch v := v.(type) {
	case string:
		if info&types.IsString == 0 {
			return "", fmt.Errorf("a string does not fit type %s", b.Name())
		}
		if s, err := strconv.Unquote(raw); err == nil && s == v {
			return raw, nil
		}
		return strconv.Quote(v), nil
	case bool:
		if info&types.IsBoolean == 0 {
			return "", fmt.Errorf("a bool does not fit type %s", b.Name())
		}
		return strconv.FormatBool(v), nil
	case json.Number:
		if info&types.IsNumeric == 0 {
			return "", fmt.Errorf("a number does not fit type %s", b.Name())
		}
		if err := checkNumber(v, b); err != nil {
			return "", err
		}
		return v.String(), nil
	case nil:
		return "", fmt.Errorf("null is no value of type %s", b.Name())
	}
	return "", fmt.Errorf("a JSON object or array does not fit type %s", b.Name())
}

// checkNumber verifies that number n is representable in numeric type b.
func checkNumber(n json.Number, b *types.Basic) error {
	v := constant.MakeFromLiteral(n.String(), token.FLOAT, 0)
	if v.Kind() == constant.Unknown {
		return fmt.Errorf("%s is not a number", n)
	}
	if b.Info()&types.IsFloat != 0 {
		f, _ := constant.Float64Val(v)
		if b.Kind() == types.Float32 && math.Abs(f) > math.MaxFloat32 {
			return fmt.Errorf("%s overflows float32", n)
		}
		return nil
	}
	i := constant.ToInt(v)
	if i.Kind() != constant.Int {
		return fmt.Errorf("%s is not an integer, as type %s needs", n, b.Name())
	}
	lo, hi := intRange(b)
	if constant.Compare(i, token.LSS, lo) || constant.Compare(i, token.GTR, hi) {
		return fmt.Errorf("%s overflows %s", n, b.Name())
	}
	return nil
}

// intRange returns the smallest and largest values of integer type b (int, uint and uintptr as 64 bits).
func intRange(b *types.Basic) (lo, hi constant.Value) {
	bits := map[types.BasicKind]int{
		types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Uint8: 8, types.Uint16: 16, types.Uint32: 32,
	}[b.Kind()]
	if bits == 0 {
		bits = 64
	}
	one := constant.MakeInt64(1)
	if b.Info()&types.IsUnsigned != 0 {
		return constant.MakeInt64(0), constant.BinaryOp(constant.Shift(one, token.SHL, uint(bits)), token.SUB, one)
	}
	hi = constant.BinaryOp(constant.Shift(one, token.SHL, uint(bits-1)), token.SUB, one)
	return constant.UnaryOp(token.SUB, constant.BinaryOp(hi, token.ADD, one), 0), hi
}

// checkJSON verifies that json.Unmarshal of v into a value of type t succeeds and uses every member of
// every object (encoding/json would drop an unknown one silently); at names the place in the document.
func checkJSON(v any, t types.Type, at string) error {
	t = types.Unalias(t)
	if hasMethod(t, "UnmarshalJSON") || v == nil {
		return nil
	}
	where := func() string {
		if at == "" {
			return ""
		}
		return " at " + at
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return checkJSON(v, u.Elem(), at)
	case *types.Interface:
		if u.Empty() {
			return nil
		}
		return fmt.Errorf("cannot unmarshal into interface %s%s", types.TypeString(t, nil), where())
	case *types.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("want a JSON object for %s%s", types.TypeString(t, nil), where())
		}
		fields := jsonFields(u, map[*types.Struct]bool{})
		for k, val := range obj {
			ft, ok := fields[k]
			if !ok {
				ft, ok = fields[strings.ToLower(k)]
			}
			if !ok {
				return fmt.Errorf("%s has no field %q%s", types.TypeString(t, nil), k, where())
			}
			if err := checkJSON(val, ft, at+"."+k); err != nil {
				return err
			}
		}
		return nil
	case *types.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("want a JSON object for %s%s", types.TypeString(t, nil), where())
		}
		for k, val := range obj {
			if kb, ok := u.Key().Underlying().(*types.Basic); ok && kb.Info()&types.IsInteger != 0 && !hasMethod(u.Key(), "UnmarshalText") {
				if err := checkNumber(json.Number(k), kb); err != nil {
					return fmt.Errorf("map key %q%s: %v", k, where(), err)
				}
			}
			if err := checkJSON(val, u.Elem(), at+"."+k); err != nil {
				return err
			}
		}
		return nil
	case *types.Slice, *types.Array:
		elem := model.ElemOf(u)
		if b, ok := types.Unalias(elem).(*types.Basic); ok && b.Kind() == types.Uint8 {
			if _, isArray := u.(*types.Array); !isArray {
				s, ok := v.(string)
				if !ok {
					return fmt.Errorf("want a base64 string for %s%s", types.TypeString(t, nil), where())
				}
				var out []byte
				return json.Unmarshal([]byte(strconv.Quote(s)), &out)
			}
		}
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want a JSON array for %s%s", types.TypeString(t, nil), where())
		}
		for i, val := range arr {
			if err := checkJSON(val, elem, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		return nil
	case *types.Basic:
		if _, ok := v.(string); ok && hasMethod(t, "UnmarshalText") {
			return nil
		}
		if _, err := goLiteral(v, u, ""); err != nil {
			return fmt.Errorf("%v%s", err, where())
		}
		return nil
	}
	return fmt.Errorf("cannot unmarshal into %s%s", types.TypeString(t, nil), where())
}

// jsonFields maps the JSON names of a struct's fields (exactly and lower-cased, as encoding/json matches
// them), embedded structs without a name of their own included, to their types.
func jsonFields(s *types.Struct, seen map[*types.Struct]bool) map[string]types.Type {
	out := map[string]types.Type{}
	if seen[s] {
		return out
	}
	seen[s] = true
	for i := range s.NumFields() {
		f := s.Field(i)
		name, _, _ := strings.Cut(reflectTag(s.Tag(i)), ",")
		if name == "-" {
			continue
		}
		if name == "" && f.Embedded() {
			ft := f.Type()
			if p, ok := types.Unalias(ft).Underlying().(*types.Pointer); ok {
				ft = p.Elem()
			}
			if es, ok := types.Unalias(ft).Underlying().(*types.Struct); ok {
				for k, v := range jsonFields(es, seen) {
					if _, dup := out[k]; !dup {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.Exported() {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		out[name] = f.Type()
		if _, dup := out[strings.ToLower(name)]; !dup {
			out[strings.ToLower(name)] = f.Type()
		}
	}
	return out
}

// reflectTag returns the json key of a struct tag.
func reflectTag(tag string) string { return reflect.StructTag(tag).Get("json") }

// hasMethod reports whether *t has method name.
func hasMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), false, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}
