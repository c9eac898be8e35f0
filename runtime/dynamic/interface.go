// Package dynamic is a client for any resource as unstructured.Unstructured, for code that does not know
// the Go types at compile time (CRDs, generic tooling). Its surface mirrors client-go's dynamic package;
// shared informers over it live in dynamicinformer. Watch error events carry a *metav1.Status, as with
// typed clients.
package dynamic

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// Interface gives access to any resource by group, version and resource.
type Interface interface {
	// Resource returns a client for resource.
	Resource(resource schema.GroupVersionResource) NamespaceableResourceInterface
}

// ResourceInterface performs the API verbs on one resource, in one namespace or cluster-wide.
type ResourceInterface interface {
	// Create creates obj, or a subresource of it when subresources are given.
	Create(ctx context.Context, obj *unstructured.Unstructured, options metav1.CreateOptions, subresources ...string) (*unstructured.Unstructured, error)
	// Update replaces obj (or its subresource); obj must carry its name and resourceVersion.
	Update(ctx context.Context, obj *unstructured.Unstructured, options metav1.UpdateOptions, subresources ...string) (*unstructured.Unstructured, error)
	// UpdateStatus replaces the status subresource of obj.
	UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, options metav1.UpdateOptions) (*unstructured.Unstructured, error)
	// Delete deletes the named object.
	Delete(ctx context.Context, name string, options metav1.DeleteOptions, subresources ...string) error
	// DeleteCollection deletes the objects selected by listOptions.
	DeleteCollection(ctx context.Context, options metav1.DeleteOptions, listOptions metav1.ListOptions) error
	// Get returns the named object.
	Get(ctx context.Context, name string, options metav1.GetOptions, subresources ...string) (*unstructured.Unstructured, error)
	// List returns the objects selected by opts.
	List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error)
	// Watch streams changes to the objects selected by opts.
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	// Patch applies a patch of type pt to the named object.
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, options metav1.PatchOptions, subresources ...string) (*unstructured.Unstructured, error)
	// Apply server-side applies obj under options.FieldManager.
	Apply(ctx context.Context, name string, obj *unstructured.Unstructured, options metav1.ApplyOptions, subresources ...string) (*unstructured.Unstructured, error)
	// ApplyStatus server-side applies the status subresource of obj.
	ApplyStatus(ctx context.Context, name string, obj *unstructured.Unstructured, options metav1.ApplyOptions) (*unstructured.Unstructured, error)
}

// NamespaceableResourceInterface is a ResourceInterface that can be narrowed to a namespace.
type NamespaceableResourceInterface interface {
	// Namespace returns a client for the resource in namespace ns.
	Namespace(ns string) ResourceInterface
	ResourceInterface
}
