package defaultergen

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/model"
)

// The tags defaulter-gen reads.
const (
	tagDefaulter = "k8s:defaulter-gen"
	tagInput     = "k8s:defaulter-gen-input"
	tagDefault   = "default"
	valueCovers  = "covers"
)

// tagValue is one value of a tag and where it was written.
type tagValue struct {
	value string
	pos   token.Position
}

func (v tagValue) String() string { return position(v.pos) }

// values returns the values of tag name in lines (see model.TagValues); a tag with arguments
// (+name(arg)=value) is an error.
func values(lines []model.CommentLine, name string) ([]tagValue, error) {
	var out []tagValue
	for i := range lines {
		vals, err := model.TagValues(lines[i:i+1], name)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if len(v.Args) > 0 {
				return nil, fmt.Errorf("%s: +%s: takes no arguments", position(v.Pos), v.Raw)
			}
			out = append(out, tagValue{v.Value, v.Pos})
		}
	}
	return out, nil
}

// activation is what a package's doc.go says about defaulter-gen.
type activation struct {
	// on: the package gets a file; off: doc.go says +k8s:defaulter-gen=false; fields are the
	// +k8s:defaulter-gen values (member names that make a struct a candidate); input is the import path of
	// the types package (the package itself by default).
	on, off bool
	fields  []string
	input   string
	// inputPos is where +k8s:defaulter-gen-input was written.
	inputPos token.Position
}

// parseActivation reads +k8s:defaulter-gen and +k8s:defaulter-gen-input from the doc.go lines of the
// package at path.
func parseActivation(path string, doc []model.CommentLine) (activation, error) {
	a := activation{input: path}
	vals, err := values(doc, tagDefaulter)
	if err != nil || len(vals) == 0 {
		return a, err
	}
	falseAt := slices.IndexFunc(vals, func(v tagValue) bool { return v.value == "false" })
	if falseAt >= 0 {
		if len(vals) > 1 {
			return a, fmt.Errorf("%s: +%s: cannot mix \"false\" with other values", vals[falseAt], tagDefaulter)
		}
		a.off = true
		return a, nil
	}
	for _, v := range vals {
		if v.value == "" {
			return a, fmt.Errorf("%s: +%s needs a value: the name of the member that makes a struct get an object defaulter (TypeMeta), or false", v, tagDefaulter)
		}
		a.fields = append(a.fields, v.value)
	}
	a.on = true
	inputs, err := values(doc, tagInput)
	if err != nil {
		return a, err
	}
	switch {
	case len(inputs) > 1:
		return a, fmt.Errorf("%s: +%s: expected at most one value, got %d", inputs[1], tagInput, len(inputs))
	case len(inputs) == 1:
		v := inputs[0]
		if strings.HasPrefix(v.value, "./") || strings.HasPrefix(v.value, "../") || v.value == "" {
			return a, fmt.Errorf("%s: +%s=%s: use the full package import path", v, tagInput, v.value)
		}
		a.input, a.inputPos = v.value, v.pos
	}
	return a, nil
}

// typeSwitch reads a type's +k8s:defaulter-gen=true|false, which code-generator honours only in the
// detached comment block above the type's doc comment; the same tag in the doc comment is ignored there,
// and reported here through warn.
func typeSwitch(name string, second, closest []model.CommentLine, warn func(string)) (string, error) {
	vals, err := values(second, tagDefaulter)
	if err != nil {
		return "", err
	}
	ignored, err := values(closest, tagDefaulter)
	if err != nil {
		return "", err
	}
	for _, v := range ignored {
		warn(fmt.Sprintf("%s: +%s=%s on type %s is ignored: defaulter-gen reads a type's switch only from the comment block one blank line above its doc comment",
			v, tagDefaulter, v.value, name))
	}
	if len(vals) == 1 && (vals[0].value == "true" || vals[0].value == "false") {
		return vals[0].value, nil
	}
	if len(vals) > 0 {
		return "", fmt.Errorf("%s: type %s: +%s=%s: a type takes exactly one value, true or false", vals[0], name, tagDefaulter, vals[0].value)
	}
	return "", nil
}

func position(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }
