package informergen

const informerTemplates = `
{{define "informer"}}{{$t := .T}}{{$n := $t.Name}}{{$ii := .InternalInterfacesPkg}}{{$obj := ref $t.Version.PkgPath $n}}
{{- $cs := ref .Cfg.VersionedClientsetPackage "Interface"}}{{$lister := ref .ListersPkg (print $n "Lister")}}
{{- $opts := ref $ii "InformerOptions"}}{{$tweak := ref $ii "TweakListOptionsFunc"}}{{$dur := ref "time" "Duration"}}
{{- $nsParam := ""}}{{$nsArg := ""}}{{if $t.Namespaced}}{{$nsParam = "namespace string, "}}{{$nsArg = "namespace, "}}{{end}}
// {{$n}}Informer gives the shared informer of {{$t.Plural}} and a lister reading its cache.
type {{$n}}Informer interface {
	Informer() {{rt "cache.SharedIndexInformer"}}
	Lister() {{$lister}}
}

// Typed{{$n}}Informer adds the typed view of the shared informer.
type Typed{{$n}}Informer interface {
	{{$n}}Informer
	TypedInformer() {{$n}}IndexInformer
}

// {{$n}}IndexInformer is a shared index informer of {{$t.Plural}} with typed handlers and indexes.
type {{$n}}IndexInformer {{rt "cache.TypedSharedIndexInformer"}}[*{{$obj}}]

// {{$n}}HandlerFuncs are typed event handler functions for {{$t.Plural}}.
type {{$n}}HandlerFuncs = {{rt "cache.TypedResourceEventHandlerFuncs"}}[*{{$obj}}]

// {{$n}}DetailedHandlerFuncs are typed event handler functions for {{$t.Plural}} that also learn
// whether an add comes from the initial list.
type {{$n}}DetailedHandlerFuncs = {{rt "cache.TypedResourceEventHandlerDetailedFuncs"}}[*{{$obj}}]

// {{$n}}FilteringHandler passes only the {{$t.Plural}} its filter accepts to a typed handler.
type {{$n}}FilteringHandler = {{rt "cache.TypedFilteringResourceEventHandler"}}[*{{$obj}}]

// {{$n}}Indexers are typed index functions for {{$t.Plural}}.
type {{$n}}Indexers = {{rt "cache.TypedIndexers"}}[*{{$obj}}]

// Deleted{{$n}} is a deleted {{$n}} whose final state may be unknown.
type Deleted{{$n}} = {{rt "cache.DeletedObject"}}[*{{$obj}}]

type {{$t.PrivateName}}Informer struct {
	factory          {{ref $ii "SharedInformerFactory"}}
	tweakListOptions {{$tweak}}
{{- if $t.Namespaced}}
	namespace        string
{{- end}}
}

// New{{$n}}Informer builds an informer of {{$t.Plural}} of its own; a factory's shared one saves memory and connections.
func New{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{rt "cache.Indexers"}}) {{rt "cache.SharedIndexInformer"}} {
	return New{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: indexers})
}

// NewTyped{{$n}}Informer is New{{$n}}Informer with typed indexers and result.
func NewTyped{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{$n}}Indexers) {{$n}}IndexInformer {
	return NewTyped{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: {{rt "cache.TypedIndexersToIndexers"}}(indexers)})
}

// NewFiltered{{$n}}Informer builds an informer of {{$t.Plural}} of its own whose requests tweakListOptions adjusts.
func NewFiltered{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{rt "cache.Indexers"}}, tweakListOptions {{$tweak}}) {{rt "cache.SharedIndexInformer"}} {
	return New{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: indexers, TweakListOptions: tweakListOptions})
}

// NewTypedFiltered{{$n}}Informer is NewFiltered{{$n}}Informer with typed indexers and result.
func NewTypedFiltered{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{$n}}Indexers, tweakListOptions {{$tweak}}) {{$n}}IndexInformer {
	return NewTyped{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: {{rt "cache.TypedIndexersToIndexers"}}(indexers), TweakListOptions: tweakListOptions})
}

// New{{$n}}InformerWithOptions builds an informer of {{$t.Plural}} of its own, configured by options.
func New{{$n}}InformerWithOptions(client {{$cs}}, {{$nsParam}}options {{$opts}}) {{rt "cache.SharedIndexInformer"}} {
	return NewTyped{{$n}}InformerWithOptions(client, {{$nsArg}}options)
}

// NewTyped{{$n}}InformerWithOptions is New{{$n}}InformerWithOptions with a typed result.
func NewTyped{{$n}}InformerWithOptions(client {{$cs}}, {{$nsParam}}options {{$opts}}) {{$n}}IndexInformer {
	c := client.{{$t.Version.GroupVersionGoName}}().{{$t.Plural}}({{if $t.Namespaced}}namespace{{end}})
	gvr := {{ref $t.Version.PkgPath "SchemeGroupVersion"}}.WithResource({{quote $t.Resource}})
	return {{rt "informers.NewTypedInformer"}}(client, &{{$obj}}{}, gvr, options, c.List, c.Watch)
}

func (f *{{$t.PrivateName}}Informer) defaultInformer(client {{$cs}}, resyncPeriod {{$dur}}) {{rt "cache.SharedIndexInformer"}} {
	indexers := {{rt "cache.Indexers"}}{ {{- rt "cache.NamespaceIndex"}}: {{rt "cache.MetaNamespaceIndexFunc"}}}
	return New{{$n}}InformerWithOptions(client, {{if $t.Namespaced}}f.namespace, {{end}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: indexers, InformerName: f.factory.InformerName(), TweakListOptions: f.tweakListOptions})
}

// Informer returns the factory's shared informer for {{$t.Plural}}.
func (f *{{$t.PrivateName}}Informer) Informer() {{rt "cache.SharedIndexInformer"}} {
	return f.factory.InformerFor(&{{$obj}}{}, f.defaultInformer)
}

// TypedInformer returns the typed view of the factory's shared informer for {{$t.Plural}}.
func (f *{{$t.PrivateName}}Informer) TypedInformer() {{$n}}IndexInformer {
	return To{{$n}}IndexInformer(f.Informer())
}

// Lister returns a lister over the shared informer's cache.
func (f *{{$t.PrivateName}}Informer) Lister() {{$lister}} {
	return {{ref .ListersPkg (print "New" $n "Lister")}}(f.Informer().GetIndexer())
}

// ToTyped{{$n}}Informer returns informer with its typed view.
func ToTyped{{$n}}Informer(informer {{$n}}Informer) Typed{{$n}}Informer {
	if typed, ok := informer.(Typed{{$n}}Informer); ok {
		return typed
	}
	return typed{{$n}}Informer{informer}
}

type typed{{$n}}Informer struct{ {{- $n}}Informer }

func (i typed{{$n}}Informer) TypedInformer() {{$n}}IndexInformer { return To{{$n}}IndexInformer(i.Informer()) }

// To{{$n}}IndexInformer returns the typed view of a shared informer of {{$t.Plural}}.
func To{{$n}}IndexInformer(informer {{rt "cache.SharedIndexInformer"}}) {{$n}}IndexInformer {
	if typed, ok := informer.({{$n}}IndexInformer); ok {
		return typed
	}
	return {{rt "cache.NewTypedSharedIndexInformer"}}[*{{$obj}}](informer)
}
{{end}}
`
