package deepcopygen

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"

	"k8s.io/gengo/v2/codetags"
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
type tagLine struct {
	text string
	pos  token.Position
}

// tagValue is one value of a tag and where it was written.
type tagValue struct {
	value string
	pos   token.Position
}

// comments indexes a file's comment groups by the line they end on, as code-generator's parser does to
// find a declaration's comments: the group ending on the line before it, and the group before that one
// separated by one blank line.
type comments struct {
	fset  *token.FileSet
	byEnd map[int]*ast.CommentGroup
}

func indexComments(fset *token.FileSet, f *ast.File) comments {
	c := comments{fset: fset, byEnd: map[int]*ast.CommentGroup{}}
	for _, g := range f.Comments {
		c.byEnd[fset.Position(g.End()).Line] = g
	}
	return c
}

// typeLines are the comment lines of the declaration at pos: the detached block before the doc comment,
// then the doc comment itself.
func (c comments) typeLines(pos token.Pos) []tagLine {
	line := c.fset.Position(pos).Line
	closest := c.byEnd[line-1]
	second := c.byEnd[line-2]
	if closest != nil {
		second = c.byEnd[c.fset.Position(closest.Pos()).Line-2]
	}
	return append(groupLines(c.fset, second), groupLines(c.fset, closest)...)
}

// groupLines splits a comment group into lines with their positions.
func groupLines(fset *token.FileSet, g *ast.CommentGroup) []tagLine {
	if g == nil {
		return nil
	}
	var out []tagLine
	for _, c := range g.List {
		pos := fset.Position(c.Slash)
		text := c.Text
		if strings.HasPrefix(text, "//") {
			out = append(out, tagLine{strings.TrimPrefix(text[2:], " "), pos})
			continue
		}
		for i, l := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/"), "\n") {
			p := pos
			p.Line += i
			out = append(out, tagLine{l, p})
		}
	}
	return out
}

// values returns the raw values of tag name in lines ("+name=value", rest of the line, trailing space
// trimmed), parsed with gengo's tag parser.
func values(lines []tagLine, name string) ([]tagValue, error) {
	var out []tagValue
	for _, l := range lines {
		text := strings.TrimSpace(l.text)
		if !strings.HasPrefix(text, "+") {
			continue
		}
		found := codetags.Extract("+", []string{text})
		for _, raw := range found[name] {
			tag, err := codetags.Parse(raw, codetags.RawValues(true))
			if err != nil {
				return nil, fmt.Errorf("%s: +%s: %v", position(l.pos), raw, err)
			}
			out = append(out, tagValue{tag.Value, l.pos})
		}
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
				doc = append(doc, groupLines(fset, g)...)
			}
			continue
		}
		var header []tagLine
		for _, g := range f.Comments {
			if g.Pos() < f.Package {
				header = append(header, groupLines(fset, g)...)
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
