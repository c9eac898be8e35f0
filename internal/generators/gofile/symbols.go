package gofile

import "reflect"

// ClientGoVersion is the client-go release whose generated API (names, signatures, layout) the generated
// code mirrors, and whose k8s.io/api and apimachinery the runtime builds on.
const ClientGoVersion = "v0.37.2"

// GoImportPath is the import path of a Go package.
type GoImportPath string

// Ident returns the identifier name declared in package p.
func (p GoImportPath) Ident(name string) GoIdent { return GoIdent{GoImportPath: p, GoName: name} }

// GoIdent is a Go identifier with the import path of the package that declares it; File.Ident renders it
// through the file's imports.
type GoIdent struct {
	GoImportPath GoImportPath
	GoName       string
}

// Symbols is the one table of identifiers generated code references outside its input and output
// packages: a field per package (its import path in the pkg tag) holding a GoIdent per identifier, named
// as the identifier itself. Go code refers to them as gofile.Symbols.Rest.Config, so the compiler checks
// every use; templates as {{id rt.Rest.Config}}. Retargeting generated code is an edit here.
var Symbols = newSymbolTable()

// SymbolTable lists the identifiers by package, each group of fields tagged with its import path;
// newSymbolTable fills in every GoIdent from its field name.
type SymbolTable struct {
	// Rest holds the identifiers of github.com/kgen-dev/kgen/runtime/rest.
	Rest struct {
		Config, Interface, RESTClient, HTTPClientFor, RESTClientForConfigAndClient, DefaultKubernetesUserAgent,
		CodecFactoryForGeneratedClient, NewTokenBucketRateLimiter GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/rest"`
	// Discovery holds the identifiers of github.com/kgen-dev/kgen/runtime/discovery.
	Discovery struct {
		DiscoveryInterfaces, DiscoveryClient, NewDiscoveryClientForConfigAndClient, NewDiscoveryClient GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/discovery"`
	// FakeDiscovery holds the identifiers of github.com/kgen-dev/kgen/runtime/discovery/fake.
	FakeDiscovery struct {
		FakeDiscovery GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/discovery/fake"`
	// Gentype holds the identifiers of github.com/kgen-dev/kgen/runtime/gentype.
	Gentype struct {
		Client, ClientWithList, ClientWithApply, ClientWithListAndApply,
		NewClient, NewClientWithList, NewClientWithApply, NewClientWithListAndApply, PrefersProtobuf GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/gentype"`
	// GentypeFake holds the identifiers of github.com/kgen-dev/kgen/runtime/gentype/fake, which only
	// generated fakes import, so production clientsets link no fake code.
	GentypeFake struct {
		FakeClient, FakeClientWithList, FakeClientWithApply, FakeClientWithListAndApply,
		NewFakeClient, NewFakeClientWithList, NewFakeClientWithApply, NewFakeClientWithListAndApply,
		ToPointerSlice, FromPointerSlice GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/gentype/fake"`
	// Listers holds the identifiers of github.com/kgen-dev/kgen/runtime/listers.
	Listers struct {
		ResourceIndexer, New, NewNamespaced GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/listers"`
	// Informers holds the identifiers of github.com/kgen-dev/kgen/runtime/informers.
	Informers struct {
		Factory, NewFactory, FactoryOption, NewTypedInformer, InformerOptions, TweakListOptionsFunc,
		WithCustomResyncConfig, WithTweakListOptions, WithNamespace, WithTransform, WithKeepManagedFields,
		WithDisableSharing, WithShardSelector, WithInformerName, NewShared, InNamespace, WithTypedView, TypedView GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/informers"`
	// Cache holds the identifiers of github.com/kgen-dev/kgen/runtime/cache.
	Cache struct {
		SharedIndexInformer, TypedSharedIndexInformer, Indexer, Indexers, TransformFunc, GenericLister,
		NewGenericLister, SyncResult, TypedResourceEventHandlerFuncs, TypedResourceEventHandlerDetailedFuncs,
		TypedFilteringResourceEventHandler, TypedIndexers, TypedIndexersToIndexers, InformerName,
		DeletedObject GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/cache"`
	// Testing holds the identifiers of github.com/kgen-dev/kgen/runtime/testing.
	Testing struct {
		Fake, ObjectTracker, NewObjectTracker, NewFieldManagedObjectTracker, ObjectReaction, Action,
		WatchActionImpl, FakeClient,
		NewGetActionWithOptions, NewRootGetActionWithOptions, NewGetSubresourceActionWithOptions,
		NewRootGetSubresourceActionWithOptions, NewListActionWithOptions, NewRootListActionWithOptions,
		NewCreateActionWithOptions, NewRootCreateActionWithOptions, NewCreateSubresourceActionWithOptions,
		NewRootCreateSubresourceActionWithOptions, NewUpdateActionWithOptions, NewRootUpdateActionWithOptions,
		NewUpdateSubresourceActionWithOptions, NewRootUpdateSubresourceActionWithOptions,
		NewPatchSubresourceActionWithOptions, NewRootPatchSubresourceActionWithOptions GoIdent
	} `pkg:"github.com/kgen-dev/kgen/runtime/testing"`
	// Metav1 holds the identifiers of k8s.io/apimachinery/pkg/apis/meta/v1.
	Metav1 struct {
		CreateOptions, UpdateOptions, DeleteOptions, GetOptions, ListOptions, PatchOptions, ApplyOptions,
		Object, AddToGroupVersion, APIResourceList, APIResource GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/apis/meta/v1"`
	// Runtime holds the identifiers of k8s.io/apimachinery/pkg/runtime.
	Runtime struct {
		Object, SchemeBuilder, NewScheme, NewParameterCodec GoIdent
		// Scheme is what generated RegisterDefaults functions register with.
		Scheme GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/runtime"`
	// Sharding holds the identifiers of k8s.io/apimachinery/pkg/sharding.
	Sharding struct {
		Selector GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/sharding"`
	// Schema holds the identifiers of k8s.io/apimachinery/pkg/runtime/schema.
	Schema struct {
		GroupVersion, GroupResource, GroupVersionResource GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/runtime/schema"`
	// Serializer holds the identifiers of k8s.io/apimachinery/pkg/runtime/serializer.
	Serializer struct {
		NewCodecFactory GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/runtime/serializer"`
	// Types holds the identifiers of k8s.io/apimachinery/pkg/types.
	Types struct {
		PatchType, ApplyPatchType GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/types"`
	// Watch holds the identifiers of k8s.io/apimachinery/pkg/watch.
	Watch struct {
		Interface GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/watch"`
	// Labels holds the identifiers of k8s.io/apimachinery/pkg/labels.
	Labels struct {
		Selector GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/labels"`
	// JSON holds the identifiers of encoding/json (generated defaulters unmarshal +default documents).
	JSON struct {
		Unmarshal GoIdent
	} `pkg:"encoding/json"`
	// UtilRuntime holds the identifiers of k8s.io/apimachinery/pkg/util/runtime.
	UtilRuntime struct {
		Must GoIdent
	} `pkg:"k8s.io/apimachinery/pkg/util/runtime"`
}

// newSymbolTable sets every GoIdent of the table to its field's name in the package its group's pkg
// tag names.
func newSymbolTable() *SymbolTable {
	t := &SymbolTable{}
	table := reflect.ValueOf(t).Elem()
	for i := range table.NumField() {
		pkg := GoImportPath(table.Type().Field(i).Tag.Get("pkg"))
		group := table.Field(i)
		for j := range group.NumField() {
			group.Field(j).Set(reflect.ValueOf(pkg.Ident(group.Type().Field(j).Name)))
		}
	}
	return t
}
