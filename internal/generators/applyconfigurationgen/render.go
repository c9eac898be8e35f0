package applyconfigurationgen

import (
	"fmt"
	"go/token"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"text/template"

	"github.com/kgen-dev/kgen/internal/generators/gofile"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// renderer writes the generated files of one run.
type renderer struct {
	g   *generator
	out *output.Set
	// pending are the rendered files waiting to be formatted (format).
	pending []pendingFile
	// irregular records that the type rendered last used an array length gofmt may respace.
	irregular bool
}

// pendingFile is a rendered file before formatting.
type pendingFile struct {
	f    *gofile.File
	path string
}

var rawTemplate = template.Must(template.New("raw").Parse("{{.}}"))

// add records body as file name in dir, to be formatted by format.
func (r *renderer) add(f *gofile.File, dir, name, body string) error {
	if err := f.Execute(rawTemplate, body); err != nil {
		return err
	}
	r.pending = append(r.pending, pendingFile{f: f, path: filepath.Join(dir, name)})
	return nil
}

// format assembles and formats the pending files on every CPU and adds them to the output set.
func (r *renderer) format() error {
	contents := make([][]byte, len(r.pending))
	errs := make([]error, len(r.pending))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				contents[i], errs[i] = r.pending[i].f.Bytes(r.g.cfg.Header, Generator)
			}
		})
	}
	for i := range r.pending {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, p := range r.pending {
		if errs[i] != nil {
			return errs[i]
		}
		r.out.Add(p.path, contents[i])
	}
	r.pending = nil
	return nil
}

// builderKind is how a With function fills a field.
type builderKind int

const (
	setValue      builderKind = iota // field *T, With(value T)
	setConfig                        // field *EApplyConfiguration, With(value *EApplyConfiguration)
	appendConfigs                    // field []EApplyConfiguration, With(values ...*EApplyConfiguration)
	appendValues                     // field []E, With(values ...E)
	putEntries                       // field map[K]V, With(entries map[K]V)
)

// fieldShape is the generated field and builder of one member.
type fieldShape struct {
	kind builderKind
	// fieldType is the type of the generated field; param the With function's parameter type (the
	// element type for appends).
	fieldType, param string
}

// shape maps a member's Go type to its apply configuration field, rendering types in f.
func (r *renderer) shape(f *gofile.File, t *goType) fieldShape {
	deref := t
	for deref.kind == pointerKind {
		deref = deref.elem
	}
	if pkg, name, ok := r.g.acRef(deref); ok {
		ref := "*" + f.Ref(pkg, name)
		return fieldShape{kind: setConfig, fieldType: ref, param: ref}
	}
	switch t.kind {
	case sliceKind:
		if pkg, name, ok := r.g.acRef(t.elem); ok {
			ref := f.Ref(pkg, name)
			return fieldShape{kind: appendConfigs, fieldType: "[]" + ref, param: "*" + ref}
		}
		elem := r.typeString(f, t.elem)
		return fieldShape{kind: appendValues, fieldType: "[]" + elem, param: elem}
	case mapKind:
		var value string
		if pkg, name, ok := r.g.acRef(t.elem); ok {
			value = f.Ref(pkg, name)
		} else {
			value = r.typeString(f, t.elem)
		}
		m := "map[" + r.typeString(f, t.key) + "]" + value
		return fieldShape{kind: putEntries, fieldType: m, param: m}
	}
	v := r.typeString(f, deref)
	return fieldShape{kind: setValue, fieldType: "*" + v, param: v}
}

// typeString renders t as Go source in f.
func (r *renderer) typeString(f *gofile.File, t *goType) string {
	switch t.kind {
	case builtinKind:
		return t.name
	case namedKind:
		return f.Ref(t.pkg, t.name)
	case pointerKind:
		return "*" + r.typeString(f, t.elem)
	case sliceKind:
		return "[]" + r.typeString(f, t.elem)
	case arrayKind:
		r.irregular = r.irregular || !isDecimal(t.length)
		return "[" + t.length + "]" + r.typeString(f, t.elem)
	case mapKind:
		return "map[" + r.typeString(f, t.key) + "]" + r.typeString(f, t.elem)
	case structKind:
		return "struct{}"
	}
	return "interface{}"
}

// omitted reports whether a member of d has no apply configuration field: server-owned metadata.
func omitted(d *typeDecl, m *member) bool {
	if m.skipped() {
		return true
	}
	return d.pkg.path == metav1 && d.name() == "ObjectMeta" && (m.name == "ManagedFields" || m.name == "SelfLink")
}

// embeddedConfig returns the apply configuration of an embedded member, if it has one, and its declaration.
func (r *renderer) embeddedConfig(m *member) (pkg, name string, d *typeDecl, ok bool) {
	if !m.embedded {
		return "", "", nil, false
	}
	t := m.typ
	if t.kind == pointerKind {
		t = t.elem
	}
	pkg, name, ok = r.g.acRef(t)
	if !ok {
		return "", "", nil, false
	}
	d, err := r.g.u.lookup(t.pkg, t.name)
	if err != nil || d == nil {
		return "", "", nil, false
	}
	return pkg, name, d, true
}

// docLines are comment lines without + tags and with trailing blank lines removed.
func docLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "+") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

func writeComment(b *strings.Builder, indent string, lines []string) {
	for _, l := range lines {
		if l == "" {
			fmt.Fprintf(b, "%s//\n", indent)
		} else {
			fmt.Fprintf(b, "%s// %s\n", indent, l)
		}
	}
}

// typeFile renders one apply configuration type with its constructor, extractors and builders.
func (r *renderer) typeFile(a *acType) error {
	f := gofile.New(a.pkg, path.Base(a.pkg))
	members, err := r.g.u.members(a.decl)
	if err != nil {
		return err
	}
	var b strings.Builder
	ac, name := a.acName(), a.name()
	fmt.Fprintf(&b, "// %s is the apply configuration of %s: only the fields that are set\n// are sent, and the applying field manager owns them.\n", ac, name)
	if doc := docLines(a.decl.doc); len(doc) > 0 {
		b.WriteString("//\n")
		writeComment(&b, "", doc)
	}
	fmt.Fprintf(&b, "type %s struct {\n", ac)
	embedsTypeMeta := false
	for _, m := range members {
		if omitted(a.decl, m) {
			continue
		}
		writeComment(&b, "\t", docLines(m.comment))
		opts := ""
		if m.omitempty {
			opts = ",omitempty"
		}
		if pkg, acName, d, ok := r.embeddedConfig(m); ok {
			if m.jsonName == "" {
				embedsTypeMeta = embedsTypeMeta || d.pkg.path == metav1 && d.name() == "TypeMeta"
				fmt.Fprintf(&b, "\t%s `json:\"%s\"`\n", f.Ref(pkg, acName), opts)
			} else {
				fmt.Fprintf(&b, "\t*%s `json:\"%s,omitempty\"`\n", f.Ref(pkg, acName), m.jsonName)
			}
			continue
		}
		if m.embedded {
			fmt.Fprintf(&b, "\t%s `json:\"%s%s\"`\n", r.typeString(f, m.typ), m.jsonName, opts)
			continue
		}
		fmt.Fprintf(&b, "\t%s %s `json:\"%s,omitempty\"`\n", m.name, r.shape(f, m.typ).fieldType, m.jsonName)
	}
	b.WriteString("}\n\n")
	head := b.String()
	b.Reset()
	r.irregular = false

	// Constructor.
	switch {
	case a.client != nil:
		params, sets := "name string", "\tb.WithName(name)\n"
		if a.client.Namespaced {
			params, sets = "name, namespace string", "\tb.WithName(name)\n\tb.WithNamespace(namespace)\n"
		}
		fmt.Fprintf(&b, "// %s starts the apply configuration of the %s with the given name, to be filled with\n// With calls and sent with Apply.\n", name, name)
		fmt.Fprintf(&b, "func %s(%s) *%s {\n\tb := &%s{}\n%s\tb.WithKind(%q)\n\tb.WithAPIVersion(%q)\n\treturn b\n}\n\n",
			name, params, ac, ac, sets, name, a.apiVersion())
	case embedsTypeMeta:
		fmt.Fprintf(&b, "// %s starts an apply configuration of %s with its kind and API version set.\n", name, name)
		fmt.Fprintf(&b, "func %s() *%s {\n\tb := &%s{}\n\tb.WithKind(%q)\n\tb.WithAPIVersion(%q)\n\treturn b\n}\n\n",
			name, ac, ac, name, a.apiVersion())
	default:
		fmt.Fprintf(&b, "// %s starts an empty apply configuration of %s.\n", name, name)
		fmt.Fprintf(&b, "func %s() *%s {\n\treturn &%s{}\n}\n\n", name, ac, ac)
	}

	if a.client != nil {
		r.extractors(f, &b, a)
	}
	if a.client != nil || embedsTypeMeta {
		fmt.Fprintf(&b, "// IsApplyConfiguration marks %s as an apply configuration.\nfunc (b %s) IsApplyConfiguration() {}\n\n", ac, ac)
	}
	var getters strings.Builder
	if err := r.withFuncs(f, &b, &getters, ac, a.decl, "", "", map[string]bool{}, 0); err != nil {
		return err
	}
	b.WriteString(getters.String())
	// The declarations after the struct are the generator's own text: only the struct's comments and
	// an array length come from the input and need formatting.
	if r.irregular {
		head += b.String()
	} else {
		f.AppendFormatted(b.String())
	}
	return r.add(f, a.dir, strings.ToLower(name)+".go", head)
}

// extractors renders Extract<Type>From, Extract<Type> and one Extract<Type><Subresource> per subresource.
func (r *renderer) extractors(f *gofile.File, b *strings.Builder, a *acType) {
	name, ac := a.name(), a.acName()
	obj := "*" + f.Ref(a.decl.pkg.path, name)
	param := lowerFirst(name)
	if token.IsKeyword(param) || param == "b" || param == "internal" || param == "applyconfigurations" {
		param += "Obj"
	}
	fmt.Fprintf(b, `// Extract%[1]sFrom returns the fields of %[2]s that fieldManager owns through subresource ("" for
// the main resource, "status", "scale", ...) as an apply configuration, with name and kind set, so a
// controller can change some of its fields and apply them again. %[2]s must be an unmodified %[1]s
// read from the API server: its managedFields say which fields the manager owns.
func Extract%[1]sFrom(%[2]s %[3]s, fieldManager string, subresource string) (*%[4]s, error) {
	b := &%[4]s{}
	if err := %[5]s(%[2]s, %[6]s(), %[7]q, fieldManager, b, subresource); err != nil {
		return nil, err
	}
	b.WithName(%[2]s.Name)
`, name, param, obj, ac, f.Ref(RuntimePkg, "ExtractInto"), f.Ref(path.Join(r.g.cfg.OutputPkg, "internal"), "Parser"),
		openAPIName(a.decl.pkg.path, name))
	if a.client.Namespaced {
		fmt.Fprintf(b, "\tb.WithNamespace(%s.Namespace)\n", param)
	}
	fmt.Fprintf(b, "\tb.WithKind(%q)\n\tb.WithAPIVersion(%q)\n\treturn b, nil\n}\n\n", name, a.apiVersion())
	fmt.Fprintf(b, `// Extract%[1]s returns the fields of the main resource of %[2]s that fieldManager owns, as
// Extract%[1]sFrom does.
func Extract%[1]s(%[2]s %[3]s, fieldManager string) (*%[4]s, error) {
	return Extract%[1]sFrom(%[2]s, fieldManager, "")
}

`, name, param, obj, ac)
	var subs []string
	if a.client.HasStatus {
		subs = append(subs, "status")
	}
	for _, ext := range a.client.Extensions {
		if ext.Subresource != "" && !containsString(subs, ext.Subresource) {
			subs = append(subs, ext.Subresource)
		}
	}
	sortStrings(subs)
	for _, sub := range subs {
		fmt.Fprintf(b, `// Extract%[1]s%[5]s returns the fields of the %[6]s subresource of %[2]s that fieldManager owns,
// as Extract%[1]sFrom does.
func Extract%[1]s%[5]s(%[2]s %[3]s, fieldManager string) (*%[4]s, error) {
	return Extract%[1]sFrom(%[2]s, fieldManager, %[6]q)
}

`, name, param, obj, ac, upperFirst(sub), sub)
	}
}

// withFuncs renders the With functions of d's members on receiver type ac, reaching the fields through
// prefix and calling ensure first; embedded configurations recurse. Getters go to getters.
func (r *renderer) withFuncs(f *gofile.File, b, getters *strings.Builder, ac string, d *typeDecl, prefix, ensure string, emitted map[string]bool, depth int) error {
	if depth > 8 {
		return fmt.Errorf("%s: embedding too deep", d.pos())
	}
	members, err := r.g.u.members(d)
	if err != nil {
		return err
	}
	for _, m := range members {
		if omitted(d, m) {
			continue
		}
		if pkg, acName, inner, ok := r.embeddedConfig(m); ok {
			if m.jsonName == "" {
				if err := r.withFuncs(f, b, getters, ac, inner, prefix+acName+".", ensure, emitted, depth+1); err != nil {
					return err
				}
				continue
			}
			ensureName := "ensure" + acName + "Exists"
			if err := r.withFuncs(f, b, getters, ac, inner, prefix+acName+".", "b."+ensureName+"()", emitted, depth+1); err != nil {
				return err
			}
			fmt.Fprintf(b, "func (b *%s) %s() {\n\tif b.%s%s == nil {\n\t\tb.%s%s = &%s{}\n\t}\n}\n\n",
				ac, ensureName, prefix, acName, prefix, acName, f.Ref(pkg, acName))
			continue
		}
		if m.embedded || emitted[m.name] {
			continue
		}
		emitted[m.name] = true
		field := "b." + prefix + m.name
		ensureLine := ""
		if ensure != "" {
			ensureLine = "\t" + ensure + "\n"
		}
		s := r.shape(f, m.typ)
		with := "With" + m.name
		switch s.kind {
		case setValue:
			fmt.Fprintf(b, "// %s sets %s and returns the receiver, so calls can be chained; the last call wins.\n", with, m.name)
			fmt.Fprintf(b, "func (b *%s) %s(value %s) *%s {\n%s\t%s = &value\n\treturn b\n}\n\n", ac, with, s.param, ac, ensureLine, field)
		case setConfig:
			fmt.Fprintf(b, "// %s sets %s and returns the receiver, so calls can be chained; the last call wins.\n", with, m.name)
			fmt.Fprintf(b, "func (b *%s) %s(value %s) *%s {\n%s\t%s = value\n\treturn b\n}\n\n", ac, with, s.param, ac, ensureLine, field)
		case appendConfigs:
			fmt.Fprintf(b, "// %s appends values to %s and returns the receiver, so calls can be chained. A nil\n// value panics.\n", with, m.name)
			fmt.Fprintf(b, "func (b *%s) %s(values ...%s) *%s {\n%s\tfor i := range values {\n\t\tif values[i] == nil {\n\t\t\tpanic(\"nil value passed to %s\")\n\t\t}\n\t\t%s = append(%s, *values[i])\n\t}\n\treturn b\n}\n\n",
				ac, with, s.param, ac, ensureLine, with, field, field)
		case appendValues:
			fmt.Fprintf(b, "// %s appends values to %s and returns the receiver, so calls can be chained.\n", with, m.name)
			fmt.Fprintf(b, "func (b *%s) %s(values ...%s) *%s {\n%s\t%s = append(%s, values...)\n\treturn b\n}\n\n",
				ac, with, s.param, ac, ensureLine, field, field)
		case putEntries:
			fmt.Fprintf(b, "// %s puts entries into %s, replacing entries with the same keys, and returns the\n// receiver, so calls can be chained.\n", with, m.name)
			fmt.Fprintf(b, "func (b *%s) %s(entries %s) *%s {\n%s\tif %s == nil && len(entries) > 0 {\n\t\t%s = make(%s, len(entries))\n\t}\n\tfor k, v := range entries {\n\t\t%s[k] = v\n\t}\n\treturn b\n}\n\n",
				ac, with, s.param, ac, ensureLine, field, field, s.param, field)
		}
		if isGetter(d, m.name) {
			fmt.Fprintf(getters, "// Get%s returns %s, nil if it is not set.\nfunc (b *%s) Get%s() %s {\n%s\treturn %s\n}\n\n",
				m.name, m.name, ac, m.name, s.fieldType, ensureLine, field)
		}
	}
	return nil
}

// isGetter reports whether a member gets a Get function: the name and namespace of ObjectMeta and the
// kind and API version of TypeMeta, which clients read from apply configurations.
func isGetter(d *typeDecl, field string) bool {
	if d.pkg.path != metav1 {
		return false
	}
	switch d.name() {
	case "ObjectMeta":
		return field == "Name" || field == "Namespace"
	case "TypeMeta":
		return field == "Kind" || field == "APIVersion"
	}
	return false
}

// lowerFirst lowers the first letter only, as code-generator names Extract parameters ("APIService" ->
// "aPIService").
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// isDecimal reports whether s is a decimal literal, which gofmt leaves as it is.
func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
