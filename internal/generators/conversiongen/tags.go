package conversiongen

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
)

// The tags conversion-gen reads.
const (
	tagName         = "k8s:conversion-gen"
	tagExternal     = "k8s:conversion-gen-external-types"
	tagExplicitFrom = "k8s:conversion-gen:explicit-from"
	tagFn           = "k8s:conversion-fn"
)

// tagLine is one comment line with the position it starts at.
type tagLine = model.CommentLine

// tagValue is one value of a tag and where it was written.
type tagValue struct {
	value string
	pos   token.Position
}

// comments finds the comment lines of declarations anywhere in the program, as code-generator's parser
// does (see model.CommentIndex): files of input packages are indexed from the load; files of
// dependencies, read from export data, have their comments scanned when first needed, and one that
// cannot be read has none.
type comments struct{ idx *model.CommentIndex }

func newComments(prog *load.Program) comments {
	var files []*ast.File
	for _, p := range prog.Packages {
		files = append(files, p.Files...)
	}
	return comments{model.NewCommentIndex(prog.Fset, files)}
}

// closest returns the comment lines ending on the line before the declaration at pos.
func (c comments) closest(pos token.Pos) []tagLine {
	closest, _ := c.groups(pos)
	return closest
}

// groups returns the comment lines ending on the line before the declaration at pos (closest) and those
// of the group one blank line above that one, or above the declaration when it has none (detached).
func (c comments) groups(pos token.Pos) (closest, detached []tagLine) {
	closest, detached, _ = c.idx.Blocks(pos)
	return closest, detached
}

// values returns the values of tag name in lines (see model.TagValues), spaces trimmed.
func values(lines []tagLine, name string) ([]tagValue, error) {
	vals, err := model.TagValues(lines, name)
	if err != nil {
		return nil, err
	}
	out := make([]tagValue, len(vals))
	for i, v := range vals {
		out[i] = tagValue{strings.TrimSpace(v.Value), v.Pos}
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

// parsePackageTags reads the package tags from doc.go; ok is false for a package without
// +k8s:conversion-gen.
func parsePackageTags(fset *token.FileSet, files []*ast.File) (tags packageTags, ok bool, err error) {
	doc := model.DocLines(fset, files)
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
