package applyconfigurationgen

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/kgen-dev/kgen/internal/generators/gofile"
)

// Packages utils.go and internal.go refer to.
const (
	pkgSchema        = "k8s.io/apimachinery/pkg/runtime/schema"
	pkgRuntime       = "k8s.io/apimachinery/pkg/runtime"
	pkgManagedFields = "k8s.io/apimachinery/pkg/util/managedfields"
	pkgTyped         = "sigs.k8s.io/structured-merge-diff/v6/typed"
)

// utils renders utils.go: ForKind and NewTypeConverter for every generated type.
func (r *renderer) utils() error {
	pkg := r.g.cfg.OutputPkg
	f := gofile.New(pkg, path.Base(pkg))
	gvk := f.Ref(pkgSchema, "GroupVersionKind")
	var b strings.Builder
	fmt.Fprintf(&b, "// ForKind returns an empty apply configuration for the kind, or nil if the kind has none here.\n")
	fmt.Fprintf(&b, "func ForKind(kind %s) interface{} {\n\tswitch kind {\n", gvk)
	byGV := map[[2]string][]*acType{}
	var gvs [][2]string
	for _, a := range r.g.order {
		key := [2]string{a.group, a.version}
		if byGV[key] == nil {
			gvs = append(gvs, key)
		}
		byGV[key] = append(byGV[key], a)
	}
	sort.Slice(gvs, func(i, j int) bool {
		if gi, gj := strings.ToLower(gvs[i][0]), strings.ToLower(gvs[j][0]); gi != gj {
			return gi < gj
		}
		return strings.ToLower(gvs[i][1]) < strings.ToLower(gvs[j][1])
	})
	for _, gv := range gvs {
		types := byGV[gv]
		sort.SliceStable(types, func(i, j int) bool { return strings.ToLower(types[i].name()) < strings.ToLower(types[j].name()) })
		fmt.Fprintf(&b, "\t// Group=%s, Version=%s\n", gv[0], gv[1])
		seen := map[string]bool{}
		for _, a := range types {
			if seen[a.name()] {
				continue
			}
			seen[a.name()] = true
			fmt.Fprintf(&b, "\tcase %s{Group: %q, Version: %q, Kind: %q}:\n\t\treturn &%s{}\n",
				gvk, gv[0], gv[1], a.name(), f.Ref(a.pkg, a.acName()))
		}
	}
	b.WriteString("\t}\n\treturn nil\n}\n\n")
	fmt.Fprintf(&b, "// NewTypeConverter returns a type converter for the types of scheme that have apply configurations\n// here, for field-managed fake clientsets (%s).\n",
		"testing.NewFieldManagedObjectTracker")
	fmt.Fprintf(&b, "func NewTypeConverter(scheme *%s) %s {\n\treturn %s(scheme, %s())\n}\n",
		f.Ref(pkgRuntime, "Scheme"), f.Ref(pkgManagedFields, "TypeConverter"),
		f.Ref(pkgManagedFields, "NewSchemeTypeConverter"), f.Ref(path.Join(pkg, "internal"), "Parser"))
	return r.add(f, r.g.cfg.OutputDir, "utils.go", b.String())
}

// internal renders internal/internal.go: the structured-merge-diff schema of the generated types.
func (r *renderer) internal() error {
	pkg := path.Join(r.g.cfg.OutputPkg, "internal")
	f := gofile.New(pkg, "internal")
	yamlText, err := r.schemaYAML()
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Parser returns the structured-merge-diff schema of the types with apply configurations, parsed on\n// first use, which extractors and type converters read.\n")
	fmt.Fprintf(&b, "func Parser() *%s {\n\treturn schema.Parser()\n}\n\n", f.Ref(pkgTyped, "Parser"))
	fmt.Fprintf(&b, "var schema = %s(schemaYAML)\n\n", f.Ref(RuntimePkg, "NewSchema"))
	literal := "`" + yamlText + "`"
	if strings.Contains(yamlText, "`") {
		literal = strconv.Quote(yamlText)
	}
	fmt.Fprintf(&b, "var schemaYAML = %s(%s)\n", f.Ref(pkgTyped, "YAMLObject"), literal)
	return r.add(f, path.Join(r.g.cfg.OutputDir, "internal"), "internal.go", b.String())
}

// missingNames lists the OpenAPI model names of types.
func missingNames(types []*acType) string {
	names := make([]string, len(types))
	for i, a := range types {
		names[i] = openAPIName(a.decl.pkg.path, a.name())
	}
	return strings.Join(names, ", ")
}

// schemaYAML derives the schema of every generated type (and of what they refer to), or reads it from
// --openapi-schema.
func (r *renderer) schemaYAML() (string, error) {
	if r.g.cfg.OpenAPISchema != "" {
		s, missing, err := schemaFromOpenAPI(r.g.cfg.OpenAPISchema, r.g.order)
		if err != nil {
			return "", err
		}
		if len(missing) > 0 {
			r.g.warn(fmt.Sprintf("--openapi-schema %s has no definition named %s (definitions are looked up by OpenAPI model name, not by Go import path); their extractors and type converter treat them as untyped, as code-generator's do", r.g.cfg.OpenAPISchema, missingNames(missing)))
		}
		out, err := marshalSchema(s)
		return string(out), err
	}
	for _, a := range r.g.order {
		if a.client == nil {
			continue
		}
		if _, err := r.g.schema.addNamed(&goType{kind: namedKind, pkg: a.decl.pkg.path, name: a.name()}); err != nil {
			return "", err
		}
	}
	out, err := marshalSchema(r.g.schema.build())
	return string(out), err
}

func sortStrings(s []string) { sort.Strings(s) }
