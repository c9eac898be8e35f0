package conversiongen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"k8s.io/gengo/v2/codetags"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
)

// The tags conversion-gen reads.
const (
	tagName         = "k8s:conversion-gen"
	tagExternal     = "k8s:conversion-gen-external-types"
	tagExplicitFrom = "k8s:conversion-gen:explicit-from"
	tagFn           = "k8s:conversion-fn"
	docFileName     = "doc.go"
)

// tagLine is one comment line with the position it starts at.
type tagLine = model.CommentLine

// tagValue is one value of a tag and where it was written.
type tagValue struct {
	value string
	pos   token.Position
}

// comments finds the comment lines of declarations anywhere in the program, as code-generator's parser
// does: the comment group ending on the line before a declaration (its "closest" lines) and the group
// ending one blank line above that one (the "detached" lines). Files of input packages are indexed from
// the load; files of dependencies, read from export data, are parsed from disk when first needed.
type comments struct {
	fset   *token.FileSet
	loaded map[string]*ast.File
	files  map[string]*fileComments
}

// fileComments are a file's comment groups by the line they end on, with the file set they belong to.
type fileComments struct {
	fset  *token.FileSet
	byEnd map[int]*ast.CommentGroup
}

func newComments(prog *load.Program) *comments {
	c := &comments{fset: prog.Fset, loaded: map[string]*ast.File{}, files: map[string]*fileComments{}}
	for _, p := range prog.Packages {
		for _, f := range p.Files {
			c.loaded[prog.Fset.File(f.Pos()).Name()] = f
		}
	}
	return c
}

func (c *comments) file(name string) *fileComments {
	if fc, ok := c.files[name]; ok {
		return fc
	}
	fset, f := c.fset, c.loaded[name]
	if f == nil {
		fset = token.NewFileSet()
		f, _ = parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
	}
	fc := &fileComments{fset: fset, byEnd: map[int]*ast.CommentGroup{}}
	if f != nil {
		for _, g := range f.Comments {
			fc.byEnd[fset.Position(g.End()).Line] = g
		}
	}
	c.files[name] = fc
	return fc
}

// closest returns the comment lines ending on the line before the declaration at pos.
func (c *comments) closest(pos token.Pos) []tagLine {
	closest, _ := c.groups(pos)
	return closest
}

// groups returns the comment lines ending on the line before the declaration at pos (closest) and those
// of the group one blank line above that one, or above the declaration when it has none (detached).
func (c *comments) groups(pos token.Pos) (closest, detached []tagLine) {
	if !pos.IsValid() {
		return nil, nil
	}
	p := c.fset.Position(pos)
	if p.Filename == "" {
		return nil, nil
	}
	fc := c.file(p.Filename)
	g1 := fc.byEnd[p.Line-1]
	g2 := fc.byEnd[p.Line-2]
	if g1 != nil {
		g2 = fc.byEnd[fc.fset.Position(g1.Pos()).Line-2]
	}
	return groupLines(fc.fset, g1), groupLines(fc.fset, g2)
}

// groupLines splits a comment group (nil for none) into lines with their positions.
func groupLines(fset *token.FileSet, g *ast.CommentGroup) []tagLine {
	if g == nil {
		return nil
	}
	return model.CommentLines(fset, g)
}

// values returns the values of tag name in lines ("+name=value"), parsed with gengo's tag parser.
func values(lines []tagLine, name string) ([]tagValue, error) {
	var out []tagValue
	for _, l := range lines {
		text := strings.TrimSpace(l.Text)
		if !strings.HasPrefix(text, "+") {
			continue
		}
		found := codetags.Extract("+", []string{text})
		for _, raw := range found[name] {
			tag, err := codetags.Parse(raw, codetags.RawValues(true))
			if err != nil {
				return nil, fmt.Errorf("%s: +%s: %v", position(l.Pos), raw, err)
			}
			out = append(out, tagValue{strings.TrimSpace(tag.Value), l.Pos})
		}
	}
	return out, nil
}

// packageTags are a package's conversion-gen tags from its doc.go.
type packageTags struct {
	// peers are the +k8s:conversion-gen values in order; explicitOnly is a sole "false".
	peers        []tagValue
	explicitOnly bool
	// external is +k8s:conversion-gen-external-types, if set.
	external *tagValue
}

// docLines are every comment line of the package's doc.go.
func docLines(fset *token.FileSet, files []*ast.File) []tagLine {
	var doc []tagLine
	for _, f := range files {
		if filepath.Base(fset.File(f.Pos()).Name()) != docFileName {
			continue
		}
		for _, g := range f.Comments {
			doc = append(doc, groupLines(fset, g)...)
		}
	}
	return doc
}

// parsePackageTags reads the package tags from doc.go; ok is false for a package without
// +k8s:conversion-gen.
func parsePackageTags(fset *token.FileSet, files []*ast.File) (tags packageTags, ok bool, err error) {
	doc := docLines(fset, files)
	peers, err := values(doc, tagName)
	if err != nil || len(peers) == 0 {
		return tags, false, err
	}
	for _, v := range peers {
		switch {
		case v.value == "":
			return tags, false, fmt.Errorf("%s: +%s needs a value: the import path of the peer package, or false", position(v.pos), tagName)
		case v.value == "false" && len(peers) > 1:
			return tags, false, fmt.Errorf("%s: +%s: cannot mix \"false\" with other values", position(v.pos), tagName)
		case strings.HasPrefix(v.value, "./") || strings.HasPrefix(v.value, "../"):
			return tags, false, fmt.Errorf("%s: +%s=%s: relative path is not supported; use the full package import path", position(v.pos), tagName, v.value)
		}
	}
	if peers[0].value == "false" {
		tags.explicitOnly = true
	} else {
		tags.peers = peers
	}
	ext, err := values(doc, tagExternal)
	if err != nil {
		return tags, false, err
	}
	switch {
	case len(ext) > 1:
		return tags, false, fmt.Errorf("%s: +%s: expected at most one value, got %d", position(ext[1].pos), tagExternal, len(ext))
	case len(ext) == 1:
		if ext[0].value == "" {
			return tags, false, fmt.Errorf("%s: +%s needs the import path of the package declaring the types", position(ext[0].pos), tagExternal)
		}
		tags.external = &ext[0]
	}
	return tags, true, nil
}

func position(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }
