package defaultergen

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/module"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
)

// sources finds the comment blocks gengo attaches to a declaration, by line: the doc block ends on the
// line before the declared name, the detached block one blank line above the doc block (or above the
// name when there is no doc block). Input packages are already parsed by the load; files of dependencies
// (peer packages and -input types read from export data) have their comments scanned on first use.
type sources struct {
	prog  *load.Program
	fset  *token.FileSet // positions of the files parsed here
	files map[string]map[int]*ast.CommentGroup
	// fsets tells which file set a file's comment groups belong to.
	fsets map[string]*token.FileSet
}

func newSources(prog *load.Program) *sources {
	s := &sources{prog: prog, fset: token.NewFileSet(), files: map[string]map[int]*ast.CommentGroup{}, fsets: map[string]*token.FileSet{}}
	for _, p := range prog.Packages {
		for _, f := range p.Files {
			s.index(prog.Fset, prog.Fset.Position(f.Package).Filename, f.Comments)
		}
	}
	return s
}

func (s *sources) index(fset *token.FileSet, name string, groups []*ast.CommentGroup) {
	byEnd := map[int]*ast.CommentGroup{}
	for _, g := range groups {
		byEnd[fset.Position(g.End()).Line] = g
	}
	s.files[name], s.fsets[name] = byEnd, fset
}

// groups returns the comment groups of the file pos is in, by end line, and the line of pos.
func (s *sources) groups(pos token.Pos) (map[int]*ast.CommentGroup, *token.FileSet, int, error) {
	p := s.prog.Fset.Position(pos)
	if !p.IsValid() {
		return nil, nil, 0, nil
	}
	if _, ok := s.files[p.Filename]; !ok {
		groups, err := model.ScanComments(s.fset, sourcePath(p.Filename))
		if err != nil {
			return nil, nil, 0, fmt.Errorf("reading the comments of %s for its tags: %w", p.Filename, err)
		}
		s.index(s.fset, p.Filename, groups)
	}
	return s.files[p.Filename], s.fsets[p.Filename], p.Line, nil
}

// doc returns the lines of the comment block ending on the line before pos (gengo's CommentLines).
func (s *sources) doc(pos token.Pos) ([]model.CommentLine, error) {
	byEnd, fset, line, err := s.groups(pos)
	if err != nil || byEnd == nil {
		return nil, err
	}
	if g := byEnd[line-1]; g != nil {
		return model.CommentLines(fset, g), nil
	}
	return nil, nil
}

// detached returns the lines of the block one blank line above the doc block of the declaration at pos
// (gengo's SecondClosestCommentLines), and the doc block's lines.
func (s *sources) detached(pos token.Pos) (second, closest []model.CommentLine, err error) {
	byEnd, fset, line, err := s.groups(pos)
	if err != nil || byEnd == nil {
		return nil, nil, err
	}
	above := line - 2
	if g := byEnd[line-1]; g != nil {
		closest = model.CommentLines(fset, g)
		above = fset.Position(g.Pos()).Line - 2
	}
	if g := byEnd[above]; g != nil {
		second = model.CommentLines(fset, g)
	}
	return second, closest, nil
}

// sourcePath turns the file names export data records into paths on disk: the standard library's are
// relative to $GOROOT, and with -trimpath a module's are module@version/path, under the module cache.
func sourcePath(name string) string {
	if rest, ok := strings.CutPrefix(name, "$GOROOT"); ok {
		return filepath.Join(build.Default.GOROOT, filepath.FromSlash(rest))
	}
	if filepath.IsAbs(name) {
		return name
	}
	modVersion, rel, ok := strings.Cut(filepath.ToSlash(name), "/")
	for ok && !strings.Contains(modVersion, "@") {
		var next string
		next, rel, ok = strings.Cut(rel, "/")
		modVersion += "/" + next
	}
	mod, version, found := strings.Cut(modVersion, "@")
	if !found {
		return name
	}
	escMod, err1 := module.EscapePath(mod)
	escVersion, err2 := module.EscapeVersion(version)
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(filepath.SplitList(build.Default.GOPATH)[0], "pkg", "mod")
	}
	if err1 != nil || err2 != nil {
		return name
	}
	return filepath.Join(cache, filepath.FromSlash(escMod+"@"+escVersion), filepath.FromSlash(rel))
}
