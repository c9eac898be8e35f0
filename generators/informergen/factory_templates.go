package informergen

const factoryTemplates = `
{{define "internalInterfaces"}}
// NewInformerFunc takes a clientset and a resync period and returns a SharedIndexInformer.
type NewInformerFunc func({{ref .Cfg.VersionedClientsetPackage "Interface"}}, {{ref "time" "Duration"}}) {{rt "cache.SharedIndexInformer"}}

// SharedInformerFactory is what per-type informers need from the factory.
type SharedInformerFactory interface {
	Start(stopCh <-chan struct{})
	InformerFor(obj {{rt "runtime.Object"}}, newFunc NewInformerFunc) {{rt "cache.SharedIndexInformer"}}
	InformerName() string
}

// TweakListOptionsFunc is a function that transforms a metav1.ListOptions.
type TweakListOptionsFunc = {{rt "informers.TweakListOptionsFunc"}}

// InformerOptions holds the options for creating an informer.
type InformerOptions = {{rt "informers.InformerOptions"}}
{{end}}

{{define "factory"}}{{$ii := .InternalInterfacesPkg}}{{$cs := ref .Cfg.VersionedClientsetPackage "Interface"}}
// SharedInformerOption configures a SharedInformerFactory.
type SharedInformerOption = {{rt "informers.FactoryOption"}}

// WithCustomResyncConfig sets a custom resync period for the specified informer types.
func WithCustomResyncConfig(resyncConfig map[{{rt "metav1.Object"}}]{{ref "time" "Duration"}}) SharedInformerOption {
	return {{rt "informers.WithCustomResyncConfig"}}(resyncConfig)
}

// WithTweakListOptions sets a custom filter on all listers of the configured SharedInformerFactory.
func WithTweakListOptions(tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) SharedInformerOption {
	return {{rt "informers.WithTweakListOptions"}}(tweakListOptions)
}

// WithNamespace limits the SharedInformerFactory to the specified namespace.
func WithNamespace(namespace string) SharedInformerOption {
	return {{rt "informers.WithNamespace"}}(namespace)
}

// WithTransform sets a transform on all informers.
func WithTransform(transform {{rt "cache.TransformFunc"}}) SharedInformerOption {
	return {{rt "informers.WithTransform"}}(transform)
}

// WithInformerName names the factory in informer metrics.
func WithInformerName(name string) SharedInformerOption {
	return {{rt "informers.WithInformerName"}}(name)
}

type sharedInformerFactory struct {
	*{{rt "informers.Factory"}}
	client {{$cs}}
}

// NewSharedInformerFactory constructs a new instance of sharedInformerFactory for all namespaces.
func NewSharedInformerFactory(client {{$cs}}, defaultResync {{ref "time" "Duration"}}) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync)
}

// NewFilteredSharedInformerFactory constructs a new instance of sharedInformerFactory.
// Listers obtained via this SharedInformerFactory will be subject to the same filters
// as specified here.
//
// Deprecated: Please use NewSharedInformerFactoryWithOptions instead
func NewFilteredSharedInformerFactory(client {{$cs}}, defaultResync {{ref "time" "Duration"}}, namespace string, tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync, WithNamespace(namespace), WithTweakListOptions(tweakListOptions))
}

// NewSharedInformerFactoryWithOptions constructs a new instance of a SharedInformerFactory with additional options.
func NewSharedInformerFactoryWithOptions(client {{$cs}}, defaultResync {{ref "time" "Duration"}}, options ...SharedInformerOption) SharedInformerFactory {
	return &sharedInformerFactory{Factory: {{rt "informers.NewFactory"}}(defaultResync, options...), client: client}
}

// InformerFor returns the SharedIndexInformer for obj using an internal client.
func (f *sharedInformerFactory) InformerFor(obj {{rt "runtime.Object"}}, newFunc {{ref $ii "NewInformerFunc"}}) {{rt "cache.SharedIndexInformer"}} {
	return f.Factory.InformerFor(obj, func(resync {{ref "time" "Duration"}}) {{rt "cache.SharedIndexInformer"}} { return newFunc(f.client, resync) })
}

// SharedInformerFactory provides shared informers for resources in all known
// API group versions.
//
// It is typically used like this:
//
//	ctx, cancel := context.WithCancel(context.Background())
//	defer cancel()
//	factory := NewSharedInformerFactory(client, resyncPeriod)
//	defer factory.Shutdown()    // Returns immediately if nothing was started.
//	genericInformer := factory.ForResource(resource)
//	typedInformer := factory.SomeAPIGroup().V1().SomeType()
//	factory.Start(ctx.Done())          // Start processing these informers.
//	synced := factory.WaitForCacheSync(ctx.Done())
//	for v, ok := range synced {
//	    if !ok {
//	        fmt.Fprintf(os.Stderr, "caches failed to sync: %v", v)
//	        return
//	    }
//	}
//
//	// Creating informers can also be created after Start, but then
//	// Start must be called again:
//	anotherGenericInformer := factory.ForResource(resource)
//	factory.Start(ctx.Done())
type SharedInformerFactory interface {
	{{ref $ii "SharedInformerFactory"}}

	// StartWithContext initializes all requested informers. They are handled in goroutines
	// which run until the context gets canceled.
	StartWithContext(ctx {{ref "context" "Context"}})

	// Shutdown marks a factory as shutting down and waits for all started informers to return.
	Shutdown()

	// WaitForCacheSync blocks until all started informers' caches were synced
	// or the stop channel gets closed.
	WaitForCacheSync(stopCh <-chan struct{}) map[{{ref "reflect" "Type"}}]bool

	// WaitForCacheSyncWithContext blocks until all started informers' caches were synced
	// or the context gets canceled.
	WaitForCacheSyncWithContext(ctx {{ref "context" "Context"}}) {{rt "cache.SyncResult"}}

	// ForResource gives generic access to a shared informer of the matching type.
	ForResource(resource {{rt "schema.GroupVersionResource"}}) (GenericInformer, error)
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
// GenericInformer is type of SharedIndexInformer which will locate and delegate to other
// sharedInformers based on type
type GenericInformer interface {
	Informer() {{rt "cache.SharedIndexInformer"}}
	Lister() {{rt "cache.GenericLister"}}
}

type genericInformer struct {
	informer {{rt "cache.SharedIndexInformer"}}
	resource {{rt "schema.GroupResource"}}
}

// Informer returns the SharedIndexInformer.
func (f *genericInformer) Informer() {{rt "cache.SharedIndexInformer"}} {
	return f.informer
}

// Lister returns the GenericLister.
func (f *genericInformer) Lister() {{rt "cache.GenericLister"}} {
	return {{rt "cache.NewGenericLister"}}(f.Informer().GetIndexer(), f.resource)
}

// ForResource gives generic access to a shared informer of the matching type.
func (f *sharedInformerFactory) ForResource(resource {{rt "schema.GroupVersionResource"}}) (GenericInformer, error) {
	switch resource {
{{- range $g := .Groups}}{{range $v := .Versions}}
	// Group={{$g.G.Name}}, Version={{$v.V.Name}}
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
// Interface provides access to each of this group's versions.
type Interface interface {
{{- range .Versions}}
	// {{.V.GoName}} provides access to shared informers for resources in {{.V.GoName}}.
	{{.V.GoName}}() {{ref .Pkg "Interface"}}
{{- end}}
}

type group struct {
	factory          {{ref $ii "SharedInformerFactory"}}
	namespace        string
	tweakListOptions {{ref $ii "TweakListOptionsFunc"}}
}

// New returns a new Interface.
func New(f {{ref $ii "SharedInformerFactory"}}, namespace string, tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) Interface {
	return &group{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}
{{range .Versions}}
// {{.V.GoName}} returns a new {{ref .Pkg "Interface"}}.
func (g *group) {{.V.GoName}}() {{ref .Pkg "Interface"}} {
	return {{ref .Pkg "New"}}(g.factory, g.namespace, g.tweakListOptions)
}
{{end}}
{{end}}

{{define "versionInterface"}}{{$ii := .InternalInterfacesPkg}}
// Interface provides access to all the informers in this group version.
type Interface interface {
{{- range .Types}}
	// {{.Plural}} returns a Typed{{.Name}}Informer.
	{{.Plural}}() Typed{{.Name}}Informer
{{- end}}
}

type version struct {
	factory          {{ref $ii "SharedInformerFactory"}}
	namespace        string
	tweakListOptions {{ref $ii "TweakListOptionsFunc"}}
}

// New returns a new Interface.
func New(f {{ref $ii "SharedInformerFactory"}}, namespace string, tweakListOptions {{ref $ii "TweakListOptionsFunc"}}) Interface {
	return &version{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}
{{range .Types}}
// {{.Plural}} returns a Typed{{.Name}}Informer.
func (v *version) {{.Plural}}() Typed{{.Name}}Informer {
	return &{{.PrivateName}}Informer{factory: v.factory, {{if .Namespaced}}namespace: v.namespace, {{end}}tweakListOptions: v.tweakListOptions}
}
{{end}}
{{end}}
`
