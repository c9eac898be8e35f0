// Package metadatainformer provides shared informers that cache only object metadata
// (PartialObjectMetadata), for controllers that watch many or large objects but need only names,
// labels, owners or finalizers. Its surface mirrors client-go's metadata/metadatainformer.
package metadatainformer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/dynamic/dynamicinformer"
	"github.com/kgen-dev/kgen/runtime/informers"
	"github.com/kgen-dev/kgen/runtime/metadata"
)

// TweakListOptionsFunc adjusts the list and watch options of an informer.
type TweakListOptionsFunc = dynamicinformer.TweakListOptionsFunc

// GenericInformer gives access to a shared informer and a lister over its cache.
type GenericInformer = dynamicinformer.GenericInformer

// SharedInformerFactory hands out one shared metadata informer per resource.
type SharedInformerFactory = dynamicinformer.DynamicSharedInformerFactory

// NewSharedInformerFactory returns a factory for metadata informers over all namespaces.
func NewSharedInformerFactory(client metadata.Interface, defaultResync time.Duration) SharedInformerFactory {
	return NewFilteredSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredSharedInformerFactory returns a factory for metadata informers restricted to namespace and
// with list options adjusted by tweakListOptions.
func NewFilteredSharedInformerFactory(client metadata.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) SharedInformerFactory {
	return dynamicinformer.NewSharedInformerFactoryFor(func(gvr schema.GroupVersionResource) GenericInformer {
		return NewFilteredMetadataInformer(client, gvr, namespace, defaultResync,
			cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, tweakListOptions)
	})
}

// SharedInformerOption configures a factory made by NewSharedInformerFactoryWithOptions.
type SharedInformerOption = dynamicinformer.SharedInformerOption

// Options of NewSharedInformerFactoryWithOptions: see dynamicinformer's.
var (
	WithNamespace         = dynamicinformer.WithNamespace
	WithTweakListOptions  = dynamicinformer.WithTweakListOptions
	WithTransform         = dynamicinformer.WithTransform
	WithKeepManagedFields = dynamicinformer.WithKeepManagedFields
	WithDisableSharing    = dynamicinformer.WithDisableSharing
	WithShardSelector     = dynamicinformer.WithShardSelector
)

// NewSharedInformerFactoryWithOptions returns a factory for metadata informers configured by options (all
// namespaces unless WithNamespace says otherwise).
func NewSharedInformerFactoryWithOptions(client metadata.Interface, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory {
	var o dynamicinformer.FactoryOptions
	for _, option := range options {
		option(&o)
	}
	return dynamicinformer.NewSharedInformerFactoryFor(func(gvr schema.GroupVersionResource) GenericInformer {
		return NewFilteredMetadataInformer(client, gvr, o.Namespace, defaultResync,
			cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, o.TweakListOptions)
	}, options...)
}

// NewFilteredMetadataInformer returns a standalone (unshared) metadata informer for gvr in namespace.
func NewFilteredMetadataInformer(client metadata.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions TweakListOptionsFunc) GenericInformer {
	resource := client.Resource(gvr).Namespace(namespace)
	lw := informers.ListWatchFor(resource.List, resource.Watch, tweakListOptions)
	informer := cache.NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, cache.SharedIndexInformerOptions{
		ResyncPeriod:      resyncPeriod,
		Indexers:          indexers,
		ObjectDescription: gvr.String() + " metadata",
	})
	return dynamicinformer.NewGenericInformer(informer, gvr.GroupResource())
}
