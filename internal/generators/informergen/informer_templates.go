package informergen

const informerTemplates = `
{{define "informer"}}{{$t := .T}}{{$n := $t.Name}}{{$ii := .InternalInterfacesPkg}}{{$obj := ref $t.Version.PkgPath $n}}
{{- $cs := ref .Cfg.VersionedClientsetPackage "Interface"}}{{$lister := ref .ListersPkg (print $n "Lister")}}
{{- $opts := ref $ii "InformerOptions"}}{{$tweak := ref $ii "TweakListOptionsFunc"}}{{$dur := ref "time" "Duration"}}
{{- $nsParam := ""}}{{$nsArg := ""}}{{if $t.Namespaced}}{{$nsParam = "namespace string, "}}{{$nsArg = "namespace, "}}{{end}}
// {{$n}}Informer gives the shared informer of {{$t.Plural}} and a lister reading its cache.
type {{$n}}Informer interface {
	Informer() {{id rt.Cache.SharedIndexInformer}}
	Lister() {{$lister}}
}

// Typed{{$n}}Informer adds the typed view of the shared informer.
type Typed{{$n}}Informer interface {
	{{$n}}Informer
	TypedInformer() {{$n}}IndexInformer
}

// Typed views, event handlers, index functions and tombstones of {{$t.Plural}}.
type (
	// {{$n}}IndexInformer is a shared index informer of {{$t.Plural}} with typed handlers and indexes.
	{{$n}}IndexInformer {{id rt.Cache.TypedSharedIndexInformer}}[*{{$obj}}]
	// {{$n}}HandlerFuncs are typed event handler functions for {{$t.Plural}}.
	{{$n}}HandlerFuncs = {{id rt.Cache.TypedResourceEventHandlerFuncs}}[*{{$obj}}]
	// {{$n}}DetailedHandlerFuncs also learn whether an add comes from the initial list.
	{{$n}}DetailedHandlerFuncs = {{id rt.Cache.TypedResourceEventHandlerDetailedFuncs}}[*{{$obj}}]
	// {{$n}}FilteringHandler passes only the {{$t.Plural}} its filter accepts to a typed handler.
	{{$n}}FilteringHandler = {{id rt.Cache.TypedFilteringResourceEventHandler}}[*{{$obj}}]
	// {{$n}}Indexers are typed index functions for {{$t.Plural}}.
	{{$n}}Indexers = {{id rt.Cache.TypedIndexers}}[*{{$obj}}]
	// Deleted{{$n}} is a deleted {{$n}} whose final state may be unknown.
	Deleted{{$n}} = {{id rt.Cache.DeletedObject}}[*{{$obj}}]
)

// New{{$n}}Informer builds an informer of {{$t.Plural}} of its own; a factory's shared one saves memory and connections.
func New{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{id rt.Cache.Indexers}}) {{id rt.Cache.SharedIndexInformer}} {
	return New{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: indexers})
}

// NewTyped{{$n}}Informer is New{{$n}}Informer with typed indexers and result.
func NewTyped{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{$n}}Indexers) {{$n}}IndexInformer {
	return NewTyped{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: {{id rt.Cache.TypedIndexersToIndexers}}(indexers)})
}

// NewFiltered{{$n}}Informer builds an informer of {{$t.Plural}} of its own whose requests tweakListOptions adjusts.
func NewFiltered{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{id rt.Cache.Indexers}}, tweakListOptions {{$tweak}}) {{id rt.Cache.SharedIndexInformer}} {
	return New{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: indexers, TweakListOptions: tweakListOptions})
}

// NewTypedFiltered{{$n}}Informer is NewFiltered{{$n}}Informer with typed indexers and result.
func NewTypedFiltered{{$n}}Informer(client {{$cs}}, {{$nsParam}}resyncPeriod {{$dur}}, indexers {{$n}}Indexers, tweakListOptions {{$tweak}}) {{$n}}IndexInformer {
	return NewTyped{{$n}}InformerWithOptions(client, {{$nsArg}}{{$opts}}{ResyncPeriod: resyncPeriod, Indexers: {{id rt.Cache.TypedIndexersToIndexers}}(indexers), TweakListOptions: tweakListOptions})
}

// New{{$n}}InformerWithOptions builds an informer of {{$t.Plural}} of its own, configured by options.
func New{{$n}}InformerWithOptions(client {{$cs}}, {{$nsParam}}options {{$opts}}) {{id rt.Cache.SharedIndexInformer}} {
	return NewTyped{{$n}}InformerWithOptions(client, {{$nsArg}}options)
}

// NewTyped{{$n}}InformerWithOptions is New{{$n}}InformerWithOptions with a typed result.
func NewTyped{{$n}}InformerWithOptions(client {{$cs}}, {{$nsParam}}options {{$opts}}) {{$n}}IndexInformer {
	c := client.{{$t.Version.GroupVersionGoName}}().{{$t.Plural}}({{if $t.Namespaced}}namespace{{end}})
	return {{id rt.Informers.NewTypedInformer}}(client, &{{$obj}}{}, {{ref $t.Version.PkgPath "SchemeGroupVersion"}}.WithResource({{quote $t.Resource}}), options, c.List, c.Watch)
}

// ToTyped{{$n}}Informer returns informer with its typed view.
func ToTyped{{$n}}Informer(informer {{$n}}Informer) Typed{{$n}}Informer {
	return {{id rt.Informers.WithTypedView}}(informer, To{{$n}}IndexInformer)
}

// To{{$n}}IndexInformer returns the typed view of a shared informer of {{$t.Plural}}.
func To{{$n}}IndexInformer(informer {{id rt.Cache.SharedIndexInformer}}) {{$n}}IndexInformer {
	return {{id rt.Informers.TypedView}}[*{{$obj}}](informer)
}
{{end}}
`
