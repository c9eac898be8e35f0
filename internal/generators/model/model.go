package model

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// Model is the parsed input API: every group with its versions and their client-generating types.
type Model struct {
	// Groups are ordered by their output directory name.
	Groups []*Group
	// GenclientTags are the file:line of every +genclient line of the input packages, so a run that finds
	// no client type can say where the tags it ignored are.
	GenclientTags []string
}

// Group is one API group, possibly served in several versions.
type Group struct {
	// Name is the API group name ("" for the core group).
	Name string
	// GoName is the CamelCase Go identifier of the group (from +groupGoName or the first DNS label).
	GoName string
	// Dir is the lowercase directory of the group in generated output (the input package's parent directory).
	Dir string
	// Versions are ordered by version name.
	Versions []*Version
}

// PkgName is the Go package name of the group's informer package: Dir up to its first dot, identifier-safe.
func (g *Group) PkgName() string {
	name, _, _ := strings.Cut(g.Dir, ".")
	return goIdentifier(name)
}

// Version is one input package: a group version with its types.
type Version struct {
	// Group is the group this version belongs to.
	Group *Group
	// Name is the version ("v1", "v1beta1").
	Name string
	// PkgPath is the import path of the input types package.
	PkgPath string
	// Dir is the file system directory of the input types package.
	Dir string
	// Types are the +genclient types in name order.
	Types []*Type
	// SkipClient, SkipLister and SkipInformer record the +k8s:<gen>=false package opt-outs.
	SkipClient, SkipLister, SkipInformer bool
}

// GoName is the CamelCase Go identifier of the version ("V1beta1").
func (v *Version) GoName() string { return upperFirst(v.Name) }

// GroupVersionGoName is the identifier joining group and version, used for clientset accessors ("ExampleV1").
func (v *Version) GroupVersionGoName() string { return v.Group.GoName + v.GoName() }

// OutputPath is the relative slash-separated directory of the version's generated listers and informers
// ("example/v1").
func (v *Version) OutputPath() string { return path.Join(v.Group.Dir, v.Name) }

// Type is one +genclient type with everything the generators need to know about it.
type Type struct {
	// Version is the group version the type belongs to.
	Version *Version
	// Name is the Go type name.
	Name string
	// Plural is the public plural Go name ("TestTypes"); PrivatePlural its lower-camel form.
	Plural, PrivatePlural string
	// Resource is the REST resource name (+resourceName or the lowercase plural).
	Resource string
	// Namespaced is false for +genclient:nonNamespaced types.
	Namespaced bool
	// NoVerbs records +genclient:noVerbs.
	NoVerbs bool
	// HasStatus is true when the struct has a Status member and +genclient:noStatus is absent.
	HasStatus bool
	// Verbs are the standard verbs the client offers, in SupportedVerbs order.
	Verbs []string
	// SelectedVerbs are the verbs the verb tags select, ignoring +genclient:noVerbs: code-generator's
	// lister-gen decides by them, so a noVerbs type (such as Eviction) still gets a lister.
	SelectedVerbs []string
	// PointerItems is true when the type's list declares Items []*T (as istio.io/client-go's APIs do)
	// rather than []T.
	PointerItems bool
	// Extensions are the +genclient:method extension methods in tag order.
	Extensions []*Extension
	// Pos is the file:line of the type declaration.
	Pos string
}

// HasVerb reports whether the type's client offers the standard verb.
func (t *Type) HasVerb(verb string) bool {
	for _, v := range t.Verbs {
		if v == verb {
			return true
		}
	}
	return false
}

// Listed reports whether the type gets a lister: its verb tags select get and list, as for code-generator's
// lister-gen, even under +genclient:noVerbs.
func (t *Type) Listed() bool {
	return slices.Contains(t.SelectedVerbs, "get") && slices.Contains(t.SelectedVerbs, "list")
}

// Informed reports whether the type gets an informer: it is listed and its client has the list and watch
// verbs (so never under +genclient:noVerbs).
func (t *Type) Informed() bool { return t.Listed() && t.HasVerb("list") && t.HasVerb("watch") }

// LowerName is the lowercased type name, used for file names.
func (t *Type) LowerName() string { return strings.ToLower(t.Name) }

// PrivateName is the type name with a lowercase first letter ("testType").
func (t *Type) PrivateName() string { return lowerFirst(t.Name) }

// Ref is the type's own Go reference.
func (t *Type) Ref() TypeRef { return TypeRef{Pkg: t.Version.PkgPath, Name: t.Name} }

// Extension is a +genclient:method extension method.
type Extension struct {
	// Method is the Go method name.
	Method string
	// Verb is the verb template used (create, update, get, list, patch, apply).
	Verb string
	// Subresource is the subresource path, empty for the main resource.
	Subresource string
	// Input and Result are the argument and result types.
	Input, Result TypeRef
}

// TypeRef names a Go type by import path and name.
type TypeRef struct {
	// Pkg is the import path; Name the type name.
	Pkg, Name string
}

// Version returns the last path element of the type's package, which for API packages is the version.
func (r TypeRef) Version() string { return path.Base(r.Pkg) }

// GroupDir returns the second-to-last path element of the type's package, which for API packages is the group.
func (r TypeRef) GroupDir() string { return strings.ToLower(path.Base(path.Dir(r.Pkg))) }

// Versions returns every version of every group in output order.
func (m *Model) Versions() []*Version {
	var out []*Version
	for _, g := range m.Groups {
		out = append(out, g.Versions...)
	}
	return out
}

func (m *Model) sort() {
	sort.Slice(m.Groups, func(i, j int) bool { return m.Groups[i].Dir < m.Groups[j].Dir })
	for _, g := range m.Groups {
		sort.Slice(g.Versions, func(i, j int) bool { return g.Versions[i].Name < g.Versions[j].Name })
		for _, v := range g.Versions {
			sort.Slice(v.Types, func(i, j int) bool { return v.Types[i].Name < v.Types[j].Name })
		}
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func goIdentifier(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}
