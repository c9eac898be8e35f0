package model

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/kgen-dev/kgen/internal/generators/load"
)

// Options configure how input packages are turned into a Model.
type Options struct {
	// PluralExceptions maps type names to their plural ("Endpoints": "Endpoints").
	PluralExceptions map[string]string
	// WithApply enables the apply and applyStatus verbs (an apply-configuration package is configured).
	WithApply bool
	// IncludedTypes restricts a package (keyed "group/version", or "group/" for every version) to the named
	// types, ignoring +genclient.
	IncludedTypes map[string][]string
	// LintRules are the --lint-rules checks every input package must pass (see LintRules).
	LintRules []string
	// Clients is set when the model feeds client, lister or informer generation: a +genclient type whose
	// generated client could not build (no embedded ObjectMeta or TypeMeta, no list type with Items for
	// list and watch) is then an error at the type.
	Clients bool
}

// FromProgram builds the Model from pkgs, input packages of prog (all of prog.Packages, or a share of them
// such as the client generators' version directories), reading the hand-written files the load kept. The
// packages their types lead to (`type X pkg.Y`, an extension's input and result types) are found through
// prog's listing and parsed on first use. Any malformed tag fails the whole build.
func FromProgram(prog *load.Program, pkgs []*load.Package, opts Options) (*Model, error) {
	parsed := make([]*parsedPackage, 0, len(pkgs))
	for _, p := range pkgs {
		pp := &parsedPackage{path: p.Path, dir: p.Dir, fset: prog.Fset, files: p.Files}
		for _, f := range p.Files {
			if filepath.Base(prog.Fset.Position(f.Package).Filename) == "doc.go" {
				pp.docFile = f
			}
		}
		parsed = append(parsed, pp)
	}
	b := &builder{prog: prog, opts: opts, groups: map[string]*Group{}, model: &Model{}, referenced: map[string]*parsedPackage{}}
	for _, p := range parsed {
		b.referenced[p.path] = p
	}
	for _, p := range parsed {
		if err := b.add(p); err != nil {
			return nil, err
		}
		b.model.GenclientTags = append(b.model.GenclientTags, TagLines(p.fset, p.files, "genclient")...)
	}
	b.model.sort()
	return b.model, nil
}

// parsedPackage is the syntax of one input package.
type parsedPackage struct {
	path, dir string
	fset      *token.FileSet
	files     []*ast.File
	docFile   *ast.File
}

// parsePackage parses the hand-written files of a package the input packages' types lead to.
func parsePackage(l *load.Listing) (*parsedPackage, error) {
	pp := &parsedPackage{path: l.Path, dir: l.Dir, fset: token.NewFileSet()}
	for _, name := range l.GoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		// The same files every entry point skips: what the generators themselves wrote.
		if load.IsGenerated(name, src) {
			continue
		}
		f, err := parser.ParseFile(pp.fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pp.files = append(pp.files, f)
		if filepath.Base(name) == "doc.go" {
			pp.docFile = f
		}
	}
	return pp, nil
}

type builder struct {
	prog   *load.Program
	opts   Options
	groups map[string]*Group
	model  *Model
	// referenced caches the packages parsed to follow `type X pkg.Y` declarations, by import path.
	referenced map[string]*parsedPackage
}

// add turns one parsed input package into a version with its types and files it under its group.
func (b *builder) add(p *parsedPackage) error {
	if len(p.files) == 0 {
		return nil
	}
	if err := p.lint(b.opts.LintRules, p.docLines()); err != nil {
		return err
	}
	pkgTags, pkgPos := p.packageTags()
	v, groupDir, err := newVersion(p, pkgTags, pkgPos)
	if err != nil {
		return err
	}
	if v.Types, err = b.types(p, v, groupDir); err != nil || len(v.Types) == 0 {
		return err
	}
	if _, ok := pkgTags["groupName"]; !ok {
		// Legacy packages (k8s.io/api/apps/v1) declare their group only as a GroupName constant equal to
		// their directory, which is what code-generator falls back to.
		if c, ok := p.groupNameConst(); !ok || c != groupDir {
			return p.missingGroupName(groupDir)
		}
		pkgTags["groupName"] = []string{groupDir}
	}
	g, err := b.group(groupDir, pkgTags, pkgPos)
	if err != nil {
		return err
	}
	for _, other := range g.Versions {
		if other.Name == v.Name {
			return fmt.Errorf("%s: version %s of group %q is also provided by %s", pkgPos, v.Name, g.Name, other.PkgPath)
		}
	}
	v.Group = g
	g.Versions = append(g.Versions, v)
	return nil
}

// newVersion reads the group directory and version from the package path and the generator opt-outs
// (+k8s:<gen>=false) from its package tags.
func newVersion(p *parsedPackage, pkgTags map[string][]string, pkgPos string) (*Version, string, error) {
	parts := strings.Split(p.path, "/")
	if len(parts) < 2 {
		return nil, "", fmt.Errorf("%s: input package path %q needs a group/version layout", p.dir, p.path)
	}
	v := &Version{Name: parts[len(parts)-1], PkgPath: p.path, Dir: p.dir}
	for _, optOut := range []struct {
		gen  string
		skip *bool
	}{{"client-gen", &v.SkipClient}, {"lister-gen", &v.SkipLister}, {"informer-gen", &v.SkipInformer}} {
		switch vals := pkgTags["k8s:"+optOut.gen]; {
		case len(vals) == 0 || len(vals) == 1 && vals[0] == "true":
		case len(vals) == 1 && vals[0] == "false":
			*optOut.skip = true
		default:
			return nil, "", &TagError{Pos: pkgPos, Tag: "+k8s:" + optOut.gen + "=" + strings.Join(vals, ","), Problem: "must be true or false, once"}
		}
	}
	return v, strings.ToLower(parts[len(parts)-2]), nil
}

// types returns the client-generating types of the package, in declaration order: the +genclient ones,
// or the ones --included-types-overrides names for its group version.
func (b *builder) types(p *parsedPackage, v *Version, groupDir string) ([]*Type, error) {
	included, hasIncluded := b.opts.IncludedTypes[groupDir+"/"+v.Name]
	if groupWide, ok := b.opts.IncludedTypes[groupDir+"/"]; ok {
		included, hasIncluded = append(included, groupWide...), true
	}
	var out []*Type
	for _, f := range p.files {
		index := commentIndex(p.fset, f)
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				t, err := b.typeFor(p, f, index, spec.(*ast.TypeSpec), v, included, hasIncluded)
				if err != nil {
					return nil, err
				}
				if t != nil {
					out = append(out, t)
				}
			}
		}
	}
	return out, nil
}

// missingGroupName is the error for a package with client types whose doc.go has no +groupName:
// code-generator would silently take the directory name, which is rarely the API group.
func (p *parsedPackage) missingGroupName(groupDir string) error {
	if p.docFile == nil {
		return &TagError{Pos: filepath.Join(p.dir, "doc.go"), Tag: "+groupName", Problem: fmt.Sprintf("is missing: package %s has client types but no doc.go; add one with +groupName=<group> (for example +groupName=%s.example.com; +groupName= for the core group)", p.path, groupDir)}
	}
	return &TagError{Pos: p.docPosition(), Tag: "+groupName", Problem: fmt.Sprintf("is missing: add +groupName=<group> to doc.go (for example +groupName=%s.example.com; +groupName= for the core group)", groupDir)}
}

// groupNameConst returns the value of the package's GroupName string constant, if it declares one.
func (p *parsedPackage) groupNameConst() (string, bool) {
	for _, f := range p.files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if name.Name != "GroupName" || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if v, err := strconv.Unquote(lit.Value); err == nil {
							return v, true
						}
					}
				}
			}
		}
	}
	return "", false
}

// group returns the group of directory groupDir, registering it on first use with its name
// (+groupName) and Go name (+groupGoName, else the name's first DNS label); every
// version of a directory must name the same group.
func (b *builder) group(groupDir string, pkgTags map[string][]string, pkgPos string) (*Group, error) {
	name := pkgTags["groupName"][0]
	g := b.groups[groupDir]
	if g == nil {
		nonEmpty := name
		if nonEmpty == "" {
			nonEmpty = "core"
		}
		first, _, _ := strings.Cut(nonEmpty, ".")
		g = &Group{Name: name, GoName: namer.IC(goIdentifier(first)), Dir: groupDir}
		b.groups[groupDir] = g
		b.model.Groups = append(b.model.Groups, g)
	} else if g.Name != name {
		return nil, fmt.Errorf("%s: group %q differs from group %q of another version in directory %q", pkgPos, name, g.Name, groupDir)
	}
	if goName := pkgTags["groupGoName"]; len(goName) > 0 {
		if !token.IsIdentifier(goName[0]) {
			return nil, &TagError{Pos: pkgPos, Tag: "+groupGoName=" + goName[0], Problem: "is not a Go identifier"}
		}
		g.GoName = namer.IC(goName[0])
	}
	if !token.IsIdentifier(g.GoName) {
		return nil, fmt.Errorf("%s: group %q has no Go identifier: add +groupGoName=<Name> to doc.go", pkgPos, name)
	}
	return g, nil
}

// packageTags returns the + tags of doc.go (where package tags live) and doc.go's path.
func (p *parsedPackage) packageTags() (map[string][]string, string) {
	if p.docFile == nil {
		return map[string][]string{}, p.dir
	}
	tags := map[string][]string{}
	for _, t := range extractTags(p.docLines()) {
		tags[t.key] = append(tags[t.key], t.value)
	}
	return tags, p.fset.Position(p.docFile.Package).Filename
}

// docLines returns the comment lines of doc.go; none without doc.go.
func (p *parsedPackage) docLines() []CommentLine {
	if p.docFile == nil {
		return nil
	}
	var lines []CommentLine
	for _, cg := range p.docFile.Comments {
		lines = append(lines, CommentLines(p.fset, cg)...)
	}
	return lines
}

// docPosition is the file:line of doc.go's package clause; the package must have a doc.go.
func (p *parsedPackage) docPosition() string {
	return position(p.fset.Position(p.docFile.Package))
}

// typeFor returns the Type ts declares, or nil when it does not generate a client: it has no +genclient
// tag, or --included-types-overrides lists other types of its version.
func (b *builder) typeFor(p *parsedPackage, f *ast.File, index map[int]*ast.CommentGroup, ts *ast.TypeSpec, v *Version, included []string, hasIncluded bool) (*Type, error) {
	pos := p.fset.Position(ts.Name.Pos())
	tags, err := parseTypeTags(typeComment(p.fset, index, pos.Line))
	if err != nil {
		return nil, err
	}
	if hasIncluded {
		tags.genclient = slices.Contains(included, ts.Name.Name)
	}
	if !tags.genclient {
		return nil, nil
	}
	hasStatus := hasStatusMember(b.structOf(p, f, ts.Type, 0))
	t := &Type{
		Version:    v,
		Name:       ts.Name.Name,
		Namespaced: !tags.nonNamespaced,
		NoVerbs:    tags.noVerbs,
		HasStatus:  hasStatus && !tags.noStatus,
		Pos:        position(pos),
	}
	t.Verbs = tags.verbs(t.HasStatus, b.opts.WithApply)
	t.SelectedVerbs = tags.selectedVerbs(t.HasStatus, b.opts.WithApply)
	gt := &types.Type{Name: types.Name{Package: v.PkgPath, Name: t.Name}}
	t.Plural = namer.NewPublicPluralNamer(b.opts.PluralExceptions).Name(gt)
	t.PrivatePlural = namer.NewPrivatePluralNamer(b.opts.PluralExceptions).Name(gt)
	t.Resource = namer.NewAllLowercasePluralNamer(b.opts.PluralExceptions).Name(gt)
	if tags.resourceName != "" {
		t.Resource = tags.resourceName
	}
	if f, list := p.typeSpec(t.Name + "List"); list != nil {
		t.PointerItems = pointerItems(b.structOf(p, f, list.Type, 0))
	}
	if t.Extensions, err = b.extensions(p, t, tags); err != nil {
		return nil, err
	}
	if b.opts.Clients && !t.NoVerbs {
		if err := b.checkShape(p, f, ts, t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// checkShape fails when the generated code for t could not build: a type with verbs must embed
// metav1.ObjectMeta and metav1.TypeMeta, and one that is listed or watched needs <Type>List with an Items
// slice. Embedded types that cannot be followed count as providing what is looked for.
func (b *builder) checkShape(p *parsedPackage, f *ast.File, ts *ast.TypeSpec, t *Type) error {
	st := b.structOf(p, f, ts.Type, 0)
	if st == nil {
		return nil
	}
	var missing []string
	for _, meta := range []string{"ObjectMeta", "TypeMeta"} {
		if b.embeds(p, f, st, meta, 0) == no {
			missing = append(missing, "an embedded metav1."+meta)
		}
	}
	if t.HasVerb("list") || t.HasVerb("watch") {
		lf, list := p.typeSpec(t.Name + "List")
		switch {
		case list == nil:
			missing = append(missing, fmt.Sprintf("the list type %[1]sList (metav1.TypeMeta, metav1.ListMeta and Items []%[1]s), which list and watch need", t.Name))
		default:
			if lst := b.structOf(p, lf, list.Type, 0); lst != nil && !hasItems(lst) {
				missing = append(missing, fmt.Sprintf("an Items slice in %sList", t.Name))
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &TagError{Pos: t.Pos, Tag: "+genclient", Problem: fmt.Sprintf("type %s lacks %s; its generated client would not build (add them, or mark the type +genclient:noVerbs)",
		t.Name, strings.Join(missing, ", "))}
}

// found is a three-way answer: yes, no, or unknown when a type could not be followed.
type found int

const (
	no found = iota
	yes
	unknown
)

// embeds reports whether st (declared in file of p) embeds the type called name, directly or through
// embedded structs of its own.
func (b *builder) embeds(p *parsedPackage, file *ast.File, st *ast.StructType, name string, depth int) found {
	answer := no
	for _, field := range st.Fields.List {
		if len(field.Names) != 0 {
			continue
		}
		switch typeName(field.Type) {
		case name:
			return yes
		case "TypeMeta", "ObjectMeta", "ListMeta":
			continue // metav1's types embed nothing
		}
		if depth >= 4 {
			answer = unknown
			continue
		}
		typ := field.Type
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		// The embedded type's own package and file, to follow it further.
		ep, ef := p, file
		if sel, ok := typ.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				ep = b.imported(file, id.Name)
			}
			if ep == nil {
				answer = unknown
				continue
			}
			ef, _ = ep.typeSpec(sel.Sel.Name)
			typ = sel.Sel
		}
		inner := b.structOf(ep, ef, typ, 0)
		if inner == nil {
			answer = unknown
			continue
		}
		switch b.embeds(ep, ef, inner, name, depth+1) {
		case yes:
			return yes
		case unknown:
			answer = unknown
		}
	}
	return answer
}

// hasItems reports whether the struct declares a field Items of slice type.
func hasItems(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if at, ok := f.Type.(*ast.ArrayType); ok && n.Name == "Items" && at.Len == nil {
				return true
			}
		}
	}
	return false
}

// pointerItems reports whether the list struct st declares Items as a slice of pointers.
func pointerItems(st *ast.StructType) bool {
	if st == nil {
		return false
	}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.Name != "Items" {
				continue
			}
			if at, ok := f.Type.(*ast.ArrayType); ok && at.Len == nil {
				_, ptr := at.Elt.(*ast.StarExpr)
				return ptr
			}
		}
	}
	return false
}

// typeComment returns the comment lines that hold the tags of the type declared on line: the block
// directly above it, preceded by the block before that when one blank line separates them (gengo's
// CommentLines and SecondClosestCommentLines).
func typeComment(fset *token.FileSet, index map[int]*ast.CommentGroup, line int) []CommentLine {
	var lines []CommentLine
	if c1 := index[line-1]; c1 != nil {
		if c2 := index[fset.Position(c1.Pos()).Line-2]; c2 != nil {
			lines = append(lines, CommentLines(fset, c2)...)
		}
		lines = append(lines, CommentLines(fset, c1)...)
	} else if c2 := index[line-2]; c2 != nil {
		lines = append(lines, CommentLines(fset, c2)...)
	}
	return lines
}

// hasStatusMember reports whether the struct has a member, named or embedded, called Status.
func hasStatusMember(st *ast.StructType) bool {
	if st == nil {
		return false
	}
	for _, field := range st.Fields.List {
		if len(field.Names) == 0 && typeName(field.Type) == "Status" {
			return true
		}
		for _, n := range field.Names {
			if n.Name == "Status" {
				return true
			}
		}
	}
	return false
}

// extensions resolves the input and result types of t's +genclient:method extensions, in tag order,
// leaving out apply extensions when apply verbs are not enabled; a method declared twice, or an input or
// result type that is not declared, is an error. p is t's package.
func (b *builder) extensions(p *parsedPackage, t *Type, tags *typeTags) ([]*Extension, error) {
	var out []*Extension
	for i, ext := range tags.extensions {
		if ext.Verb == "apply" && !b.opts.WithApply {
			continue
		}
		l := tags.extLines[i]
		tagErr := func(problem string) error {
			return &TagError{Pos: position(l.Pos), Tag: strings.TrimSpace(l.Text), Problem: problem}
		}
		var err error
		if ext.Input, err = resolveTypeRef(ext.Input.Name, t.Version.PkgPath, t.Ref()); err != nil {
			return nil, tagErr(err.Error())
		}
		if ext.Result, err = resolveTypeRef(ext.Result.Name, t.Version.PkgPath, t.Ref()); err != nil {
			return nil, tagErr(err.Error())
		}
		refs := []TypeRef{ext.Input, ext.Result}
		if ext.Verb == "list" {
			refs = append(refs, TypeRef{Pkg: ext.Result.Pkg, Name: ext.Result.Name + "List"})
		}
		for _, r := range refs {
			if err := b.declared(p, r); err != nil {
				return nil, tagErr(err.Error())
			}
		}
		for _, other := range out {
			if other.Method == ext.Method {
				return nil, tagErr("method " + ext.Method + " is declared twice")
			}
		}
		out = append(out, ext)
	}
	return out, nil
}

// commentIndex maps the line a comment group ends on to the group.
func commentIndex(fset *token.FileSet, f *ast.File) map[int]*ast.CommentGroup {
	index := make(map[int]*ast.CommentGroup, len(f.Comments))
	for _, cg := range f.Comments {
		index[fset.Position(cg.End()).Line] = cg
	}
	return index
}

// structOf returns the struct expr (found in file of p) declares, following named types such as
// `type Gateway v1.Gateway` through their packages, which are parsed on first use; nil when it is not a
// struct or cannot be found.
func (b *builder) structOf(p *parsedPackage, file *ast.File, expr ast.Expr, depth int) *ast.StructType {
	if depth > 8 {
		return nil
	}
	switch t := expr.(type) {
	case *ast.StructType:
		return t
	case *ast.Ident:
		if f, ts := p.typeSpec(t.Name); ts != nil {
			return b.structOf(p, f, ts.Type, depth+1)
		}
	case *ast.SelectorExpr:
		pkgName, ok := t.X.(*ast.Ident)
		if !ok {
			return nil
		}
		other := b.imported(file, pkgName.Name)
		if other == nil {
			return nil
		}
		if f, ts := other.typeSpec(t.Sel.Name); ts != nil {
			return b.structOf(other, f, ts.Type, depth+1)
		}
	}
	return nil
}

// typeSpec finds the declaration of the named type and the file it is in.
func (p *parsedPackage) typeSpec(name string) (*ast.File, *ast.TypeSpec) {
	for _, f := range p.files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				if ts := spec.(*ast.TypeSpec); ts.Name.Name == name {
					return f, ts
				}
			}
		}
	}
	return nil, nil
}

// declared checks that the type r names is declared, in p or in the package its import path names.
func (b *builder) declared(p *parsedPackage, r TypeRef) error {
	if r.Pkg != p.path {
		if p = b.parsed(r.Pkg); p == nil {
			return fmt.Errorf("package %q of type %s cannot be loaded", r.Pkg, r.Name)
		}
	}
	if _, ts := p.typeSpec(r.Name); ts == nil {
		return fmt.Errorf("type %s is not declared in package %q", r.Name, r.Pkg)
	}
	return nil
}

// imported returns the package file imports as name, parsed; nil if it cannot be listed or parsed.
func (b *builder) imported(file *ast.File, name string) *parsedPackage {
	for _, imp := range file.Imports {
		importPath, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		local := importPath[strings.LastIndex(importPath, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		if local != name {
			continue
		}
		return b.parsed(importPath)
	}
	return nil
}

// parsed returns the package of importPath, parsed on first use; nil if it cannot be listed or parsed.
func (b *builder) parsed(importPath string) *parsedPackage {
	if p, ok := b.referenced[importPath]; ok {
		return p
	}
	var parsed *parsedPackage
	if listed, err := b.prog.Listings(importPath); err == nil {
		parsed, _ = parsePackage(listed[0])
	}
	b.referenced[importPath] = parsed
	return parsed
}
