package gofile

// Symbol names a Go identifier by import path and name.
type Symbol struct {
	// Pkg is the import path; Name the identifier.
	Pkg, Name string
}

const runtimeRoot = "github.com/kgen-dev/kgen/runtime/"

// Package paths of everything generated code calls outside the input packages.
const (
	PkgRest          = runtimeRoot + "rest"
	PkgDiscovery     = runtimeRoot + "discovery"
	PkgFakeDiscovery = runtimeRoot + "discovery/fake"
	PkgGentype       = runtimeRoot + "gentype"
	PkgGentypeFake   = runtimeRoot + "gentype/fake"
	PkgListers       = runtimeRoot + "listers"
	PkgInformers     = runtimeRoot + "informers"
	PkgCache         = runtimeRoot + "cache"
	PkgTesting       = runtimeRoot + "testing"

	PkgMetav1      = "k8s.io/apimachinery/pkg/apis/meta/v1"
	PkgRuntime     = "k8s.io/apimachinery/pkg/runtime"
	PkgSchema      = "k8s.io/apimachinery/pkg/runtime/schema"
	PkgSerializer  = "k8s.io/apimachinery/pkg/runtime/serializer"
	PkgTypes       = "k8s.io/apimachinery/pkg/types"
	PkgWatch       = "k8s.io/apimachinery/pkg/watch"
	PkgLabels      = "k8s.io/apimachinery/pkg/labels"
	PkgUtilRuntime = "k8s.io/apimachinery/pkg/util/runtime"
)

// Symbols is the one table of identifiers generated code references outside the input and output packages.
// Templates look them up by short name ("rest.Config"), so retargeting the runtime is an edit here.
var Symbols = map[string]Symbol{}

func init() {
	for pkg, names := range map[string][]string{
		PkgRest: {"Config", "Interface", "RESTClient", "HTTPClientFor", "RESTClientForConfigAndClient",
			"DefaultKubernetesUserAgent", "CodecFactoryForGeneratedClient", "NewTokenBucketRateLimiter"},
		PkgDiscovery:     {"DiscoveryInterfaces", "DiscoveryClient", "NewDiscoveryClientForConfigAndClient", "NewDiscoveryClient"},
		PkgFakeDiscovery: {"FakeDiscovery"},
		PkgGentype: {"Client", "ClientWithList", "ClientWithApply", "ClientWithListAndApply",
			"NewClient", "NewClientWithList", "NewClientWithApply", "NewClientWithListAndApply", "PrefersProtobuf"},
		PkgGentypeFake: {"FakeClient", "FakeClientWithList", "FakeClientWithApply", "FakeClientWithListAndApply",
			"NewFakeClient", "NewFakeClientWithList", "NewFakeClientWithApply", "NewFakeClientWithListAndApply",
			"ToPointerSlice", "FromPointerSlice"},
		PkgListers: {"ResourceIndexer", "New", "NewNamespaced"},
		PkgInformers: {"Factory", "NewFactory", "FactoryOption", "NewTypedInformer", "InformerOptions", "TweakListOptionsFunc",
			"WithCustomResyncConfig", "WithTweakListOptions", "WithNamespace", "WithTransform", "WithInformerName"},
		PkgCache: {"SharedIndexInformer", "TypedSharedIndexInformer", "Indexer", "Indexers", "TransformFunc",
			"GenericLister", "NewGenericLister", "SyncResult", "TypedResourceEventHandlerFuncs", "TypedResourceEventHandlerDetailedFuncs", "TypedFilteringResourceEventHandler", "TypedIndexers",
			"TypedIndexersToIndexers", "InformerName", "NamespaceIndex", "MetaNamespaceIndexFunc", "DeletedObject", "NewTypedSharedIndexInformer"},
		PkgTesting: {"Fake", "ObjectTracker", "NewObjectTracker", "NewFieldManagedObjectTracker", "ObjectReaction",
			"Action", "WatchActionImpl", "FakeClient",
			"NewGetActionWithOptions", "NewRootGetActionWithOptions", "NewGetSubresourceActionWithOptions",
			"NewRootGetSubresourceActionWithOptions", "NewListActionWithOptions", "NewRootListActionWithOptions",
			"NewCreateActionWithOptions", "NewRootCreateActionWithOptions", "NewCreateSubresourceActionWithOptions",
			"NewRootCreateSubresourceActionWithOptions", "NewUpdateActionWithOptions", "NewRootUpdateActionWithOptions",
			"NewUpdateSubresourceActionWithOptions", "NewRootUpdateSubresourceActionWithOptions",
			"NewPatchSubresourceActionWithOptions", "NewRootPatchSubresourceActionWithOptions"},
		PkgMetav1:      {"CreateOptions", "UpdateOptions", "DeleteOptions", "GetOptions", "ListOptions", "PatchOptions", "ApplyOptions", "Object", "AddToGroupVersion", "APIResourceList", "APIResource"},
		PkgRuntime:     {"Object", "SchemeBuilder", "NewScheme", "NewParameterCodec"},
		PkgSchema:      {"GroupVersion", "GroupResource", "GroupVersionResource"},
		PkgSerializer:  {"NewCodecFactory"},
		PkgTypes:       {"PatchType", "ApplyPatchType"},
		PkgWatch:       {"Interface"},
		PkgLabels:      {"Selector"},
		PkgUtilRuntime: {"Must"},
	} {
		short := shortNames[pkg]
		for _, n := range names {
			Symbols[short+"."+n] = Symbol{Pkg: pkg, Name: n}
		}
	}
}

// shortNames are the table keys' package prefixes.
var shortNames = map[string]string{
	PkgRest: "rest", PkgDiscovery: "discovery", PkgFakeDiscovery: "fakediscovery", PkgGentype: "gentype", PkgGentypeFake: "gentype",
	PkgListers: "listers", PkgInformers: "informers", PkgCache: "cache", PkgTesting: "testing",
	PkgMetav1: "metav1", PkgRuntime: "runtime", PkgSchema: "schema", PkgSerializer: "serializer",
	PkgTypes: "types", PkgWatch: "watch", PkgLabels: "labels", PkgUtilRuntime: "utilruntime",
}
