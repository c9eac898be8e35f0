package clientgen

const typedTemplates = `
{{define "typedDoc"}}
// Package {{.V.Name}} provides the typed clients of version {{.V.Name}} of the {{if .V.Group.Name}}{{.V.Group.Name}}{{else}}core{{end}} group.
{{end}}

{{define "groupClient"}}{{$d := .}}{{$gv := .V.GroupVersionGoName}}
// {{$gv}}Interface has a getter per resource of the group version.
type {{$gv}}Interface interface {
	RESTClient() {{id rt.Rest.Interface}}
{{- range .V.Types}}
	{{.Plural}}Getter
{{- end}}
}

// {{$gv}}Client is the group version's client; its typed clients share its REST client.
type {{$gv}}Client struct {
	restClient {{id rt.Rest.Interface}}
}
{{range .V.Types}}
// {{.Plural}} returns a {{.Name}}Interface{{if .Namespaced}} for the namespace{{end}}.
func (c *{{$gv}}Client) {{.Plural}}({{if .Namespaced}}namespace string{{end}}) {{.Name}}Interface {
	return new{{.Plural}}(c{{if .Namespaced}}, namespace{{end}})
}
{{end}}
// NewForConfig returns a {{$gv}}Client for the server c describes, sending requests through an HTTP client made from c.
func NewForConfig(c *{{id rt.Rest.Config}}) (*{{$gv}}Client, error) {
	config := *c
	setConfigDefaults(&config)
	httpClient, err := {{id rt.Rest.HTTPClientFor}}(&config)
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(&config, httpClient)
}

// NewForConfigAndClient returns a {{$gv}}Client for the server c describes that sends its requests through h.
func NewForConfigAndClient(c *{{id rt.Rest.Config}}, h *{{ref "net/http" "Client"}}) (*{{$gv}}Client, error) {
	config := *c
	setConfigDefaults(&config)
	client, err := {{id rt.Rest.RESTClientForConfigAndClient}}(&config, h)
	if err != nil {
		return nil, err
	}
	return &{{$gv}}Client{client}, nil
}

// NewForConfigOrDie is NewForConfig for callers that cannot go on without the client: it panics on error.
func NewForConfigOrDie(c *{{id rt.Rest.Config}}) *{{$gv}}Client {
	client, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return client
}

// New returns a {{$gv}}Client whose typed clients send their requests through c.
func New(c {{id rt.Rest.Interface}}) *{{$gv}}Client {
	return &{{$gv}}Client{c}
}

func setConfigDefaults(config *{{id rt.Rest.Config}}) {
	gv := {{ref .V.PkgPath "SchemeGroupVersion"}}
	config.GroupVersion = &gv
	config.APIPath = {{quote .APIPath}}
	config.NegotiatedSerializer = {{id rt.Rest.CodecFactoryForGeneratedClient}}({{ref .SchemePkg "Scheme"}}, {{ref .SchemePkg "Codecs"}}).WithoutConversion()
	if config.UserAgent == "" {
		config.UserAgent = {{id rt.Rest.DefaultKubernetesUserAgent}}()
	}
}

// RESTClient returns the REST client that the typed clients send their requests through, nil for a nil client.
func (c *{{$gv}}Client) RESTClient() {{id rt.Rest.Interface}} {
	if c == nil {
		return nil
	}
	return c.restClient
}
{{end}}

{{define "expansion"}}{{$d := .}}
{{- range $t := .V.Types}}{{if $d.NeedsExpansion $t}}
// {{$t.Name}}Expansion is the place for hand-written methods of the {{$t.Name}} client.
type {{$t.Name}}Expansion interface{}
{{end}}{{end}}
{{end}}

{{define "obj"}}*{{ref .T.Version.PkgPath .T.Name}}{{end}}
{{define "list"}}*{{ref .T.Version.PkgPath (print .T.Name "List")}}{{end}}
{{define "ac"}}*{{ref (.ApplyPkg .T.Ref) (print .T.Name "ApplyConfiguration")}}{{end}}
{{define "ctx"}}ctx {{ref "context" "Context"}}{{end}}

{{define "methods"}}{{$d := .}}{{$p := .Param .T.Name}}
{{- range .T.Verbs}}
{{- if eq . "create"}}
	Create({{template "ctx"}}, {{$p}} {{template "obj" $d}}, opts {{id rt.Metav1.CreateOptions}}) ({{template "obj" $d}}, error)
{{- else if eq . "update"}}
	Update({{template "ctx"}}, {{$p}} {{template "obj" $d}}, opts {{id rt.Metav1.UpdateOptions}}) ({{template "obj" $d}}, error)
{{- else if eq . "updateStatus"}}
	// UpdateStatus writes the status subresource only; tag the type +genclient:noStatus to leave it out.
	UpdateStatus({{template "ctx"}}, {{$p}} {{template "obj" $d}}, opts {{id rt.Metav1.UpdateOptions}}) ({{template "obj" $d}}, error)
{{- else if eq . "delete"}}
	Delete({{template "ctx"}}, name string, opts {{id rt.Metav1.DeleteOptions}}) error
{{- else if eq . "deleteCollection"}}
	DeleteCollection({{template "ctx"}}, opts {{id rt.Metav1.DeleteOptions}}, listOpts {{id rt.Metav1.ListOptions}}) error
{{- else if eq . "get"}}
	Get({{template "ctx"}}, name string, opts {{id rt.Metav1.GetOptions}}) ({{template "obj" $d}}, error)
{{- else if eq . "list"}}
	List({{template "ctx"}}, opts {{id rt.Metav1.ListOptions}}) ({{template "list" $d}}, error)
{{- else if eq . "watch"}}
	Watch({{template "ctx"}}, opts {{id rt.Metav1.ListOptions}}) ({{id rt.Watch.Interface}}, error)
{{- else if eq . "patch"}}
	Patch({{template "ctx"}}, name string, pt {{id rt.Types.PatchType}}, data []byte, opts {{id rt.Metav1.PatchOptions}}, subresources ...string) (result {{template "obj" $d}}, err error)
{{- else if eq . "apply"}}
	Apply({{template "ctx"}}, {{$p}} {{template "ac" $d}}, opts {{id rt.Metav1.ApplyOptions}}) (result {{template "obj" $d}}, err error)
{{- else if eq . "applyStatus"}}
	// ApplyStatus applies to the status subresource only; tag the type +genclient:noStatus to leave it out.
	ApplyStatus({{template "ctx"}}, {{$p}} {{template "ac" $d}}, opts {{id rt.Metav1.ApplyOptions}}) (result {{template "obj" $d}}, err error)
{{- end}}
{{- end}}
{{- range .T.Extensions}}
	{{template "extSignature" (ext $d .)}}
{{- end}}{{end}}

{{define "extSignature"}}{{.X.Method}}({{template "ctx"}}, {{if .X.Subresource}}{{if ne .X.Verb "patch"}}{{.NameParam}} string, {{end}}{{end}}
{{- if eq .X.Verb "get"}}{{if not .X.Subresource}}name string, {{end}}options {{id rt.Metav1.GetOptions}}
{{- else if eq .X.Verb "list"}}opts {{id rt.Metav1.ListOptions}}
{{- else if eq .X.Verb "create"}}{{.InParam}} *{{ref .X.Input.Pkg .X.Input.Name}}, opts {{id rt.Metav1.CreateOptions}}
{{- else if eq .X.Verb "update"}}{{.InParam}} *{{ref .X.Input.Pkg .X.Input.Name}}, opts {{id rt.Metav1.UpdateOptions}}
{{- else if eq .X.Verb "patch"}}name string, pt {{id rt.Types.PatchType}}, data []byte, opts {{id rt.Metav1.PatchOptions}}, subresources ...string
{{- else if eq .X.Verb "apply"}}{{.InParam}} *{{ref (.D.ApplyPkg .X.Input) (print .X.Input.Name "ApplyConfiguration")}}, opts {{id rt.Metav1.ApplyOptions}}
{{- end}}) (*{{ref .X.Result.Pkg .ResultName}}, error){{end}}

{{define "typeParams"}}{{template "obj" .}}{{if .Embed.List}}, {{template "list" .}}{{end}}{{if .Embed.Apply}}, {{template "ac" .}}{{end}}{{end}}

{{define "typedClient"}}{{$d := .}}{{$t := .T}}
// {{$t.Plural}}Getter is implemented by the group version's client, which hands out the client of {{$t.Plural}}.
type {{$t.Plural}}Getter interface {
	{{$t.Plural}}({{if $t.Namespaced}}namespace string{{end}}) {{$t.Name}}Interface
}

// {{$t.Name}}Interface is the typed client of {{$t.Plural}}: a method per generated verb, plus {{$t.Name}}Expansion's.
type {{$t.Name}}Interface interface {
{{- template "methods" .}}
	{{$t.Name}}Expansion
}

// {{$t.PrivatePlural}} is {{$t.Name}}Interface over REST.
type {{$t.PrivatePlural}} struct {
	*{{id .Embed.Client}}[{{template "typeParams" .}}]
}

// new{{$t.Plural}} returns the client of {{$t.Plural}}{{if $t.Namespaced}} in namespace{{end}} that sends its requests through c.
func new{{$t.Plural}}(c *{{.V.GroupVersionGoName}}Client{{if $t.Namespaced}}, namespace string{{end}}) *{{$t.PrivatePlural}} {
	return &{{$t.PrivatePlural}}{
		{{id .Embed.New}}[{{template "typeParams" .}}](
			{{quote $t.Resource}}, c.RESTClient(), {{ref .SchemePkg "ParameterCodec"}}, {{if $t.Namespaced}}namespace{{else}}""{{end}},
			func() {{template "obj" .}} {
				return &{{ref $t.Version.PkgPath $t.Name}}{}
			},
			{{- if .Embed.List}}
			func() {{template "list" .}} {
				return &{{ref $t.Version.PkgPath (print $t.Name "List")}}{}
			},
			{{- end}}
			{{- if .Cfg.PrefersProtobuf}}
			{{id rt.Gentype.PrefersProtobuf}}[{{template "obj" .}}](),
			{{- end}}
		),
	}
}
{{range $t.Extensions}}{{template "extBody" (ext $d .)}}{{end}}
{{end}}

{{define "request"}}{{if .D.Cfg.PrefersProtobuf}}.
		UseProtobufAsDefault(){{end}}{{if .D.T.Namespaced}}.
		Namespace(c.GetNamespace()){{end}}.
		Resource({{quote .D.T.Resource}}){{end}}

{{define "applyInput"}}
	if {{.InParam}} == nil {
		return nil, {{ref "fmt" "Errorf"}}("{{.InParam}} provided to {{.X.Method}} must not be nil")
	}
	data, err := {{ref "encoding/json" "Marshal"}}({{.InParam}})
	if err != nil {
		return nil, err
	}
	{{- if not .X.Subresource}}
	name := {{.InParam}}.GetName()
	if name == nil {
		return nil, {{ref "fmt" "Errorf"}}("{{.InParam}}.Name must be provided to {{.X.Method}}")
	}
	{{- end}}
{{- end}}

{{define "extBody"}}
// {{.X.Method}} calls the {{.X.Verb}} verb{{if .X.Subresource}} on the {{.X.Subresource}} subresource{{end}} and returns the server's {{.X.Result.Name}}.
func (c *{{.D.T.PrivatePlural}}) {{template "extSignature" .}} {
{{- if eq .X.Verb "apply"}}{{template "applyInput" .}}
	patchOpts := opts.ToPatchOptions()
{{- end}}
	result := &{{ref .X.Result.Pkg .ResultName}}{}
	err {{if ne .X.Verb "apply"}}:{{end}}= c.GetClient().{{if eq .X.Verb "apply"}}Patch({{id rt.Types.ApplyPatchType}}){{else}}{{.HTTPVerb}}{{end}}{{template "request" .}}
	{{- if .NameExpr}}.
		Name({{.NameExpr}}){{end}}
	{{- if eq .X.Verb "patch"}}.
		SubResource(subresources...){{else if .X.Subresource}}.
		SubResource({{quote .X.Subresource}}){{end}}.
		VersionedParams(&{{.OptsVar}}, {{ref .D.SchemePkg "ParameterCodec"}}){{if .Body}}.
		Body({{.Body}}){{end}}.
		Do(ctx).
		Into(result)
	return result, err
}
{{end}}
`
