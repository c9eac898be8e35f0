package informergen

const factoryTemplates = `
{{define "internalInterfaces"}}
// NewInformerFunc builds the informer of one type from the clientset and the type's resync period.
type NewInformerFunc func({{ref .Cfg.VersionedClientsetPackage "Interface"}}, {{ref "time" "Duration"}}) {{id rt.Cache.SharedIndexInformer}}

// SharedInformerFactory is what per-type informers need from the factory.
type SharedInformerFactory interface {
	Start(stopCh <-chan struct{})
	InformerFor(obj {{id rt.Runtime.Object}}, newFunc NewInformerFunc) {{id rt.Cache.SharedIndexInformer}}
	InformerName() *{{id rt.Cache.InformerName}}
}

// TweakListOptionsFunc adjusts the options of every list and watch request an informer sends.
type TweakListOptionsFunc = {{id rt.Informers.TweakListOptionsFunc}}

// InformerOptions configures an informer built without a factory: resync, indexes, request options, metrics name.
type InformerOptions = {{id rt.Informers.InformerOptions}}
{{end}}

{{define "factory"}}{{$ii := .InternalInterfacesPkg}}{{$cs := ref .Cfg.VersionedClientsetPackage "Interface"}}
// SharedInformerOption configures a SharedInformerFactory.
type SharedInformerOption func(*sharedInformerFactory) *sharedInformerFactory

// WithCustomResyncConfig gives the listed object types their own resync period instead of the factory's default.
func WithCustomResyncConfig(resyncConfig map[{{id rt.Metav1.Object}}]{{ref "time" "Duration"}}) SharedInformerOption {
	return option({{id rt.Informers.WithCustomResyncConfig}}(resyncConfig))
}

// WithTweakListOptions adjusts the list and watch requests of every informer of the factory, e.g. to select by label.
func WithTweakListOptions(tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) SharedInformerOption {
	return option({{id rt.Informers.WithTweakListOptions}}(tweakListOptions))
}

// WithNamespace makes the factory's namespaced informers see a single namespace only.
func WithNamespace(namespace string) SharedInformerOption {
	return option({{id rt.Informers.WithNamespace}}(namespace))
}

// WithTransform makes every informer of the factory pass objects through transform before caching them,
// after dropping their managedFields (see WithKeepManagedFields).
func WithTransform(transform {{id rt.Cache.TransformFunc}}) SharedInformerOption {
	return option({{id rt.Informers.WithTransform}}(transform))
}

// WithKeepManagedFields(true) makes the factory's informers keep metadata.managedFields in cached objects,
// which they drop by default; code that needs managed fields reads objects from the server.
func WithKeepManagedFields(keep bool) SharedInformerOption {
	return option({{id rt.Informers.WithKeepManagedFields}}(keep))
}

// WithDisableSharing(true) makes the factory's informers cache objects as they were decoded. By default
// they share one copy of equal parts of cached objects (label maps, resource lists, probes, strings),
// which saves much of a cache's memory. Cached objects are read-only; modify a DeepCopy.
func WithDisableSharing(disable bool) SharedInformerOption {
	return option({{id rt.Informers.WithDisableSharing}}(disable))
}

// WithShardSelector makes the factory's informers list, watch and cache only the objects shardSelector
// selects: the server filters when it supports sharded lists and watches, the informers otherwise.
func WithShardSelector(shardSelector {{id rt.Sharding.Selector}}) SharedInformerOption {
	return option({{id rt.Informers.WithShardSelector}}(shardSelector))
}

// WithInformerName names the factory's informers in metrics (see cache.NewInformerName).
func WithInformerName(informerName *{{id rt.Cache.InformerName}}) SharedInformerOption {
	return option({{id rt.Informers.WithInformerName}}(informerName))
}

// option applies a runtime/informers option to the factory's shared informer plumbing.
func option(o {{id rt.Informers.FactoryOption}}) SharedInformerOption {
	return func(f *sharedInformerFactory) *sharedInformerFactory {
		o(f.Factory)
		return f
	}
}

type sharedInformerFactory struct {
	*{{id rt.Informers.Factory}}
	client {{$cs}}
}

// NewSharedInformerFactory returns a factory over all namespaces whose informers resync every defaultResync.
func NewSharedInformerFactory(client {{$cs}}, defaultResync {{ref "time" "Duration"}}) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync)
}

// NewFilteredSharedInformerFactory returns a factory limited to namespace whose requests tweakListOptions adjusts.
//
// Deprecated: use NewSharedInformerFactoryWithOptions with WithNamespace and WithTweakListOptions.
func NewFilteredSharedInformerFactory(client {{$cs}}, defaultResync {{ref "time" "Duration"}}, namespace string, tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync, WithNamespace(namespace), WithTweakListOptions(tweakListOptions))
}

// NewSharedInformerFactoryWithOptions returns a factory resyncing every defaultResync and configured by options.
func NewSharedInformerFactoryWithOptions(client {{$cs}}, defaultResync {{ref "time" "Duration"}}, options ...SharedInformerOption) SharedInformerFactory {
	f := &sharedInformerFactory{Factory: {{id rt.Informers.NewFactory}}(defaultResync), client: client}
	for _, o := range options {
		f = o(f)
	}
	return f
}

// InformerFor hands out the one informer of obj's type, made by newFunc with the factory's client on first request.
func (f *sharedInformerFactory) InformerFor(obj {{id rt.Runtime.Object}}, newFunc {{ref $ii "NewInformerFunc"}}) {{id rt.Cache.SharedIndexInformer}} {
	return f.Factory.InformerFor(obj, func(resync {{ref "time" "Duration"}}) {{id rt.Cache.SharedIndexInformer}} {
		return newFunc(f.client, resync)
	})
}

// SharedInformerFactory shares one informer per resource type of the clientset's group versions among
// all its users, so that each type is listed and watched once, and runs those informers together:
//
//	factory := NewSharedInformerFactory(client, 10*time.Minute)
//	defer factory.Shutdown() // stops the started informers and waits for them
//	lister := factory.SomeGroup().V1().SomeTypes().Lister()
//	factory.Start(ctx.Done())
//	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
//		if !ok {
//			return fmt.Errorf("%v did not sync", typ)
//		}
//	}
//
// Informers requested after Start run once Start is called again.
type SharedInformerFactory interface {
	{{ref $ii "SharedInformerFactory"}}

	// StartWithContext runs the requested informers that are not running yet, without blocking, until
	// ctx ends or Shutdown is called.
	StartWithContext(ctx {{ref "context" "Context"}})

	// Shutdown stops the started informers, makes later Start calls do nothing and waits for every informer to return.
	Shutdown()

	// WaitForCacheSync waits until the started informers have filled their caches, or stopCh closes,
	// and tells for each type whether it got there.
	WaitForCacheSync(stopCh <-chan struct{}) map[{{ref "reflect" "Type"}}]bool

	// WaitForCacheSyncWithContext is WaitForCacheSync bounded by ctx rather than a stop channel.
	WaitForCacheSyncWithContext(ctx {{ref "context" "Context"}}) {{id rt.Cache.SyncResult}}

	// ForResource returns the informer of a resource named by group, version and resource, for code
	// that does not know the resource's Go type.
	ForResource(resource {{id rt.Schema.GroupVersionResource}}) (GenericInformer, error)
{{range .Groups}}
	{{.G.GoName}}() {{ref .Pkg "Interface"}}
{{- end}}
}
{{range .Groups}}
// {{.G.GoName}} returns the informers of the {{.G.Name}} group.
func (f *sharedInformerFactory) {{.G.GoName}}() {{ref .Pkg "Interface"}} {
	return {{ref .Pkg "New"}}(f, f.Namespace(), f.TweakListOptions())
}
{{end}}
{{end}}

{{define "generic"}}
// GenericInformer is a resource's shared informer and lister seen through runtime.Object, for code
// that works with resources of any type.
type GenericInformer interface {
	Informer() {{id rt.Cache.SharedIndexInformer}}
	Lister() {{id rt.Cache.GenericLister}}
}

type genericInformer struct {
	informer {{id rt.Cache.SharedIndexInformer}}
	resource {{id rt.Schema.GroupResource}}
}

// Informer returns the resource's shared informer.
func (f *genericInformer) Informer() {{id rt.Cache.SharedIndexInformer}} {
	return f.informer
}

// Lister returns an untyped lister reading the informer's cache.
func (f *genericInformer) Lister() {{id rt.Cache.GenericLister}} {
	return {{id rt.Cache.NewGenericLister}}(f.Informer().GetIndexer(), f.resource)
}

// ForResource finds the informer of resource among the factory's group versions; other resources are an error.
func (f *sharedInformerFactory) ForResource(resource {{id rt.Schema.GroupVersionResource}}) (GenericInformer, error) {
	switch resource {
{{- range $g := .Groups}}{{range $v := .Versions}}
	// informers of {{$v.V.GroupVersionGoName}}
{{- range $v.Types}}
	case {{ref $v.V.PkgPath "SchemeGroupVersion"}}.WithResource({{quote .Resource}}):
		return &genericInformer{resource: resource.GroupResource(), informer: f.{{$g.G.GoName}}().{{$v.V.GoName}}().{{.Plural}}().Informer()}, nil
{{- end}}
{{end}}{{end}}
	}
	return nil, {{ref "fmt" "Errorf"}}("no informer found for %v", resource)
}
{{end}}

{{define "groupInterface"}}{{$ii := .InternalInterfacesPkg}}
// Interface returns the informers of the group, version by version.
type Interface interface {
{{- range .Versions}}
	// {{.V.GoName}} returns the group's {{.V.Name}} informers.
	{{.V.GoName}}() {{ref .Pkg "Interface"}}
{{- end}}
}

type group struct {
	factory          {{ref $ii "SharedInformerFactory"}}
	namespace        string
	tweakListOptions {{ref $ii "TweakListOptionsFunc"}}
}

// New returns the group's informers as shared by f, limited to namespace and adjusted by tweakListOptions.
func New(f {{ref $ii "SharedInformerFactory"}}, namespace string, tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) Interface {
	return &group{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}
{{range .Versions}}
// {{.V.GoName}} returns the group's {{.V.Name}} informers.
func (g *group) {{.V.GoName}}() {{ref .Pkg "Interface"}} {
	return {{ref .Pkg "New"}}(g.factory, g.namespace, g.tweakListOptions)
}
{{end}}
{{end}}

{{define "versionInterface"}}{{$ii := .InternalInterfacesPkg}}
// Interface returns the informers of the group version, resource by resource.
type Interface interface {
{{- range .Types}}
	// {{.Plural}} returns the shared informer and lister of {{.Plural}}.
	{{.Plural}}() Typed{{.Name}}Informer
{{- end}}
}

type version struct {
	factory          {{ref $ii "SharedInformerFactory"}}
	namespace        string
	tweakListOptions {{ref $ii "TweakListOptionsFunc"}}
}

// New returns the version's informers as shared by f, limited to namespace and adjusted by tweakListOptions.
func New(f {{ref $ii "SharedInformerFactory"}}, namespace string, tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) Interface {
	return &version{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}
{{range .Types}}
// {{.Plural}} returns the shared informer and lister of {{.Plural}}.
func (v *version) {{.Plural}}() Typed{{.Name}}Informer {
	return {{id rt.Informers.NewShared}}(v.factory, &{{ref .Version.PkgPath .Name}}{}, v.tweakListOptions, {{if .Namespaced}}{{id rt.Informers.InNamespace}}(NewTyped{{.Name}}InformerWithOptions, v.namespace){{else}}NewTyped{{.Name}}InformerWithOptions{{end}},
		{{ref $.ListersPkg (print "New" .Name "Lister")}}, To{{.Name}}IndexInformer)
}
{{end}}
{{end}}
`
