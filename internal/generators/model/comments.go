package model

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"os"
)

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
