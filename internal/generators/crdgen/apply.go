package crdgen

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/crdgen/internal/markers"
)

// applyTypeMarkers applies a named type's markers to its schema s; pkg declares the type.
func (w *walker) applyTypeMarkers(s schema, ms []*markers.Marker, n *types.Named, pkg *types.Package, pos string) error {
	layer, err := w.layer(s, ms, n, pkg, pos)
	if err != nil {
		return err
	}
	merged, err := mergeLayers(s, layer, pos)
	if err != nil {
		return err
	}
	clear(s)
	for k, v := range merged {
		s[k] = v
	}
	return checkSchema(s, ms)
}

// layer applies markers to an empty schema, checking each against base, the schema they refine. n is the
// named type whose declaration carries the markers (nil for fields); pkg is the package they are written
// in, which +default=ref(Name) refers to. Each marker's apply function (vocabulary.go) does its part.
func (w *walker) layer(base schema, ms []*markers.Marker, n *types.Named, pkg *types.Package, pos string) (schema, error) {
	ms = slices.Clone(ms)
	sort.SliceStable(ms, func(i, j int) bool { return defOf(ms[i]).order < defOf(ms[j]).order })
	c := &markerContext{w: w, n: n, pkg: pkg, base: base, layer: schema{}}
	for _, m := range ms {
		d := defOf(m)
		if d.apply == nil {
			continue
		}
		c.target, c.eff = c.layer, base
		if m.Def.Items {
			items, ok := base["items"].(schema)
			if typeOf(base, c.layer) != "array" || !ok {
				return nil, m.Errorf("applies to array items, but the value is not an array")
			}
			sub, _ := c.layer["items"].(schema)
			if sub == nil {
				sub = schema{}
				c.layer["items"] = sub
			}
			c.target, c.eff = sub, items
		}
		c.typ = typeOf(c.eff, c.target)
		if err := d.apply(c, m); err != nil {
			return nil, err
		}
	}
	if len(c.oneOf) > 0 {
		// In controller-gen's order: after the XValidation rules, at-most, exactly, at-least.
		rank := map[string]int{"at most": 0, "exactly": 1, "at least": 2}
		sort.SliceStable(c.oneOf, func(i, j int) bool {
			return rank[oneOfKind(c.oneOf[i])] < rank[oneOfKind(c.oneOf[j])]
		})
		rules, _ := c.layer["x-kubernetes-validations"].([]any)
		c.layer["x-kubernetes-validations"] = append(rules, c.oneOf...)
	}
	return c.layer, nil
}

func oneOfKind(r any) string {
	msg := r.(schema)["message"].(string)
	for _, k := range []string{"at most", "exactly", "at least"} {
		if strings.HasPrefix(msg, k) {
			return k
		}
	}
	return ""
}

// oneOfRule is the CEL rule of an ExactlyOneOf, AtMostOneOf or AtLeastOneOf marker over fields of base.
func oneOfRule(m *markers.Marker, base schema) (schema, error) {
	names := m.Value.([]string)
	props, _ := base["properties"].(schema)
	for _, n := range names {
		if _, ok := props[n]; !ok {
			return nil, m.Errorf("field %q is not a property of this type", n)
		}
		if req, _ := base["required"].([]string); slices.Contains(req, n) {
			return nil, m.Errorf("field %q is required, so it cannot be part of a one-of constraint; mark it +optional", n)
		}
	}
	has := make([]string, len(names))
	for i, n := range names {
		has[i] = fmt.Sprintf("has(self.%s)", n)
	}
	counted := make([]string, len(names))
	for i, n := range names {
		counted[i] = fmt.Sprintf("(has(self.%s)?1:0)", n)
	}
	list := "[" + strings.Join(names, " ") + "]"
	switch m.Name() {
	case "kubebuilder:validation:ExactlyOneOf":
		return schema{"rule": strings.Join(counted, "+") + " == 1", "message": "exactly one of the fields in " + list + " must be set"}, nil
	case "kubebuilder:validation:AtMostOneOf":
		return schema{"rule": strings.Join(counted, "+") + " <= 1", "message": "at most one of the fields in " + list + " may be set"}, nil
	}
	return schema{"rule": strings.Join(has, "||"), "message": "at least one of the fields in " + list + " must be set"}, nil
}

// typeOf is the JSON type of a schema refined by a layer.
func typeOf(base, layer schema) string {
	if t, ok := layer["type"].(string); ok {
		return t
	}
	t, _ := base["type"].(string)
	return t
}

func intOrString(base, layer schema) bool {
	return base["x-kubernetes-int-or-string"] == true || layer["x-kubernetes-int-or-string"] == true
}

// Bookkeeping keys: the marker that set a value, for errors found once the schema is complete. They
// start with a character no schema key has and are removed before output.
const (
	defaultMarkerKey = "\x00default"
	listMarkerKey    = "\x00listType"
	keyMarkerKey     = "\x00listMapKey"
)

// resolveRef resolves +default=ref(Name) to the value of constant Name of pkg, the package the marker is
// written in (or ref(import/path.Name)).
func (w *walker) resolveRef(ref markers.RefValue, pkg *types.Package, m *markers.Marker) (any, error) {
	name := string(ref)
	if dot := strings.LastIndex(name, "."); dot > 0 {
		p, err := w.src.prog.Import(name[:dot])
		if err != nil {
			return nil, m.Errorf("%v", err)
		}
		pkg, name = p, name[dot+1:]
	}
	if pkg == nil {
		return nil, m.Errorf("cannot resolve %s", ref)
	}
	pkg, err := w.src.complete(pkg)
	if err != nil {
		return nil, m.Errorf("%v", err)
	}
	c, ok := pkg.Scope().Lookup(name).(*types.Const)
	if !ok {
		return nil, m.Errorf("%s names no constant of %s", ref, pkg.Path())
	}
	return constantValue(c.Val()), nil
}

func constantValue(v constant.Value) any {
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v)
	case constant.Bool:
		return constant.BoolVal(v)
	case constant.Int:
		if i, ok := constant.Int64Val(v); ok {
			return i
		}
	}
	f, _ := constant.Float64Val(v)
	return f
}

// enumValues lists the string constants of the named type n in its package, sorted by their JSON text.
func (w *walker) enumValues(n *types.Named, m *markers.Marker) ([]any, error) {
	if n == nil {
		return nil, m.Errorf("must be set on a type, not a field")
	}
	if b, ok := n.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return nil, m.Errorf("applies to string types, but %s is %s", n.Obj().Name(), n.Underlying())
	}
	pkg, err := w.src.complete(n.Obj().Pkg())
	if err != nil {
		return nil, m.Errorf("%v", err)
	}
	scope := pkg.Scope()
	var texts []string
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(c.Type(), n) || c.Val().Kind() != constant.String {
			continue
		}
		b, _ := json.Marshal(constant.StringVal(c.Val()))
		texts = append(texts, string(b))
	}
	if len(texts) == 0 {
		return nil, m.Errorf("type %s has no string constants to enumerate", n.Obj().Name())
	}
	sort.Strings(texts)
	texts = slices.Compact(texts)
	out := make([]any, len(texts))
	for i, t := range texts {
		var s string
		json.Unmarshal([]byte(t), &s)
		out[i] = s
	}
	return out, nil
}

// checkFieldPath checks that an x-kubernetes-validations fieldPath (".a.b", ".a['b']", ".list[0]")
// names a field of the schema the rule is on, as the API server requires.
func checkFieldPath(path string, s schema) error {
	rest := path
	if !strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "[") {
		return fmt.Errorf("must start with . or [")
	}
	for rest != "" {
		var name string
		switch {
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			name, rest = rest[:end], rest[end:]
		case strings.HasPrefix(rest, "['"):
			end := strings.Index(rest, "']")
			if end < 0 {
				return fmt.Errorf("unterminated ['")
			}
			name, rest = rest[2:end], rest[end+2:]
		case strings.HasPrefix(rest, "["):
			end := strings.Index(rest, "]")
			if end < 0 {
				return fmt.Errorf("unterminated [")
			}
			rest = rest[end+1:]
			items, ok := s["items"].(schema)
			if !ok {
				if ap, ok := s["additionalProperties"].(schema); ok {
					s = ap
					continue
				}
				return fmt.Errorf("indexes a value that is not a list or map")
			}
			s = items
			continue
		default:
			return fmt.Errorf("cannot parse %q", rest)
		}
		props, _ := s["properties"].(schema)
		p, ok := props[name].(schema)
		if !ok {
			if ap, ok := s["additionalProperties"].(schema); ok {
				s = ap
				continue
			}
			return fmt.Errorf("%q is not a field here", name)
		}
		s = p
	}
	return nil
}
