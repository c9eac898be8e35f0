package model

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"k8s.io/gengo/v2/codetags"
)

// SupportedVerbs are the standard client verbs in interface order; +genclient:onlyVerbs and skipVerbs name them.
var SupportedVerbs = []string{
	"create", "update", "updateStatus", "delete", "deleteCollection",
	"get", "list", "watch", "patch", "apply", "applyStatus",
}

var readonlyVerbs = []string{"get", "list", "watch"}

// extensionVerbs are the verb templates an extension method may use.
var extensionVerbs = []string{"create", "update", "get", "list", "patch", "apply"}

var (
	inputVerbs  = []string{"create", "update", "apply"}
	resultVerbs = []string{"create", "update", "get", "list", "patch", "apply"}
)

// TagError reports a malformed or unknown tag at its source position.
type TagError struct {
	// Pos is the file:line of the tag.
	Pos string
	// Tag is the tag as written.
	Tag string
	// Problem says what is wrong.
	Problem string
}

// Error implements error.
func (e *TagError) Error() string { return fmt.Sprintf("%s: %s: %s", e.Pos, e.Tag, e.Problem) }

// CommentLine is one line of a comment, without its comment markers, and the position it starts at.
type CommentLine struct {
	Text string
	Pos  token.Position
}

// tagLine is one +key[=value] comment tag with the line it is on.
type tagLine struct {
	key, value string
	// hasValue records an "=", even with an empty value.
	hasValue bool
	line     *CommentLine
}

// extractTags returns the tags of lines in order, in code-generator's syntax: a line that starts with "+"
// once surrounding spaces are trimmed is a tag, whose key runs up to the first "=" and whose value is
// the rest of the line.
func extractTags(lines []CommentLine) []tagLine {
	var out []tagLine
	for i := range lines {
		text := strings.Trim(lines[i].Text, " ")
		if !strings.HasPrefix(text, "+") {
			continue
		}
		for _, found := range codetags.Extract("+", []string{text}) {
			for _, t := range found {
				key, value, hasValue := strings.Cut(t, "=")
				out = append(out, tagLine{key: key, value: value, hasValue: hasValue, line: &lines[i]})
			}
		}
	}
	return out
}

// TagLines returns the file:line of every comment line of files carrying +tag (alone or with a value,
// but not +tag=false), in source order: what a run that generated nothing for the tag points at.
func TagLines(fset *token.FileSet, files []*ast.File, tag string) []string {
	var out []string
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, t := range extractTags(CommentLines(fset, cg)) {
				if t.key == tag && t.value != "false" {
					out = append(out, position(t.line.Pos))
				}
			}
		}
	}
	return out
}

// NothingGenerated is the warning for generators that were asked for and generated nothing although the
// input packages carry their tag at tagged (file:line positions, as TagLines returns them): the tags are
// misplaced. It is "" when something was generated or no line carries the tag.
func NothingGenerated(generators []string, generated bool, tag string, tagged []string) string {
	if generated || len(tagged) == 0 || len(generators) == 0 {
		return ""
	}
	more := ""
	if len(tagged) > 1 {
		more = fmt.Sprintf(" (and %d more lines)", len(tagged)-1)
	}
	return fmt.Sprintf("%s: +%s%s, but %s generated nothing: a type's tags belong in the comment block directly above it (or the one above that), package tags in doc.go",
		tagged[0], tag, more, strings.Join(generators, ", "))
}

// typeTags is the parsed tag set of one type.
type typeTags struct {
	genclient     bool
	nonNamespaced bool
	noVerbs       bool
	noStatus      bool
	readonly      bool
	onlyVerbs     []string
	skipVerbs     []string
	resourceName  string
	extensions    []*Extension
	extLines      []CommentLine
}

// parseTypeTags reads the +genclient vocabulary and +resourceName from the comment lines of one type.
func parseTypeTags(lines []CommentLine) (*typeTags, error) {
	tags := &typeTags{}
	var onlyLine, skipLine *CommentLine
	for _, tag := range extractTags(lines) {
		l, key, val, hasValue := tag.line, tag.key, tag.value, tag.hasValue
		tagErr := func(format string, args ...any) error {
			return &TagError{Pos: position(l.Pos), Tag: strings.TrimSpace(l.Text), Problem: fmt.Sprintf(format, args...)}
		}
		noValue := func() error {
			if hasValue {
				return tagErr("takes no value")
			}
			return nil
		}
		var err error
		switch key {
		case "genclient":
			if val != "" {
				err = tagErr("takes no value: use +genclient to generate a client or omit the tag")
			}
			tags.genclient = true
		case "nonNamespaced", "readonly":
			if val != "" {
				err = tagErr("is no longer supported: use +genclient:%s", key)
			}
		case "genclient:nonNamespaced":
			err, tags.nonNamespaced = noValue(), true
		case "genclient:noVerbs":
			err, tags.noVerbs = noValue(), true
		case "genclient:noStatus":
			err, tags.noStatus = noValue(), true
		case "genclient:readonly":
			err, tags.readonly = noValue(), true
		case "genclient:onlyVerbs", "genclient:skipVerbs":
			var verbs []string
			if verbs, err = parseVerbList(val); err != nil {
				err = tagErr("%v", err)
			} else if key == "genclient:onlyVerbs" {
				tags.onlyVerbs, onlyLine = append(tags.onlyVerbs, verbs...), l
			} else {
				tags.skipVerbs, skipLine = append(tags.skipVerbs, verbs...), l
			}
		case "genclient:method":
			var ext *Extension
			if ext, err = parseExtension(val); err != nil {
				err = tagErr("%v", err)
			} else {
				tags.extensions = append(tags.extensions, ext)
				tags.extLines = append(tags.extLines, *l)
			}
		case "resourceName":
			if val == "" {
				err = tagErr("needs a value: +resourceName=<plural resource>")
			}
			tags.resourceName = val
		default:
			if strings.HasPrefix(key, "genclient") {
				err = tagErr("unknown tag (supported: +genclient, +genclient:nonNamespaced, +genclient:noVerbs, " +
					"+genclient:onlyVerbs=, +genclient:skipVerbs=, +genclient:readonly, +genclient:noStatus, +genclient:method=)")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if onlyLine != nil && skipLine != nil {
		for _, v := range tags.onlyVerbs {
			if slices.Contains(tags.skipVerbs, v) {
				return nil, &TagError{Pos: position(skipLine.Pos), Tag: strings.TrimSpace(skipLine.Text),
					Problem: fmt.Sprintf("verb %q is also listed in +genclient:onlyVerbs at %s", v, position(onlyLine.Pos))}
			}
		}
	}
	return tags, nil
}

// verbs returns the standard verbs the client offers: none under +genclient:noVerbs, else the selected ones.
func (t *typeTags) verbs(hasStatus, withApply bool) []string {
	if t.noVerbs {
		return nil
	}
	return t.selectedVerbs(hasStatus, withApply)
}

// selectedVerbs returns the standard verbs selected by the verb tags, ignoring +genclient:noVerbs, in
// SupportedVerbs order.
func (t *typeTags) selectedVerbs(hasStatus, withApply bool) []string {
	only := t.onlyVerbs
	if t.readonly {
		only = append(slices.Clone(readonlyVerbs), only...)
	}
	var out []string
	for _, v := range SupportedVerbs {
		switch {
		case (t.readonly || len(t.onlyVerbs) > 0) && !slices.Contains(only, v),
			slices.Contains(t.skipVerbs, v),
			(v == "updateStatus" || v == "applyStatus") && !hasStatus,
			(v == "apply" || v == "applyStatus") && !withApply:
			continue
		}
		out = append(out, v)
	}
	return out
}

func parseVerbList(val string) ([]string, error) {
	if val == "" {
		return nil, fmt.Errorf("needs a comma-separated list of verbs")
	}
	verbs := strings.Split(val, ",")
	for i, v := range verbs {
		verbs[i] = strings.TrimSpace(v)
		if !slices.Contains(SupportedVerbs, verbs[i]) {
			return nil, fmt.Errorf("unknown verb %q (supported: %s)", verbs[i], strings.Join(SupportedVerbs, ", "))
		}
	}
	return verbs, nil
}

// parseExtension parses "Name,verb=V[,subresource=S][,input=T][,result=T]"; input and result stay unresolved.
func parseExtension(val string) (*Extension, error) {
	parts := strings.Split(val, ",")
	ext := &Extension{Method: strings.TrimSpace(parts[0])}
	if ext.Method == "" {
		return nil, fmt.Errorf("needs a method name: +genclient:method=Name,verb=get")
	}
	if !token.IsIdentifier(ext.Method) || !token.IsExported(ext.Method) {
		return nil, fmt.Errorf("method name %q is not an exported Go identifier", ext.Method)
	}
	for _, p := range parts[1:] {
		key, value, ok := strings.Cut(p, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok || value == "" {
			return nil, fmt.Errorf("%q is not a key=value pair", p)
		}
		switch key {
		case "verb":
			ext.Verb = value
		case "subresource":
			ext.Subresource = value
		case "input":
			ext.Input.Name = value
		case "result":
			ext.Result.Name = value
		default:
			return nil, fmt.Errorf("unknown key %q (supported: verb, subresource, input, result)", key)
		}
	}
	switch {
	case ext.Verb == "":
		return nil, fmt.Errorf("needs a verb: +genclient:method=%s,verb=get", ext.Method)
	case !slices.Contains(extensionVerbs, ext.Verb):
		return nil, fmt.Errorf("verb %q is not supported for extension methods (supported: %s)", ext.Verb, strings.Join(extensionVerbs, ", "))
	case ext.Input.Name != "" && !slices.Contains(inputVerbs, ext.Verb):
		return nil, fmt.Errorf("input= is not supported for %q (only for %s)", ext.Verb, strings.Join(inputVerbs, ", "))
	case ext.Result.Name != "" && !slices.Contains(resultVerbs, ext.Verb):
		return nil, fmt.Errorf("result= is not supported for %q (only for %s)", ext.Verb, strings.Join(resultVerbs, ", "))
	}
	return ext, nil
}

// resolveTypeRef turns "Type" (same package) or "import/path.Type" into a TypeRef, defaulting to def.
func resolveTypeRef(spec string, pkg string, def TypeRef) (TypeRef, error) {
	if spec == "" {
		return def, nil
	}
	slash := strings.LastIndex(spec, "/")
	dot := strings.LastIndex(spec, ".")
	if dot <= slash {
		if !token.IsIdentifier(spec) {
			return TypeRef{}, fmt.Errorf("type %q is not a Go identifier", spec)
		}
		return TypeRef{Pkg: pkg, Name: spec}, nil
	}
	name := spec[dot+1:]
	if !token.IsIdentifier(name) || !token.IsExported(name) {
		return TypeRef{}, fmt.Errorf("type %q does not end in an exported Go identifier", spec)
	}
	return TypeRef{Pkg: spec[:dot], Name: name}, nil
}

func position(p token.Position) string { return fmt.Sprintf("%s:%d", p.Filename, p.Line) }
