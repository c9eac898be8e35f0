package openapigen

import (
	"fmt"
	"go/constant"
	"go/types"
	"regexp"
	"sort"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/wireshape"
)

// enum is a string type tagged +enum, with the constants of that type the modelled packages declare.
type enum struct {
	values []enumValue
}

type enumValue struct {
	name, value, comment string
}

// collectEnums finds the +enum string types of the model and their values.
func collectEnums(m *wireshape.Model) map[*types.TypeName]*enum {
	enums := map[*types.TypeName]*enum{}
	for _, p := range m.Packages {
		for _, t := range p.Types {
			if b, ok := t.Obj.Type().Underlying().(*types.Basic); ok && b.Kind() == types.String {
				if _, ok := wireshape.Tags(t.Comments)["enum"]; ok {
					enums[t.Obj] = &enum{}
				}
			}
		}
	}
	if len(enums) == 0 {
		return enums
	}
	for _, p := range m.Packages {
		scope := p.TypesPkg.Scope()
		for _, name := range scope.Names() {
			c, ok := scope.Lookup(name).(*types.Const)
			if !ok {
				continue
			}
			n, ok := c.Type().(*types.Named)
			if !ok || enums[n.Obj()] == nil || c.Val().Kind() != constant.String {
				continue
			}
			lines, _ := m.CommentsAt(c.Pos())
			enums[n.Obj()].add(enumValue{name: name, value: constant.StringVal(c.Val()), comment: strings.Join(lines, " ")})
		}
	}
	return enums
}

// add records v, keeping for a value given twice the constant with the longer (then smaller) comment.
func (e *enum) add(v enumValue) {
	for i, old := range e.values {
		if old.value == v.value {
			if len(old.comment) < len(v.comment) || len(old.comment) == len(v.comment) && old.comment > v.comment {
				e.values[i] = v
			}
			return
		}
	}
	e.values = append(e.values, v)
}

// enumOf returns the enum of t (or of the type t points to), or nil.
func (g *generator) enumOf(t types.Type) *enum {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return g.enums[n.Obj()]
	}
	return nil
}

func (e *enum) valueStrings() []string {
	var out []string
	for _, v := range e.values {
		out = append(out, fmt.Sprintf("%q", v.value))
	}
	sort.Strings(out)
	return out
}

var whitespace = regexp.MustCompile(`\s+`)

// descriptionLines are the lines openapi-gen appends to an enum field's description.
func (e *enum) descriptionLines() []string {
	if len(e.values) == 0 {
		return nil
	}
	var lines []string
	for _, v := range e.values {
		c := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v.comment), v.name))
		lines = append(lines, fmt.Sprintf(" - `%q` %s", v.value, whitespace.ReplaceAllString(c, " ")))
	}
	sort.Strings(lines)
	return append([]string{"", "Possible enum values:"}, lines...)
}
