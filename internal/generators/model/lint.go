package model

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/gengo/v2/codetags"
)

// The lint rules --lint-rules accepts, with code-generator's names.
const (
	// LintKnownTagsOnly rejects +k8s:*-gen* package tags no Kubernetes generator knows (typos such as
	// +k8s:deepcopy-gen-package would otherwise be ignored silently).
	LintKnownTagsOnly = "known-tags-only"
	// LintRequireExplicitDisablement demands that API packages say in doc.go whether each generator
	// their role calls for runs: deepcopy-gen for versioned API types; conversion-gen, defaulter-gen
	// and validation-gen for per-version internals.
	LintRequireExplicitDisablement = "require-explicit-disablement"
)

// LintRules lists the supported lint rules.
var LintRules = []string{LintKnownTagsOnly, LintRequireExplicitDisablement}

// ValidateLintRules reports a rule that is not one of LintRules.
func ValidateLintRules(rules []string) error {
	for _, r := range rules {
		if !slices.Contains(LintRules, r) {
			return fmt.Errorf("unrecognized rule in --lint-rules: %s (supported: %s)", r, strings.Join(LintRules, ","))
		}
	}
	return nil
}

// generatorTag is a package tag of a Kubernetes generator: value is the hint shown when the tag is
// required but missing.
type generatorTag struct{ name, value string }

var (
	deepcopyTag   = generatorTag{"k8s:deepcopy-gen", "package or false"}
	conversionTag = generatorTag{"k8s:conversion-gen", "peer-package or false"}
	defaulterTag  = generatorTag{"k8s:defaulter-gen", "TypeMeta or false"}
	validationTag = generatorTag{"k8s:validation-gen", "TypeMeta or false"}
)

// knownTags are the package tags some Kubernetes generator reads.
var knownTags = []string{
	"k8s:conversion-gen", "k8s:conversion-gen-external-types",
	"k8s:defaulter-gen", "k8s:defaulter-gen-input",
	"k8s:validation-gen", "k8s:validation-gen-input", "k8s:validation-gen-nolint",
	"k8s:validation-gen-scheme-registry", "k8s:validation-gen-test-fixture", "k8s:validation-gen-test-targets",
	"k8s:prerelease-lifecycle-gen", "k8s:deepcopy-gen", "k8s:register-gen",
	"k8s:openapi-gen", "k8s:openapi-model-package", "k8s:protobuf-gen",
	"k8s:client-gen", "k8s:applyconfiguration-gen", "k8s:informer-gen", "k8s:lister-gen",
	"genclient", "genclient:nonNamespaced", "genclient:noVerbs", "genclient:onlyVerbs", "genclient:skipVerbs",
	"genclient:noStatus", "genclient:readonly", "genclient:method", "groupGoName",
}

// taggedLine is a package tag with the doc.go line it is on.
type taggedLine struct {
	name string
	line CommentLine
}

// lint applies rules to an input package, whose doc.go lines are doc; it reports every problem, each
// at its file:line.
func (p *parsedPackage) lint(rules []string, doc []CommentLine) error {
	var tags []taggedLine
	for _, l := range doc {
		for name := range codetags.Extract("+", []string{l.Text}) {
			tags = append(tags, taggedLine{name, l})
		}
	}
	var errs []error
	for _, rule := range rules {
		switch rule {
		case LintKnownTagsOnly:
			errs = append(errs, unknownGeneratorTags(tags)...)
		case LintRequireExplicitDisablement:
			errs = append(errs, p.missingDisablements(tags)...)
		}
	}
	return errors.Join(errs...)
}

// knownKubebuilderPackageTags are the +kubebuilder: package tags controller-gen's generators (and
// crd-gen, for the CRD ones) read; known-tags-only rejects other +kubebuilder: package tags, which
// controller-gen ignores silently.
var knownKubebuilderPackageTags = []string{
	"kubebuilder:validation:Optional", "kubebuilder:validation:Required", "kubebuilder:skip",
	"kubebuilder:object:generate", "kubebuilder:object:root", "kubebuilder:ac:generate", "kubebuilder:ac:output:package",
	"kubebuilder:rbac", "kubebuilder:webhook",
}

func unknownGeneratorTags(tags []taggedLine) []error {
	var errs []error
	for _, t := range tags {
		if strings.HasPrefix(t.name, "kubebuilder:") {
			if !slices.ContainsFunc(knownKubebuilderPackageTags, func(k string) bool { return t.name == k || strings.HasPrefix(t.name, k+":") }) {
				errs = append(errs, &TagError{Pos: position(t.line.Pos), Tag: strings.TrimSpace(t.line.Text),
					Problem: "unknown package tag (" + LintKnownTagsOnly + "; known kubebuilder package tags: +" + strings.Join(knownKubebuilderPackageTags, ", +") + ")"})
			}
			continue
		}
		if !strings.HasPrefix(t.name, "k8s:") || !strings.Contains(t.name, "-gen") {
			continue
		}
		base := t.name
		if i := strings.Index(t.name[len("k8s:"):], ":"); i >= 0 {
			base = t.name[:len("k8s:")+i]
		}
		if !slices.Contains(knownTags, base) {
			errs = append(errs, &TagError{Pos: position(t.line.Pos), Tag: strings.TrimSpace(t.line.Text),
				Problem: "unknown generator tag (" + LintKnownTagsOnly + "; known: " + strings.Join(knownGeneratorTagNames(), ", ") + ")"})
		}
	}
	return errs
}

func knownGeneratorTagNames() []string {
	var out []string
	for _, name := range knownTags {
		if strings.HasPrefix(name, "k8s:") {
			out = append(out, "+"+name)
		}
	}
	return out
}

var versionDir = regexp.MustCompile(`^v\d+([a-z]+\d+)?$`)

// missingDisablements reports the generator tags the package's role calls for that doc.go lacks.
func (p *parsedPackage) missingDisablements(tags []taggedLine) []error {
	has := func(name string) bool {
		return slices.ContainsFunc(tags, func(t taggedLine) bool { return t.name == name })
	}
	isAPI := has("groupName") || slices.ContainsFunc(tags, func(t taggedLine) bool { return slices.Contains(knownTags, t.name) })
	if !isAPI || !versionDir.MatchString(p.path[strings.LastIndex(p.path, "/")+1:]) {
		return nil
	}
	var role string
	var expected []generatorTag
	switch {
	case p.embedsInlineTypeMeta():
		role, expected = "versioned API types", []generatorTag{deepcopyTag}
	case has("k8s:defaulter-gen") || has("k8s:defaulter-gen-input") || has("k8s:validation-gen") || has("k8s:validation-gen-input"):
		role, expected = "per-version internals (conversion, defaulting, validation)", []generatorTag{conversionTag, defaulterTag, validationTag}
	}
	var errs []error
	for _, g := range expected {
		if !has(g.name) {
			errs = append(errs, &TagError{Pos: p.docPosition(), Tag: "+" + g.name,
				Problem: fmt.Sprintf("missing (%s): this package holds %s; set +%s=<%s> in doc.go",
					LintRequireExplicitDisablement, role, g.name, g.value)})
		}
	}
	return errs
}

// embedsInlineTypeMeta reports whether a struct of the package embeds TypeMeta with `json:",inline"`,
// as versioned API types do.
func (p *parsedPackage) embedsInlineTypeMeta() bool {
	for _, f := range p.files {
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok || found {
				return !found
			}
			for _, field := range st.Fields.List {
				if len(field.Names) == 0 && typeName(field.Type) == "TypeMeta" && field.Tag != nil {
					tag, _ := strconv.Unquote(field.Tag.Value)
					if json, ok := reflect.StructTag(tag).Lookup("json"); ok && strings.Split(json, ",")[0] == "" {
						found = true
					}
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// typeName is the name of a possibly qualified or pointer type expression.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.StarExpr:
		return typeName(t.X)
	}
	return ""
}

// Lint applies the --lint-rules checks to an already parsed input package (import path path, directory
// dir, files parsed into fset), for generators that read the load without building a model
// (deepcopy-gen, register-gen).
func Lint(rules []string, path, dir string, fset *token.FileSet, files []*ast.File) error {
	if len(rules) == 0 {
		return nil
	}
	p := &parsedPackage{path: path, dir: dir, fset: fset, files: files}
	for _, f := range files {
		if filepath.Base(fset.File(f.Pos()).Name()) == "doc.go" {
			p.docFile = f
		}
	}
	return p.lint(rules, p.docLines())
}
