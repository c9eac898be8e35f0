package deepcopygen

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/model"
)

// The tags deepcopy-gen reads.
const (
	tagEnabled     = "k8s:deepcopy-gen"
	tagInterfaces  = "k8s:deepcopy-gen:interfaces"
	tagNonPointer  = "k8s:deepcopy-gen:nonpointer-interfaces"
	valuePackage   = "package"
	docFileName    = "doc.go"
	registerSubArg = "register"
)

// tagLine is one comment line with the position it starts at.
type tagLine = model.CommentLine

// tagValue is one value of a tag and where it was written.
type tagValue struct {
	value string
	pos   token.Position
}

// values returns the values of tag name in lines (see model.TagValues).
func values(lines []tagLine, name string) ([]tagValue, error) {
	vals, err := model.TagValues(lines, name)
	if err != nil {
		return nil, err
	}
	out := make([]tagValue, len(vals))
	for i, v := range vals {
		out[i] = tagValue{v.Value, v.Pos}
	}
	return out, nil
}

// packageTag is the parsed +k8s:deepcopy-gen tag of a package.
type packageTag struct {
	// set reports that doc.go has the tag; disabled that its value is false.
	set, disabled bool
}

// parsePackageTag reads +k8s:deepcopy-gen from every comment of the package's doc.go and warns about the
// tag in the comments above any other file's package clause, where code-generator ignores it.
func parsePackageTag(fset *token.FileSet, files []*ast.File, warn func(string)) (packageTag, error) {
	var doc []tagLine
	for _, f := range files {
		name := fset.File(f.Pos()).Name()
		if filepath.Base(name) == docFileName {
			for _, g := range f.Comments {
				doc = append(doc, model.CommentLines(fset, g)...)
			}
			continue
		}
		var header []tagLine
		for _, g := range f.Comments {
			if g.Pos() < f.Package {
				header = append(header, model.CommentLines(fset, g)...)
			}
		}
		vals, err := values(header, tagEnabled)
		if err != nil {
			return packageTag{}, err
		}
		for _, v := range vals {
			warn(fmt.Sprintf("%s: +%s=%s: ignored: package tags are read from doc.go only", position(v.pos), tagEnabled, v.value))
		}
	}
	vals, err := values(doc, tagEnabled)
	if err != nil || len(vals) == 0 {
		return packageTag{}, err
	}
	if len(vals) > 1 {
		return packageTag{}, fmt.Errorf("%s: found %d +%s tags, want one", position(vals[1].pos), len(vals), tagEnabled)
	}
	v := vals[0]
	parts := strings.Split(v.value, ",")
	for _, p := range parts[1:] {
		if k, _, _ := strings.Cut(p, "="); k != registerSubArg {
			return packageTag{}, fmt.Errorf("%s: +%s=%s: unsupported parameter %q", position(v.pos), tagEnabled, v.value, p)
		}
	}
	switch parts[0] {
	case "false":
		return packageTag{set: true, disabled: true}, nil
	case valuePackage:
		return packageTag{set: true}, nil
	default:
		return packageTag{}, fmt.Errorf("%s: +%s=%s: unsupported value: a package takes %q or \"false\"", position(v.pos), tagEnabled, v.value, valuePackage)
	}
}

// typeTags are the deepcopy-gen tags of one type.
type typeTags struct {
	// enabled is the +k8s:deepcopy-gen value: "", "true" or "false".
	enabled string
	// interfaces are the fully-qualified names of +k8s:deepcopy-gen:interfaces, with where each is written.
	interfaces []tagValue
	// nonPointer is +k8s:deepcopy-gen:nonpointer-interfaces=true.
	nonPointer bool
}

func parseTypeTags(name string, lines []tagLine) (typeTags, error) {
	var t typeTags
	enabled, err := values(lines, tagEnabled)
	if err != nil {
		return t, err
	}
	if len(enabled) > 1 {
		return t, fmt.Errorf("%s: type %s: found %d +%s tags, want one", position(enabled[1].pos), name, len(enabled), tagEnabled)
	}
	if len(enabled) == 1 {
		t.enabled = enabled[0].value
		if t.enabled != "true" && t.enabled != "false" {
			return t, fmt.Errorf("%s: type %s: +%s=%s: unsupported value: a type takes \"true\" or \"false\"", position(enabled[0].pos), name, tagEnabled, t.enabled)
		}
	}
	ifaces, err := values(lines, tagInterfaces)
	if err != nil {
		return t, err
	}
	for _, v := range ifaces {
		for _, name := range strings.Split(v.value, ",") {
			if name != "" {
				t.interfaces = append(t.interfaces, tagValue{name, v.pos})
			}
		}
	}
	nonPointer, err := values(lines, tagNonPointer)
	if err != nil {
		return t, err
	}
	for i, v := range nonPointer {
		b := v.value == "true"
		if i > 0 && b != t.nonPointer {
			return t, fmt.Errorf("%s: type %s: +%s=%s contradicts the previous value", position(v.pos), name, tagNonPointer, v.value)
		}
		t.nonPointer = b
	}
	return t, nil
}

func position(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }
