package defaultergen

import (
	"go/ast"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
)

// newCommentIndex indexes the comments of the input packages of prog; files of dependencies (peer
// packages and -input types read from export data) have theirs scanned on first use.
func newCommentIndex(prog *load.Program) *model.CommentIndex {
	var files []*ast.File
	for _, p := range prog.Packages {
		files = append(files, p.Files...)
	}
	return model.NewCommentIndex(prog.Fset, files)
}
