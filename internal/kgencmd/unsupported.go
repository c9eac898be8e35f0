package kgencmd

import (
	"fmt"
	"go/token"
	"strings"

	"k8s.io/gengo/v2/codetags"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
)

// otherTool is a code-generator tool kgen generate does not replace, with the comment tags that ask for
// it: names, and names followed by ":", "-" or "." and more.
type otherTool struct {
	tool, step string
	tags       []string
}

// otherTools are the tools whose tags kgen generate reports rather than ignore in silence.
var otherTools = []otherTool{
	{"validation-gen", "kube_codegen.sh gen_helpers", []string{"k8s:validation-gen"}},
	{"prerelease-lifecycle-gen", "not part of kube_codegen.sh", []string{"k8s:prerelease-lifecycle-gen"}},
	{"openapi-gen", "kube_codegen.sh gen_openapi", []string{"k8s:openapi-gen", "k8s:openapi-model-package"}},
	{"go-to-protobuf", "not part of kube_codegen.sh", []string{"k8s:protobuf-gen", "protobuf"}},
}

// matches reports whether tag name belongs to one of the tool's families.
func (o otherTool) matches(name string) bool {
	for _, t := range o.tags {
		if rest, ok := strings.CutPrefix(name, t); ok && (rest == "" || strings.ContainsAny(rest[:1], ":-.")) {
			return true
		}
	}
	return false
}

// otherToolWarnings returns one warning per tool of otherTools whose tags the input packages carry,
// naming the first such tag as written, its file:line, how many more lines carry the tool's tags, and
// the tool that handles them. openapi tells that this run generates OpenAPI definitions, so openapi-gen's
// tags are not reported.
func otherToolWarnings(prog *load.Program, openapi bool) []string {
	var out []string
	for i, s := range otherToolTags(prog, openapi) {
		if s == nil {
			continue
		}
		more := ""
		if s.count > 1 {
			more = fmt.Sprintf(" (and %d more lines)", s.count-1)
		}
		o := otherTools[i]
		hint := ""
		if o.tool == "openapi-gen" {
			hint = " without --openapi-output-dir"
		}
		out = append(out, fmt.Sprintf("%s:%d: %s%s: kgen generate does not run %s%s; k8s.io/code-generator's %s generates for these tags (%s)",
			s.pos.Filename, s.pos.Line, s.tag, more, o.tool, hint, o.tool, o.step))
	}
	return out
}

// toolTags is the first tag line of one of otherTools found in the input packages, and how many lines
// carry that tool's tags.
type toolTags struct {
	tag   string
	pos   token.Position
	count int
}

// otherToolTags returns, per entry of otherTools, the tags of it the input packages of prog carry (nil
// for none); with openapi, openapi-gen's tags are not looked for.
func otherToolTags(prog *load.Program, openapi bool) []*toolTags {
	found := make([]*toolTags, len(otherTools))
	for _, pkg := range prog.Packages {
		for _, f := range pkg.Files {
			for _, g := range f.Comments {
				for _, l := range model.CommentLines(prog.Fset, g) {
					text := strings.TrimSpace(l.Text)
					if !strings.HasPrefix(text, "+") {
						continue
					}
					for name := range codetags.Extract("+", []string{text}) {
						for i, o := range otherTools {
							if !o.matches(name) || openapi && o.tool == "openapi-gen" {
								continue
							}
							if found[i] == nil {
								found[i] = &toolTags{tag: text, pos: l.Pos}
							}
							found[i].count++
						}
					}
				}
			}
		}
	}
	return found
}
