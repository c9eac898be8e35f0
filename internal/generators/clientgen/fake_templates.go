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
func NewSimpleClientset(objects ...{{id rt.Runtime.Object}}) *Clientset {
	return newClientset({{id rt.Testing.NewObjectTracker}}(scheme, codecs.UniversalDecoder()), objects)
}
{{if .Cfg.ApplyConfigurationPackage}}
// NewClientset returns a fake clientset whose store starts out holding objects and manages fields, so
// that server-side apply behaves in tests as it does on a server.
func NewClientset(objects ...{{id rt.Runtime.Object}}) *Clientset {
	return newClientset({{id rt.Testing.NewFieldManagedObjectTracker}}(scheme, codecs.UniversalDecoder(), {{ref .Cfg.ApplyConfigurationPackage "NewTypeConverter"}}(scheme)), objects)
}
{{end}}
func newClientset(o {{id rt.Testing.ObjectTracker}}, objects []{{id rt.Runtime.Object}}) *Clientset {
	for _, obj := range objects {
		if err := o.Add(obj); err != nil {
			panic(err)
		}
	}
	cs := &Clientset{tracker: o}
	cs.Resources = servedResources()
	cs.discovery = &{{id rt.FakeDiscovery.FakeDiscovery}}{Fake: &cs.Fake}
	cs.AddReactor("*", "*", {{id rt.Testing.ObjectReaction}}(o))
	cs.AddWatchReactor("*", func(action {{id rt.Testing.Action}}) (handled bool, ret {{id rt.Watch.Interface}}, err error) {
		var opts {{id rt.Metav1.ListOptions}}
		if watchAction, ok := action.({{id rt.Testing.WatchActionImpl}}); ok {
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
	{{id rt.Testing.Fake}}
	discovery *{{id rt.FakeDiscovery.FakeDiscovery}}
	tracker   {{id rt.Testing.ObjectTracker}}
}

// Discovery returns a fake discovery client listing the resources this clientset serves.
func (c *Clientset) Discovery() {{id rt.Discovery.DiscoveryInterfaces}} {
	return c.discovery
}

// Tracker returns the object tracker backing the clientset.
func (c *Clientset) Tracker() {{id rt.Testing.ObjectTracker}} {
	return c.tracker
}

// IsWatchListSemanticsUnSupported tells informers whether the tracker cannot serve streaming lists;
// kgen's trackers can, so informers over the fake list the way they do against a server.
func (c *Clientset) IsWatchListSemanticsUnSupported() bool {
	optOut, ok := c.tracker.(interface{ IsWatchListSemanticsUnSupported() bool })
	return !ok || optOut.IsWatchListSemanticsUnSupported()
}

// servedResources lists the resources this clientset serves, for its fake discovery client.
func servedResources() []*{{id rt.Metav1.APIResourceList}} {
	return []*{{id rt.Metav1.APIResourceList}}{
{{- range .Versions}}
		{GroupVersion: {{printf "%q" ($d.GroupVersion .)}}, APIResources: []{{id rt.Metav1.APIResource}}{
{{- range $d.ServedResources .}}
			{Name: {{printf "%q" .Name}}, Kind: {{printf "%q" .Kind}}, Namespaced: {{.Namespaced}}, Verbs: []string{ {{- range $i, $v := .Verbs}}{{if $i}}, {{end}}{{printf "%q" $v}}{{end -}} }},
{{- end}}
		}},
{{- end}}
	}
}

var (
	_ {{ref .Cfg.Pkg "Interface"}} = &Clientset{}
	_ {{id rt.Testing.FakeClient}} = &Clientset{}
)
{{range .Versions}}
// {{.GroupVersionGoName}} returns the fake typed client of version {{.Name}} of the {{if .Group.Name}}{{.Group.Name}}{{else}}core{{end}} group.
func (c *Clientset) {{.GroupVersionGoName}}() {{ref ($d.TypedPkg .) (print .GroupVersionGoName "Interface")}} {
	return &{{ref ($d.FakeTypedPkg .) (print "Fake" .GroupVersionGoName)}}{Fake: &c.Fake}
}
{{end}}
{{end}}

{{define "fakeRegister"}}
var scheme = {{id rt.Runtime.NewScheme}}()
var codecs = {{id rt.Serializer.NewCodecFactory}}(scheme)

var localSchemeBuilder = {{id rt.Runtime.SchemeBuilder}}{
{{- range .Versions}}
	{{ref .PkgPath "AddToScheme"}},
{{- end}}
}

// AddToScheme registers the clientset's types with a scheme.
var AddToScheme = localSchemeBuilder.AddToScheme

func init() {
	{{id rt.Metav1.AddToGroupVersion}}(scheme, {{id rt.Schema.GroupVersion}}{Version: "v1"})
	{{id rt.UtilRuntime.Must}}(AddToScheme(scheme))
}
{{end}}

{{define "fakeTypedDoc"}}
// Package fake provides the fake clientset's typed clients, which record each call as an action.
{{end}}

{{define "fakeGroupClient"}}{{$gv := .V.GroupVersionGoName}}
// Fake{{$gv}} implements {{$gv}}Interface on top of a testing.Fake.
type Fake{{$gv}} struct {
	*{{id rt.Testing.Fake}}
}
{{range .V.Types}}
// {{.Plural}} returns the fake client of {{.Plural}}{{if .Namespaced}} in namespace{{end}}.
func (c *Fake{{$gv}}) {{.Plural}}({{if .Namespaced}}namespace string{{end}}) {{ref $.TypedPkg (print .Name "Interface")}} {
	return newFake{{.Plural}}(c, {{if .Namespaced}}namespace{{else}}""{{end}})
}
{{end}}
// RESTClient returns a nil REST client: the fake answers calls itself and sends no requests.
func (c *Fake{{$gv}}) RESTClient() {{id rt.Rest.Interface}} {
	var ret *{{id rt.Rest.RESTClient}}
	return ret
}
{{end}}

{{define "fakeTypedClient"}}{{$d := .}}{{$t := .T}}{{$obj := ref $t.Version.PkgPath $t.Name}}{{$list := ref $t.Version.PkgPath (print $t.Name "List")}}
// fake{{$t.Plural}} is the {{$t.Name}}Interface of the fake clientset, answered by its reactors.
type fake{{$t.Plural}} struct {
	*{{id .Embed.Fake}}[{{template "typeParams" .}}]
	Fake *Fake{{.V.GroupVersionGoName}}
}

func newFake{{$t.Plural}}(fake *Fake{{.V.GroupVersionGoName}}, namespace string) {{ref .TypedPkg (print $t.Name "Interface")}} {
	return &fake{{$t.Plural}}{
		{{id .Embed.NewFake}}[{{template "typeParams" .}}](
			fake.Fake, namespace,
			{{ref $t.Version.PkgPath "SchemeGroupVersion"}}.WithResource({{quote $t.Resource}}),
			{{ref $t.Version.PkgPath "SchemeGroupVersion"}}.WithKind({{quote $t.Name}}),
			func() *{{$obj}} {
				return &{{$obj}}{}
			},
			{{- if .Embed.List}}
			func() *{{$list}} {
				return &{{$list}}{}
			},
			func(dst, src *{{$list}}) {
				dst.ListMeta = src.ListMeta
			},
			{{- if $t.PointerItems}}
			func(list *{{$list}}) []*{{$obj}} {
				return list.Items
			},
			func(list *{{$list}}, items []*{{$obj}}) {
				list.Items = items
			},
			{{- else}}
			func(list *{{$list}}) []*{{$obj}} {
				return {{id rt.GentypeFake.ToPointerSlice}}(list.Items)
			},
			func(list *{{$list}}, items []*{{$obj}}) {
				list.Items = {{id rt.GentypeFake.FromPointerSlice}}(items)
			},
			{{- end}}
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
	{{- if .X.Subresource}}{{if $ns}}{{id rt.Testing.NewGetSubresourceActionWithOptions}}(c.Resource(), c.Namespace(), {{$sub}}, {{.NameParam}}, options){{else}}{{id rt.Testing.NewRootGetSubresourceActionWithOptions}}(c.Resource(), {{$sub}}, {{.NameParam}}, options){{end}}
	{{- else}}{{if $ns}}{{id rt.Testing.NewGetActionWithOptions}}(c.Resource(), c.Namespace(), name, options){{else}}{{id rt.Testing.NewRootGetActionWithOptions}}(c.Resource(), name, options){{end}}{{end}}
{{- else if eq .X.Verb "list"}}
	{{- if $ns}}{{id rt.Testing.NewListActionWithOptions}}(c.Resource(), c.Kind(), c.Namespace(), opts){{else}}{{id rt.Testing.NewRootListActionWithOptions}}(c.Resource(), c.Kind(), opts){{end}}
{{- else if eq .X.Verb "create"}}
	{{- if .X.Subresource}}{{if $ns}}{{id rt.Testing.NewCreateSubresourceActionWithOptions}}(c.Resource(), {{.NameParam}}, {{$sub}}, c.Namespace(), {{.InParam}}, opts){{else}}{{id rt.Testing.NewRootCreateSubresourceActionWithOptions}}(c.Resource(), {{.NameParam}}, {{$sub}}, {{.InParam}}, opts){{end}}
	{{- else}}{{if $ns}}{{id rt.Testing.NewCreateActionWithOptions}}(c.Resource(), c.Namespace(), {{.InParam}}, opts){{else}}{{id rt.Testing.NewRootCreateActionWithOptions}}(c.Resource(), {{.InParam}}, opts){{end}}{{end}}
{{- else if eq .X.Verb "update"}}
	{{- if .X.Subresource}}{{if $ns}}{{id rt.Testing.NewUpdateSubresourceActionWithOptions}}(c.Resource(), {{$sub}}, c.Namespace(), {{.InParam}}, opts){{else}}{{id rt.Testing.NewRootUpdateSubresourceActionWithOptions}}(c.Resource(), {{$sub}}, {{.InParam}}, opts){{end}}
	{{- else}}{{if $ns}}{{id rt.Testing.NewUpdateActionWithOptions}}(c.Resource(), c.Namespace(), {{.InParam}}, opts){{else}}{{id rt.Testing.NewRootUpdateActionWithOptions}}(c.Resource(), {{.InParam}}, opts){{end}}{{end}}
{{- else if eq .X.Verb "patch"}}
	{{- if $ns}}{{id rt.Testing.NewPatchSubresourceActionWithOptions}}(c.Resource(), c.Namespace(), name, pt, data, opts, subresources...){{else}}{{id rt.Testing.NewRootPatchSubresourceActionWithOptions}}(c.Resource(), name, pt, data, opts, subresources...){{end}}
{{- else if eq .X.Verb "apply"}}
	{{- $name := .NameExpr}}{{if .X.Subresource}}{{if $ns}}{{id rt.Testing.NewPatchSubresourceActionWithOptions}}(c.Resource(), c.Namespace(), {{$name}}, {{id rt.Types.ApplyPatchType}}, data, opts.ToPatchOptions(), {{$sub}}){{else}}{{id rt.Testing.NewRootPatchSubresourceActionWithOptions}}(c.Resource(), {{$name}}, {{id rt.Types.ApplyPatchType}}, data, opts.ToPatchOptions(), {{$sub}}){{end}}
	{{- else}}{{if $ns}}{{id rt.Testing.NewPatchSubresourceActionWithOptions}}(c.Resource(), c.Namespace(), {{$name}}, {{id rt.Types.ApplyPatchType}}, data, opts.ToPatchOptions()){{else}}{{id rt.Testing.NewRootPatchSubresourceActionWithOptions}}(c.Resource(), {{$name}}, {{id rt.Types.ApplyPatchType}}, data, opts.ToPatchOptions()){{end}}{{end}}
{{- end}}{{end}}
`
