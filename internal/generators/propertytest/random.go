package propertytest

import (
	"fmt"
	"math/rand"
	"strings"
)

// Package is one random API package: the files of <group>/<version> and, when it is meant to be refused,
// where and why.
type Package struct {
	// Group and Version name the package directory; Files maps file names to their content.
	Group, Version string
	Files          map[string]string
	// Bad, for a package kgen must refuse, is the text its error must contain, and BadLine the line of
	// types.go it must name: a malformed type tag's own line, the line of the field a malformed field
	// tag is on, or the line of a kind that lacks what its client needs.
	Bad     string
	BadLine int
}

// Externals are the --applyconfig-externals of the built-in types random packages use.
var Externals = []string{
	"k8s.io/api/core/v1.LocalObjectReference:github.com/kgen-dev/kgen/builtin/applyconfigurations/core/v1",
	"k8s.io/api/core/v1.EnvVar:github.com/kgen-dev/kgen/builtin/applyconfigurations/core/v1",
	"k8s.io/api/autoscaling/v1.Scale:github.com/kgen-dev/kgen/builtin/applyconfigurations/autoscaling/v1",
}

// kindNames are the kinds random packages draw from: leading acronyms, irregular plurals and names that
// collide with generated identifiers included.
var kindNames = []string{"Widget", "APIThing", "CSIDriverX", "Policy", "Bus", "Proxy", "Index", "Leaf", "Data", "Status2", "IPPool", "Gadget", "Watch"}

// badTags are malformed tags placed above a kind; kgen's error must name them.
var badTags = []string{
	"+genclient:onlyVerbs=get,frobnicate", "+genclient:nonNamespace", "+genclient=true", "+genclient:skipVerbs=",
	"+genclient:method=getScale,verb=get", "+genclient:method=Frob,verb=frob", "+resourceName=",
}

// badFieldTags are malformed tags placed above a field.
var badFieldTags = []string{"+listType=bogus", "+mapType=bogus", "+structType=bogus"}

// generator writes one package's types.go line by line, so a bad tag's line is known.
type generator struct {
	r       *rand.Rand
	lines   []string
	decls   [][]string // named helper types, appended after the kinds
	names   int
	imports map[string]bool
	kind    string
	badLine int
	bad     string
	// inline counts the inline structs being declared around the current one.
	inline int
}

func (g *generator) line(format string, args ...any) {
	g.lines = append(g.lines, fmt.Sprintf(format, args...))
}

// Random returns the random API package for seed, group g<index>. One package in four is bad: a malformed
// tag or a kind whose client could not build.
func Random(seed int64, index int) Package {
	g := &generator{r: rand.New(rand.NewSource(seed)), imports: map[string]bool{}}
	p := Package{Group: fmt.Sprintf("g%d", index), Version: []string{"v1", "v1beta1", "v2alpha1"}[g.r.Intn(3)]}
	badKind := -1
	if g.r.Intn(4) == 0 {
		badKind = 0
	}
	perm := g.r.Perm(len(kindNames))
	kinds := perm[:1+g.r.Intn(4)]
	for i, k := range kinds {
		g.kindDecl(kindNames[k], i == badKind)
	}
	for _, d := range g.decls {
		g.lines = append(g.lines, d...)
	}

	head := []string{"package " + p.Version, ""}
	if len(g.imports) > 0 {
		head = append(head, "import (")
		for _, imp := range []string{
			`corev1 "k8s.io/api/core/v1"`, `"k8s.io/apimachinery/pkg/api/resource"`, `metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"`,
			`"k8s.io/apimachinery/pkg/runtime"`, `"k8s.io/apimachinery/pkg/util/intstr"`,
		} {
			if g.imports[imp] {
				head = append(head, "\t"+imp)
			}
		}
		head = append(head, ")", "")
	}
	types := append(head, g.lines...)
	if g.bad != "" {
		p.Bad, p.BadLine = g.bad, g.badLine+len(head)
	}
	groupName := p.Group + ".example.com"
	doc := "// +k8s:deepcopy-gen=package\n// +k8s:openapi-gen=true\n// +groupName=" + groupName + "\n"
	if g.r.Intn(3) == 0 {
		doc += "// +groupGoName=" + strings.ToUpper(p.Group[:1]) + p.Group[1:] + "Group\n"
	}
	p.Files = map[string]string{
		"doc.go":   doc + "\n// Package " + p.Version + " is a random API package.\npackage " + p.Version + "\n",
		"types.go": strings.Join(types, "\n") + "\n",
	}
	return p
}

// kindDecl declares a kind and its list; bad makes it one kgen must refuse.
func (g *generator) kindDecl(name string, bad bool) {
	g.kind = name
	g.imports[`metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"`] = true
	// How a bad kind is bad: a malformed type tag, a malformed field tag, or a missing piece.
	how := -1
	if bad {
		how = g.r.Intn(4)
	}
	g.line("// +genclient")
	if g.r.Intn(3) == 0 {
		g.line("// +genclient:nonNamespaced")
	}
	verbs := "all"
	verbChoice := g.r.Intn(6)
	if how == 1 || how >= 0 && verbChoice == 5 {
		// Field tags are read for the schema of apply configurations, which only kinds with apply have;
		// a kind without verbs needs neither metadata nor a list.
		verbChoice = 4
	}
	switch verbChoice {
	case 0:
		g.line("// +genclient:onlyVerbs=get,list,watch,create")
	case 1:
		g.line("// +genclient:skipVerbs=patch,deleteCollection")
	case 2:
		g.line("// +genclient:noStatus")
	case 3:
		g.line("// +genclient:onlyVerbs=get,create")
		verbs = "getcreate"
	case 4:
		if g.r.Intn(3) == 0 {
			// Extension verbs on the scale subresource, with built-in input and result types.
			g.line("// +genclient:method=GetScale,verb=get,subresource=scale,result=k8s.io/api/autoscaling/v1.Scale")
			g.line("// +genclient:method=UpdateScale,verb=update,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale")
			g.line("// +genclient:method=ApplyScale,verb=apply,subresource=scale,input=k8s.io/api/autoscaling/v1.Scale,result=k8s.io/api/autoscaling/v1.Scale")
		}
	case 5:
		g.line("// +genclient:noVerbs")
	}
	if g.r.Intn(4) == 0 {
		g.line("// +resourceName=%ss", strings.ToLower(name)+"thing")
	}
	if how == 0 {
		tag := badTags[g.r.Intn(len(badTags))]
		g.badLine, g.bad = len(g.lines)+1, tag
		g.line("// %s", tag)
	}
	g.line("// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object")
	g.line("")
	g.line("// %s is a random kind.", name)
	typeLine := len(g.lines) + 1
	g.line("type %s struct {", name)
	missingMeta := how == 2
	if missingMeta {
		g.badLine, g.bad = typeLine, "lacks an embedded metav1.ObjectMeta"
	} else {
		g.line("\tmetav1.TypeMeta   `json:\",inline\"`")
		g.line("\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`")
	}
	g.line("")
	g.line("\tSpec %sSpec `json:\"spec\"`", name)
	if g.r.Intn(3) > 0 {
		g.line("\t// +optional")
		g.line("\tStatus %sStatus `json:\"status,omitempty\"`", name)
	}
	g.line("}")
	g.line("")
	if how == 3 && verbs != "getcreate" {
		g.badLine, g.bad = typeLine, "lacks the list type "+name+"List"
	} else {
		g.line("// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object")
		g.line("")
		g.line("// %sList is a list of %s.", name, name)
		g.line("type %sList struct {", name)
		g.line("\tmetav1.TypeMeta `json:\",inline\"`")
		g.line("\tmetav1.ListMeta `json:\"metadata,omitempty\"`")
		if g.r.Intn(5) == 0 {
			g.line("\tItems []*%s `json:\"items\"`", name)
		} else {
			g.line("\tItems []%s `json:\"items\"`", name)
		}
		g.line("}")
		g.line("")
	}
	g.structDecl(name+"Spec", 0, how == 1)
	g.structDecl(name+"Status", 1, false)
}

// structDecl declares a struct of random fields; badField puts a malformed tag above one of them.
func (g *generator) structDecl(name string, depth int, badField bool) {
	var body []string
	n := 1 + g.r.Intn(5)
	badAt := -1
	if badField {
		badAt = g.r.Intn(n)
	}
	// Members of inline structs are named apart from the fields of the structs they are inlined into:
	// encoding/json drops a shadowed member, and crd-gen still requires it (a known disagreement).
	prefix := strings.Repeat("B", g.inline)
	for i := range n {
		field := fmt.Sprintf("%sF%d", prefix, i)
		body = append(body, "")
		// Optional (+optional and omitempty), omitting empty values, required by +required, or required
		// for want of omitempty: the CRD and the OpenAPI definitions must agree on which are required.
		omitEmpty := ",omitempty"
		switch g.r.Intn(6) {
		case 0, 1, 2:
			body = append(body, "\t// +optional")
		case 3:
			body = append(body, "\t// +required")
		case 4:
			omitEmpty = ""
		}
		var typ string
		if i == badAt {
			// A malformed tag above a field of the kind it applies to.
			tag := badFieldTags[g.r.Intn(len(badFieldTags))]
			switch tag {
			case "+listType=bogus":
				typ = "[]string"
			case "+mapType=bogus":
				typ = "map[string]string"
			default:
				typ = g.newName(g.kind + "Nested")
				g.structDecl(typ, depth+1, false)
			}
			body = append(body, "\t// "+tag)
			g.bad = tag
			// The error names the field the tag is on, the next line; resolved once the body is placed.
			g.badLine = -(len(body) + 1)
		} else {
			var tags []string
			typ, tags = g.fieldType(depth)
			body = append(body, tags...)
		}
		body = append(body, fmt.Sprintf("\t%s %s `json:\"%sf%d%s\"`", field, typ, strings.ToLower(prefix), i, omitEmpty))
	}
	if depth > 0 && g.r.Intn(4) == 0 {
		// An embedded helper struct, inlined.
		inner := g.newName(name + "Base")
		g.inline++
		g.structDecl(inner, depth+1, false)
		g.inline--
		body = append(body, "", fmt.Sprintf("\t%s `json:\",inline\"`", inner))
	}
	decl := append([]string{fmt.Sprintf("// %s is a random struct.", name), fmt.Sprintf("type %s struct {", name)}, body...)
	decl = append(decl, "}", "")
	if depth == 0 {
		start := len(g.lines)
		if g.badLine < 0 {
			g.badLine = start + 2 - g.badLine
		}
		g.lines = append(g.lines, decl...)
		return
	}
	g.decls = append(g.decls, decl)
}

func (g *generator) newName(base string) string {
	g.names++
	return fmt.Sprintf("%s%d", base, g.names)
}

// fieldType returns a random field type and the tags that go above the field, declaring helper types
// as needed.
func (g *generator) fieldType(depth int) (string, []string) {
	choices := 16
	if depth >= 3 {
		choices = 8 // no more nesting
	}
	switch g.r.Intn(choices) {
	case 0:
		return "string", nil
	case 1:
		return "*int32", nil
	case 2:
		return "[]string", []string{"\t// +listType=" + []string{"atomic", "set"}[g.r.Intn(2)]}
	case 3:
		return "map[string]string", nil
	case 4:
		g.imports[`metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"`] = true
		return []string{"metav1.Time", "*metav1.Time", "metav1.Duration", "*metav1.LabelSelector", "[]metav1.Condition"}[g.r.Intn(5)], nil
	case 5:
		if g.r.Intn(2) == 0 {
			g.imports[`"k8s.io/apimachinery/pkg/api/resource"`] = true
			return []string{"resource.Quantity", "*resource.Quantity", "map[string]resource.Quantity"}[g.r.Intn(3)], nil
		}
		g.imports[`"k8s.io/apimachinery/pkg/util/intstr"`] = true
		return []string{"intstr.IntOrString", "*intstr.IntOrString"}[g.r.Intn(2)], nil
	case 6:
		g.imports[`corev1 "k8s.io/api/core/v1"`] = true
		return []string{"corev1.LocalObjectReference", "[]corev1.EnvVar", "*corev1.LocalObjectReference"}[g.r.Intn(3)], nil
	case 7:
		return []string{"bool", "int64", "[]byte", "*bool", "[]int32", "float64"}[g.r.Intn(6)], nil
	case 8:
		g.imports[`"k8s.io/apimachinery/pkg/runtime"`] = true
		return []string{"runtime.RawExtension", "*runtime.RawExtension"}[g.r.Intn(2)], nil
	case 9:
		// A named string type.
		name := g.newName(g.kind + "Phase")
		g.decls = append(g.decls, []string{fmt.Sprintf("// %s is a random enumeration.", name), fmt.Sprintf("type %s string", name), ""})
		return name, nil
	case 10:
		// A named slice or map type.
		name := g.newName(g.kind + "Names")
		under := []string{"[]string", "map[string]int32"}[g.r.Intn(2)]
		g.decls = append(g.decls, []string{fmt.Sprintf("// %s is a random named collection.", name), fmt.Sprintf("type %s %s", name, under), ""})
		return name, nil
	case 11:
		name := g.newName(g.kind + "Nested")
		g.structDecl(name, depth+1, false)
		return name, nil
	case 12:
		name := g.newName(g.kind + "Ref")
		g.structDecl(name, depth+1, false)
		return "*" + name, nil
	case 13:
		// A list of structs merged by key.
		name := g.newName(g.kind + "Item")
		g.keyedStruct(name, depth+1)
		// validation-gen's +k8s: spelling, which the CRD and the apply configurations' schema read alike.
		prefix := []string{"+", "+k8s:"}[g.r.Intn(2)]
		return "[]" + name, []string{"\t// " + prefix + "listType=map", "\t// " + prefix + "listMapKey=name"}
	case 14:
		name := g.newName(g.kind + "Value")
		g.structDecl(name, depth+1, false)
		return "map[string]" + name, []string{"\t// +mapType=" + []string{"granular", "atomic"}[g.r.Intn(2)]}
	default:
		name := g.newName(g.kind + "Atomic")
		g.structDecl(name, depth+1, false)
		g.decls[len(g.decls)-1] = append([]string{"// +structType=atomic"}, g.decls[len(g.decls)-1]...)
		return "*" + name, nil
	}
}

// keyedStruct declares a struct with a required name key and random other fields.
func (g *generator) keyedStruct(name string, depth int) {
	decl := []string{fmt.Sprintf("// %s is a random list entry.", name), fmt.Sprintf("type %s struct {", name), "\tName string `json:\"name\"`"}
	for i := range g.r.Intn(3) {
		typ, tags := g.fieldType(depth)
		decl = append(decl, tags...)
		decl = append(decl, fmt.Sprintf("\tV%d %s `json:\"v%d,omitempty\"`", i, typ, i))
	}
	g.decls = append(g.decls, append(decl, "}", ""))
}
