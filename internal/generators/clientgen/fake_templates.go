package clientgen

const fakeTemplates = `
{{define "fakeDoc"}}
// Package fake provides an in-memory clientset for unit tests.
{{end}}

{{define "fakeClientset"}}{{$d := .}}
// NewSimpleClientset returns a fake clientset whose store starts out holding objects. The store follows
// the API server's rules for resourceVersions, conflicts, generateName, finalizers and watches, but does
// no field management, admission or defaulting.
{{- if .Cfg.ApplyConfigurationPackage}}
//
// Deprecated: use NewClientset, whose field management lets tests rely on server-side apply.
{{- end}}
func NewSimpleClientset(objects ...{{rt "runtime.Object"}}) *Clientset {
	return newClientset({{rt "testing.NewObjectTracker"}}(scheme, codecs.UniversalDecoder()), objects)
}
{{if .Cfg.ApplyConfigurationPackage}}
// NewClientset returns a fake clientset whose store starts out holding objects and manages fields, so
// that server-side apply behaves in tests as it does on a server.
func NewClientset(objects ...{{rt "runtime.Object"}}) *Clientset {
	return newClientset({{rt "testing.NewFieldManagedObjectTracker"}}(scheme, codecs.UniversalDecoder(), {{ref .Cfg.ApplyConfigurationPackage "NewTypeConverter"}}(scheme)), objects)
}
{{end}}
func newClientset(o {{rt "testing.ObjectTracker"}}, objects []{{rt "runtime.Object"}}) *Clientset {
	for _, obj := range objects {
		if err := o.Add(obj); err != nil {
			panic(err)
		}
	}
	cs := &Clientset{tracker: o}
	cs.Resources = servedResources()
	cs.discovery = &{{rt "fakediscovery.FakeDiscovery"}}{Fake: &cs.Fake}
	cs.AddReactor("*", "*", {{rt "testing.ObjectReaction"}}(o))
	cs.AddWatchReactor("*", func(action {{rt "testing.Action"}}) (handled bool, ret {{rt "watch.Interface"}}, err error) {
		var opts {{rt "metav1.ListOptions"}}
		if watchAction, ok := action.({{rt "testing.WatchActionImpl"}}); ok {
			opts = watchAction.ListOptions
		}
		gvr := action.GetResource()
		ns := action.GetNamespace()
		watch, err := o.Watch(gvr, ns, opts)
		if err != nil {
			return false, nil, err
		}
		return true, watch, nil
	})
	return cs
}

// Clientset implements the generated clientset Interface on top of an object tracker. Reactors added to
// its embedded Fake customise responses.
type Clientset struct {
	{{rt "testing.Fake"}}
	discovery *{{rt "fakediscovery.FakeDiscovery"}}
	tracker   {{rt "testing.ObjectTracker"}}
}

// Discovery returns a fake discovery client listing the resources this clientset serves.
func (c *Clientset) Discovery() {{rt "discovery.DiscoveryInterfaces"}} {
	return c.discovery
}

// Tracker returns the object tracker backing the clientset.
func (c *Clientset) Tracker() {{rt "testing.ObjectTracker"}} {
	return c.tracker
}

// IsWatchListSemanticsUnSupported tells informers whether the tracker cannot serve streaming lists;
// kgen's trackers can, so informers over the fake list the way they do against a server.
func (c *Clientset) IsWatchListSemanticsUnSupported() bool {
	optOut, ok := c.tracker.(interface{ IsWatchListSemanticsUnSupported() bool })
	return !ok || optOut.IsWatchListSemanticsUnSupported()
}

// servedResources lists the resources this clientset serves, for its fake discovery client.
func servedResources() []*{{rt "metav1.APIResourceList"}} {
	return []*{{rt "metav1.APIResourceList"}}{
{{- range .Versions}}
		{GroupVersion: {{printf "%q" ($d.GroupVersion .)}}, APIResources: []{{rt "metav1.APIResource"}}{
{{- range $d.ServedResources .}}
			{Name: {{printf "%q" .Name}}, Kind: {{printf "%q" .Kind}}, Namespaced: {{.Namespaced}}, Verbs: []string{ {{- range $i, $v := .Verbs}}{{if $i}}, {{end}}{{printf "%q" $v}}{{end -}} }},
{{- end}}
		}},
{{- end}}
	}
}

var (
	_ {{ref .Cfg.Pkg "Interface"}} = &Clientset{}
	_ {{rt "testing.FakeClient"}} = &Clientset{}
)
{{range .Versions}}
// {{.GroupVersionGoName}} returns the fake typed client of version {{.Name}} of the {{if .Group.Name}}{{.Group.Name}}{{else}}core{{end}} group.
func (c *Clientset) {{.GroupVersionGoName}}() {{ref ($d.TypedPkg .) (print .GroupVersionGoName "Interface")}} {
	return &{{ref ($d.FakeTypedPkg .) (print "Fake" .GroupVersionGoName)}}{Fake: &c.Fake}
}
{{end}}
{{end}}

{{define "fakeRegister"}}
var scheme = {{rt "runtime.NewScheme"}}()
var codecs = {{rt "serializer.NewCodecFactory"}}(scheme)

var localSchemeBuilder = {{rt "runtime.SchemeBuilder"}}{
{{- range .Versions}}
	{{ref .PkgPath "AddToScheme"}},
{{- end}}
}

// AddToScheme registers the clientset's types with a scheme.
var AddToScheme = localSchemeBuilder.AddToScheme

func init() {
	{{rt "metav1.AddToGroupVersion"}}(scheme, {{rt "schema.GroupVersion"}}{Version: "v1"})
	{{rt "utilruntime.Must"}}(AddToScheme(scheme))
}
{{end}}

{{define "fakeTypedDoc"}}
// Package fake provides the fake clientset's typed clients, which record each call as an action.
{{end}}

{{define "fakeGroupClient"}}{{$gv := .V.GroupVersionGoName}}
// Fake{{$gv}} implements {{$gv}}Interface on top of a testing.Fake.
type Fake{{$gv}} struct {
	*{{rt "testing.Fake"}}
}
{{range .V.Types}}
// {{.Plural}} returns the fake client of {{.Plural}}{{if .Namespaced}} in namespace{{end}}.
func (c *Fake{{$gv}}) {{.Plural}}({{if .Namespaced}}namespace string{{end}}) {{ref $.TypedPkg (print .Name "Interface")}} {
	return newFake{{.Plural}}(c, {{if .Namespaced}}namespace{{else}}""{{end}})
}
{{end}}
// RESTClient returns a nil REST client: the fake answers calls itself and sends no requests.
func (c *Fake{{$gv}}) RESTClient() {{rt "rest.Interface"}} {
	var ret *{{rt "rest.RESTClient"}}
	return ret
}
{{end}}

{{define "fakeTypedClient"}}{{$d := .}}{{$t := .T}}{{$obj := ref $t.Version.PkgPath $t.Name}}{{$list := ref $t.Version.PkgPath (print $t.Name "List")}}
// fake{{$t.Plural}} is the {{$t.Name}}Interface of the fake clientset, answered by its reactors.
type fake{{$t.Plural}} struct {
	*{{rt (print "gentype.Fake" .Embed)}}[{{template "typeParams" .}}]
	Fake *Fake{{.V.GroupVersionGoName}}
}

func newFake{{$t.Plural}}(fake *Fake{{.V.GroupVersionGoName}}, namespace string) {{ref .TypedPkg (print $t.Name "Interface")}} {
	return &fake{{$t.Plural}}{
		{{rt (print "gentype.NewFake" .Embed)}}[{{template "typeParams" .}}](
			fake.Fake, namespace,
			{{ref $t.Version.PkgPath "SchemeGroupVersion"}}.WithResource({{quote $t.Resource}}),
			{{ref $t.Version.PkgPath "SchemeGroupVersion"}}.WithKind({{quote $t.Name}}),
			func() *{{$obj}} { return &{{$obj}}{} },
			{{- if .HasList}}
			func() *{{$list}} { return &{{$list}}{} },
			func(dst, src *{{$list}}) { dst.ListMeta = src.ListMeta },
			func(list *{{$list}}) []*{{$obj}} { return {{rt "gentype.ToPointerSlice"}}(list.Items) },
			func(list *{{$list}}, items []*{{$obj}}) { list.Items = {{rt "gentype.FromPointerSlice"}}(items) },
			{{- end}}
		),
		fake,
	}
}
{{range $t.Extensions}}{{template "fakeExtBody" (ext $d .)}}{{end}}
{{end}}

{{define "fakeExtBody"}}{{$ns := .D.T.Namespaced}}{{$root := ""}}{{if not $ns}}{{$root = "Root"}}{{end}}
// {{.X.Method}} records the {{.X.Verb}} action{{if .X.Subresource}} on the {{.X.Subresource}} subresource{{end}} and returns the reactors' {{.X.Result.Name}}.
func (c *fake{{.D.T.Plural}}) {{template "extSignature" .}} {
{{- if eq .X.Verb "apply"}}{{template "applyInput" .}}
{{- end}}
	emptyResult := &{{ref .X.Result.Pkg .ResultName}}{}
	obj, err := c.Fake.Invokes({{template "fakeAction" .}}, emptyResult)
	if obj == nil {
		return emptyResult, err
	}
	return obj.(*{{ref .X.Result.Pkg .ResultName}}), err
}
{{end}}

{{define "fakeAction"}}{{$ns := .D.T.Namespaced}}{{$sub := quote .X.Subresource}}
{{- if eq .X.Verb "get"}}
	{{- if .X.Subresource}}{{if $ns}}{{rtt "NewGetSubresourceActionWithOptions"}}(c.Resource(), c.Namespace(), {{$sub}}, {{.NameParam}}, options){{else}}{{rtt "NewRootGetSubresourceActionWithOptions"}}(c.Resource(), {{$sub}}, {{.NameParam}}, options){{end}}
	{{- else}}{{if $ns}}{{rtt "NewGetActionWithOptions"}}(c.Resource(), c.Namespace(), name, options){{else}}{{rtt "NewRootGetActionWithOptions"}}(c.Resource(), name, options){{end}}{{end}}
{{- else if eq .X.Verb "list"}}
	{{- if $ns}}{{rtt "NewListActionWithOptions"}}(c.Resource(), c.Kind(), c.Namespace(), opts){{else}}{{rtt "NewRootListActionWithOptions"}}(c.Resource(), c.Kind(), opts){{end}}
{{- else if eq .X.Verb "create"}}
	{{- if .X.Subresource}}{{if $ns}}{{rtt "NewCreateSubresourceActionWithOptions"}}(c.Resource(), {{.NameParam}}, {{$sub}}, c.Namespace(), {{.InParam}}, opts){{else}}{{rtt "NewRootCreateSubresourceActionWithOptions"}}(c.Resource(), {{.NameParam}}, {{$sub}}, {{.InParam}}, opts){{end}}
	{{- else}}{{if $ns}}{{rtt "NewCreateActionWithOptions"}}(c.Resource(), c.Namespace(), {{.InParam}}, opts){{else}}{{rtt "NewRootCreateActionWithOptions"}}(c.Resource(), {{.InParam}}, opts){{end}}{{end}}
{{- else if eq .X.Verb "update"}}
	{{- if .X.Subresource}}{{if $ns}}{{rtt "NewUpdateSubresourceActionWithOptions"}}(c.Resource(), {{$sub}}, c.Namespace(), {{.InParam}}, opts){{else}}{{rtt "NewRootUpdateSubresourceActionWithOptions"}}(c.Resource(), {{$sub}}, {{.InParam}}, opts){{end}}
	{{- else}}{{if $ns}}{{rtt "NewUpdateActionWithOptions"}}(c.Resource(), c.Namespace(), {{.InParam}}, opts){{else}}{{rtt "NewRootUpdateActionWithOptions"}}(c.Resource(), {{.InParam}}, opts){{end}}{{end}}
{{- else if eq .X.Verb "patch"}}
	{{- if $ns}}{{rtt "NewPatchSubresourceActionWithOptions"}}(c.Resource(), c.Namespace(), name, pt, data, opts, subresources...){{else}}{{rtt "NewRootPatchSubresourceActionWithOptions"}}(c.Resource(), name, pt, data, opts, subresources...){{end}}
{{- else if eq .X.Verb "apply"}}
	{{- $name := .NameExpr}}{{if .X.Subresource}}{{if $ns}}{{rtt "NewPatchSubresourceActionWithOptions"}}(c.Resource(), c.Namespace(), {{$name}}, {{rt "types.ApplyPatchType"}}, data, opts.ToPatchOptions(), {{$sub}}){{else}}{{rtt "NewRootPatchSubresourceActionWithOptions"}}(c.Resource(), {{$name}}, {{rt "types.ApplyPatchType"}}, data, opts.ToPatchOptions(), {{$sub}}){{end}}
	{{- else}}{{if $ns}}{{rtt "NewPatchSubresourceActionWithOptions"}}(c.Resource(), c.Namespace(), {{$name}}, {{rt "types.ApplyPatchType"}}, data, opts.ToPatchOptions()){{else}}{{rtt "NewRootPatchSubresourceActionWithOptions"}}(c.Resource(), {{$name}}, {{rt "types.ApplyPatchType"}}, data, opts.ToPatchOptions()){{end}}{{end}}
{{- end}}{{end}}
`
