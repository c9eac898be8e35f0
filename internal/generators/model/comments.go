package model

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kgen-dev/kgen/internal/generators/goenv"
	"k8s.io/gengo/v2/codetags"
)

// CommentLines returns the text lines of a comment group without comment markers, each with its position.
func CommentLines(fset *token.FileSet, cg *ast.CommentGroup) []CommentLine {
	var out []CommentLine
	for _, c := range cg.List {
		pos := fset.Position(c.Slash)
		if text, ok := strings.CutPrefix(c.Text, "//"); ok {
			out = append(out, CommentLine{Text: strings.TrimPrefix(text, " "), Pos: pos})
			continue
		}
		text := strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/")
		for i, l := range strings.Split(text, "\n") {
			lp := pos
			lp.Line += i
			out = append(out, CommentLine{Text: strings.TrimSpace(l), Pos: lp})
		}
	}
	return out
}

// DocLines returns every comment line of the files called doc.go among files, where code-generator reads
// package tags.
func DocLines(fset *token.FileSet, files []*ast.File) []CommentLine {
	var out []CommentLine
	for _, f := range files {
		if filepath.Base(fset.File(f.Pos()).Name()) != "doc.go" {
			continue
		}
		for _, g := range f.Comments {
			out = append(out, CommentLines(fset, g)...)
		}
	}
	return out
}

// TagValue is one value of a comment tag and where it was written.
type TagValue struct {
	// Value is the tag's value (the rest of the line after "=", trailing spaces trimmed), Raw the tag as
	// written after its "+", and Args its arguments (+name(arg)=value).
	Value, Raw string
	Args       []codetags.Arg
	Pos        token.Position
}

// TagValues returns the values of tag name in lines ("+name=value"), parsed with gengo's tag parser with
// raw values; a tag it cannot parse is an error at its file:line.
func TagValues(lines []CommentLine, name string) ([]TagValue, error) {
	var out []TagValue
	for _, l := range lines {
		text := strings.TrimSpace(l.Text)
		if !strings.HasPrefix(text, "+") {
			continue
		}
		for _, raw := range codetags.Extract("+", []string{text})[name] {
			tag, err := codetags.Parse(raw, codetags.RawValues(true))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: +%s: %v", l.Pos.Filename, l.Pos.Line, raw, err)
			}
			out = append(out, TagValue{Value: tag.Value, Raw: raw, Args: tag.Args, Pos: l.Pos})
		}
	}
	return out, nil
}

// CommentIndex finds the comment blocks code-generator's parser attaches to a declaration, by line: the
// closest block ends on the line before the declaration, the detached block one blank line above the
// closest one (or above the declaration when it has none). Files the index is made with come from the
// load; any other file (a dependency's, whose declarations come from export data) has its comments
// scanned on first use. It is safe for concurrent use.
type CommentIndex struct {
	fset    *token.FileSet // positions of the declarations and of the loaded files
	scanned *token.FileSet // positions of the files scanned here
	mu      sync.Mutex
	files   map[string]*fileComments
}

// fileComments are a file's comment groups by the line they end on, with the file set they belong to.
type fileComments struct {
	fset  *token.FileSet
	byEnd map[int]*ast.CommentGroup
}

// NewCommentIndex indexes the comments of files, parsed into fset, the file set of every position the
// index is asked about.
func NewCommentIndex(fset *token.FileSet, files []*ast.File) *CommentIndex {
	c := &CommentIndex{fset: fset, scanned: token.NewFileSet(), files: map[string]*fileComments{}}
	for _, f := range files {
		c.files[fset.Position(f.Package).Filename] = indexGroups(fset, f.Comments)
	}
	return c
}

func indexGroups(fset *token.FileSet, groups []*ast.CommentGroup) *fileComments {
	fc := &fileComments{fset: fset, byEnd: make(map[int]*ast.CommentGroup, len(groups))}
	for _, g := range groups {
		fc.byEnd[fset.Position(g.End()).Line] = g
	}
	return fc
}

// Blocks returns the lines of the closest and of the detached comment block of the declaration at pos
// (gengo's CommentLines and SecondClosestCommentLines). Reading the comments of a file not indexed yet
// may fail.
func (c *CommentIndex) Blocks(pos token.Pos) (closest, detached []CommentLine, err error) {
	p := c.fset.Position(pos)
	if !p.IsValid() || p.Filename == "" {
		return nil, nil, nil
	}
	fc, err := c.file(p.Filename)
	if err != nil {
		return nil, nil, err
	}
	above := p.Line - 2
	if g := fc.byEnd[p.Line-1]; g != nil {
		closest = CommentLines(fc.fset, g)
		above = fc.fset.Position(g.Pos()).Line - 2
	}
	if g := fc.byEnd[above]; g != nil {
		detached = CommentLines(fc.fset, g)
	}
	return closest, detached, nil
}

// file returns the comment groups of the file called name, scanning it if it is not indexed yet.
func (c *CommentIndex) file(name string) (*fileComments, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if fc, ok := c.files[name]; ok {
		return fc, nil
	}
	groups, err := ScanComments(c.scanned, goenv.SourcePath(name))
	if err != nil {
		return nil, fmt.Errorf("reading the comments of %s for its tags: %w", name, err)
	}
	fc := indexGroups(c.scanned, groups)
	c.files[name] = fc
	return fc, nil
}

// ScanComments reads the Go file called name and returns its comment groups, in source order and grouped
// exactly as go/parser groups them with ParseComments, from the file's tokens alone: nothing is parsed,
// so a dependency's file whose tags a generator reads costs a scan, not an AST of its function bodies.
// The file is added to fset. A file that does not scan is an error.
func ScanComments(fset *token.FileSet, name string) ([]*ast.CommentGroup, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	file := fset.AddFile(name, -1, len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, src, errs.Add, scanner.ScanComments)
	var groups []*ast.CommentGroup
	pos, tok, lit := s.Scan()
	prev := token.NoPos
	// group takes the comments starting at most n lines below the group's last line, as go/parser's
	// consumeCommentGroup does; a /*-style comment ends on the line its last newline leads to.
	group := func(n int) int {
		var list []*ast.Comment
		end := file.Line(pos)
		for tok == token.COMMENT && file.Line(pos) <= end+n {
			end = file.Line(pos)
			if lit[1] == '*' {
				for i := 0; i < len(lit); i++ {
					if lit[i] == '\n' {
						end++
					}
				}
			}
			list = append(list, &ast.Comment{Slash: pos, Text: lit})
			pos, tok, lit = s.Scan()
		}
		groups = append(groups, &ast.CommentGroup{List: list})
		return end
	}
	for tok != token.EOF {
		if tok != token.COMMENT {
			prev = pos
			pos, tok, lit = s.Scan()
			continue
		}
		// A comment on the line of the token before it is a group of its own (a line comment), as are the
		// groups of comments below it.
		if file.Line(pos) == file.Line(prev) {
			group(0)
		}
		for tok == token.COMMENT {
			group(1)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return groups, nil
}
