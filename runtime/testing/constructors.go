package testing

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// The NewRoot... constructors build actions on cluster-scoped resources; each equals its New...
// twin called with an empty namespace. Generated fakes call the ...WithOptions forms.

func actionImpl(verb string, resource schema.GroupVersionResource, namespace, subresource string) ActionImpl {
	return ActionImpl{Namespace: namespace, Verb: verb, Resource: resource, Subresource: subresource}
}

// NewGetAction returns a get action for a namespaced object.
func NewGetAction(resource schema.GroupVersionResource, namespace, name string) GetActionImpl {
	return NewGetActionWithOptions(resource, namespace, name, metav1.GetOptions{})
}

// NewGetActionWithOptions returns a get action for a namespaced object with options.
func NewGetActionWithOptions(resource schema.GroupVersionResource, namespace, name string, opts metav1.GetOptions) GetActionImpl {
	return GetActionImpl{ActionImpl: actionImpl("get", resource, namespace, ""), Name: name, GetOptions: opts}
}

// NewRootGetAction returns a get action for a cluster-scoped object.
func NewRootGetAction(resource schema.GroupVersionResource, name string) GetActionImpl {
	return NewGetActionWithOptions(resource, "", name, metav1.GetOptions{})
}

// NewRootGetActionWithOptions returns a get action for a cluster-scoped object with options.
func NewRootGetActionWithOptions(resource schema.GroupVersionResource, name string, opts metav1.GetOptions) GetActionImpl {
	return NewGetActionWithOptions(resource, "", name, opts)
}

// NewGetSubresourceAction returns a get action for a subresource of a namespaced object.
func NewGetSubresourceAction(resource schema.GroupVersionResource, namespace, subresource, name string) GetActionImpl {
	return NewGetSubresourceActionWithOptions(resource, namespace, subresource, name, metav1.GetOptions{})
}

// NewGetSubresourceActionWithOptions returns a get action for a subresource of a namespaced object with options.
func NewGetSubresourceActionWithOptions(resource schema.GroupVersionResource, namespace, subresource, name string, opts metav1.GetOptions) GetActionImpl {
	return GetActionImpl{ActionImpl: actionImpl("get", resource, namespace, subresource), Name: name, GetOptions: opts}
}

// NewRootGetSubresourceAction returns a get action for a subresource of a cluster-scoped object.
func NewRootGetSubresourceAction(resource schema.GroupVersionResource, subresource, name string) GetActionImpl {
	return NewGetSubresourceActionWithOptions(resource, "", subresource, name, metav1.GetOptions{})
}

// NewRootGetSubresourceActionWithOptions returns a get action for a subresource of a cluster-scoped object with options.
func NewRootGetSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource, name string, opts metav1.GetOptions) GetActionImpl {
	return NewGetSubresourceActionWithOptions(resource, "", subresource, name, opts)
}

// NewListAction returns a list action in a namespace; opts should be a metav1.ListOptions.
func NewListAction(resource schema.GroupVersionResource, kind schema.GroupVersionKind, namespace string, opts interface{}) ListActionImpl {
	return NewListActionWithOptions(resource, kind, namespace, listOptionsOf(opts))
}

// NewListActionWithOptions returns a list action in a namespace with options.
func NewListActionWithOptions(resource schema.GroupVersionResource, kind schema.GroupVersionKind, namespace string, opts metav1.ListOptions) ListActionImpl {
	l, f, _ := ExtractFromListOptions(opts)
	return ListActionImpl{
		ActionImpl:       actionImpl("list", resource, namespace, ""),
		Kind:             kind,
		ListRestrictions: ListRestrictions{Labels: l, Fields: f},
		ListOptions:      opts,
	}
}

// NewRootListAction returns a list action over a cluster-scoped resource.
func NewRootListAction(resource schema.GroupVersionResource, kind schema.GroupVersionKind, opts interface{}) ListActionImpl {
	return NewListActionWithOptions(resource, kind, "", listOptionsOf(opts))
}

// NewRootListActionWithOptions returns a list action over a cluster-scoped resource with options.
func NewRootListActionWithOptions(resource schema.GroupVersionResource, kind schema.GroupVersionKind, opts metav1.ListOptions) ListActionImpl {
	return NewListActionWithOptions(resource, kind, "", opts)
}

// NewCreateAction returns a create action in a namespace.
func NewCreateAction(resource schema.GroupVersionResource, namespace string, object runtime.Object) CreateActionImpl {
	return NewCreateActionWithOptions(resource, namespace, object, metav1.CreateOptions{})
}

// NewCreateActionWithOptions returns a create action in a namespace with options.
func NewCreateActionWithOptions(resource schema.GroupVersionResource, namespace string, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return CreateActionImpl{ActionImpl: actionImpl("create", resource, namespace, ""), Object: object, CreateOptions: opts}
}

// NewRootCreateAction returns a create action for a cluster-scoped resource.
func NewRootCreateAction(resource schema.GroupVersionResource, object runtime.Object) CreateActionImpl {
	return NewCreateActionWithOptions(resource, "", object, metav1.CreateOptions{})
}

// NewRootCreateActionWithOptions returns a create action for a cluster-scoped resource with options.
func NewRootCreateActionWithOptions(resource schema.GroupVersionResource, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return NewCreateActionWithOptions(resource, "", object, opts)
}

// NewCreateSubresourceAction returns a create action on a subresource (e.g. pods/eviction) of a namespaced object.
func NewCreateSubresourceAction(resource schema.GroupVersionResource, name, subresource, namespace string, object runtime.Object) CreateActionImpl {
	return NewCreateSubresourceActionWithOptions(resource, name, subresource, namespace, object, metav1.CreateOptions{})
}

// NewCreateSubresourceActionWithOptions returns a create action on a subresource of a namespaced object with options.
func NewCreateSubresourceActionWithOptions(resource schema.GroupVersionResource, name, subresource, namespace string, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return CreateActionImpl{
		ActionImpl:    actionImpl("create", resource, namespace, subresource),
		Name:          name,
		Object:        object,
		CreateOptions: opts,
	}
}

// NewRootCreateSubresourceAction returns a create action on a subresource of a cluster-scoped object.
func NewRootCreateSubresourceAction(resource schema.GroupVersionResource, name, subresource string, object runtime.Object) CreateActionImpl {
	return NewCreateSubresourceActionWithOptions(resource, name, subresource, "", object, metav1.CreateOptions{})
}

// NewRootCreateSubresourceActionWithOptions returns a create action on a subresource of a cluster-scoped object with options.
func NewRootCreateSubresourceActionWithOptions(resource schema.GroupVersionResource, name, subresource string, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return NewCreateSubresourceActionWithOptions(resource, name, subresource, "", object, opts)
}

// NewUpdateAction returns an update action in a namespace.
func NewUpdateAction(resource schema.GroupVersionResource, namespace string, object runtime.Object) UpdateActionImpl {
	return NewUpdateActionWithOptions(resource, namespace, object, metav1.UpdateOptions{})
}

// NewUpdateActionWithOptions returns an update action in a namespace with options.
func NewUpdateActionWithOptions(resource schema.GroupVersionResource, namespace string, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return NewUpdateSubresourceActionWithOptions(resource, "", namespace, object, opts)
}

// NewRootUpdateAction returns an update action for a cluster-scoped resource.
func NewRootUpdateAction(resource schema.GroupVersionResource, object runtime.Object) UpdateActionImpl {
	return NewUpdateSubresourceActionWithOptions(resource, "", "", object, metav1.UpdateOptions{})
}

// NewRootUpdateActionWithOptions returns an update action for a cluster-scoped resource with options.
func NewRootUpdateActionWithOptions(resource schema.GroupVersionResource, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return NewUpdateSubresourceActionWithOptions(resource, "", "", object, opts)
}

// NewUpdateSubresourceAction returns an update action on a subresource (e.g. status) of a namespaced object.
func NewUpdateSubresourceAction(resource schema.GroupVersionResource, subresource string, namespace string, object runtime.Object) UpdateActionImpl {
	return NewUpdateSubresourceActionWithOptions(resource, subresource, namespace, object, metav1.UpdateOptions{})
}

// NewUpdateSubresourceActionWithOptions returns an update action on a subresource of a namespaced object with options.
func NewUpdateSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource string, namespace string, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return UpdateActionImpl{ActionImpl: actionImpl("update", resource, namespace, subresource), Object: object, UpdateOptions: opts}
}

// NewRootUpdateSubresourceAction returns an update action on a subresource of a cluster-scoped object.
func NewRootUpdateSubresourceAction(resource schema.GroupVersionResource, subresource string, object runtime.Object) UpdateActionImpl {
	return NewUpdateSubresourceActionWithOptions(resource, subresource, "", object, metav1.UpdateOptions{})
}

// NewRootUpdateSubresourceActionWithOptions returns an update action on a subresource of a cluster-scoped object with options.
func NewRootUpdateSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource string, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return NewUpdateSubresourceActionWithOptions(resource, subresource, "", object, opts)
}

// NewPatchAction returns a patch action in a namespace.
func NewPatchAction(resource schema.GroupVersionResource, namespace string, name string, pt types.PatchType, patch []byte) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, namespace, name, pt, patch, metav1.PatchOptions{})
}

// NewPatchActionWithOptions returns a patch action in a namespace with options.
func NewPatchActionWithOptions(resource schema.GroupVersionResource, namespace string, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, namespace, name, pt, patch, opts)
}

// NewRootPatchAction returns a patch action for a cluster-scoped object.
func NewRootPatchAction(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, "", name, pt, patch, metav1.PatchOptions{})
}

// NewRootPatchActionWithOptions returns a patch action for a cluster-scoped object with options.
func NewRootPatchActionWithOptions(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, "", name, pt, patch, opts)
}

// NewPatchSubresourceAction returns a patch action on a namespaced object; the subresources are joined with "/".
func NewPatchSubresourceAction(resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, patch []byte, subresources ...string) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, namespace, name, pt, patch, metav1.PatchOptions{}, subresources...)
}

// NewPatchSubresourceActionWithOptions returns a patch action on a subresource of a namespaced object with options.
func NewPatchSubresourceActionWithOptions(resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions, subresources ...string) PatchActionImpl {
	return PatchActionImpl{
		ActionImpl:   actionImpl("patch", resource, namespace, joinSubresources(subresources)),
		Name:         name,
		PatchType:    pt,
		Patch:        patch,
		PatchOptions: opts,
	}
}

// NewRootPatchSubresourceAction returns a patch action on a subresource of a cluster-scoped object.
func NewRootPatchSubresourceAction(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte, subresources ...string) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, "", name, pt, patch, metav1.PatchOptions{}, subresources...)
}

// NewRootPatchSubresourceActionWithOptions returns a patch action on a subresource of a cluster-scoped object with options.
func NewRootPatchSubresourceActionWithOptions(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions, subresources ...string) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, "", name, pt, patch, opts, subresources...)
}

// NewDeleteAction returns a delete action in a namespace.
func NewDeleteAction(resource schema.GroupVersionResource, namespace, name string) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, "", namespace, name, metav1.DeleteOptions{})
}

// NewDeleteActionWithOptions returns a delete action in a namespace with options.
func NewDeleteActionWithOptions(resource schema.GroupVersionResource, namespace, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, "", namespace, name, opts)
}

// NewRootDeleteAction returns a delete action for a cluster-scoped object.
func NewRootDeleteAction(resource schema.GroupVersionResource, name string) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, "", "", name, metav1.DeleteOptions{})
}

// NewRootDeleteActionWithOptions returns a delete action for a cluster-scoped object with options.
func NewRootDeleteActionWithOptions(resource schema.GroupVersionResource, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, "", "", name, opts)
}

// NewDeleteSubresourceAction returns a delete action on a subresource of a namespaced object.
func NewDeleteSubresourceAction(resource schema.GroupVersionResource, subresource, namespace, name string) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, subresource, namespace, name, metav1.DeleteOptions{})
}

// NewDeleteSubresourceActionWithOptions returns a delete action on a subresource of a namespaced object with options.
func NewDeleteSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource, namespace, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return DeleteActionImpl{ActionImpl: actionImpl("delete", resource, namespace, subresource), Name: name, DeleteOptions: opts}
}

// NewRootDeleteSubresourceAction returns a delete action on a subresource of a cluster-scoped object.
func NewRootDeleteSubresourceAction(resource schema.GroupVersionResource, subresource string, name string) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, subresource, "", name, metav1.DeleteOptions{})
}

// NewRootDeleteSubresourceActionWithOptions returns a delete action on a subresource of a cluster-scoped object with options.
func NewRootDeleteSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource string, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, subresource, "", name, opts)
}

// NewDeleteCollectionAction returns a delete-collection action in a namespace; opts should be a metav1.ListOptions.
func NewDeleteCollectionAction(resource schema.GroupVersionResource, namespace string, opts interface{}) DeleteCollectionActionImpl {
	return NewDeleteCollectionActionWithOptions(resource, namespace, metav1.DeleteOptions{}, listOptionsOf(opts))
}

// NewDeleteCollectionActionWithOptions returns a delete-collection action in a namespace with options.
func NewDeleteCollectionActionWithOptions(resource schema.GroupVersionResource, namespace string, deleteOpts metav1.DeleteOptions, listOpts metav1.ListOptions) DeleteCollectionActionImpl {
	l, f, _ := ExtractFromListOptions(listOpts)
	return DeleteCollectionActionImpl{
		ActionImpl:       actionImpl("delete-collection", resource, namespace, ""),
		ListRestrictions: ListRestrictions{Labels: l, Fields: f},
		DeleteOptions:    deleteOpts,
		ListOptions:      listOpts,
	}
}

// NewRootDeleteCollectionAction returns a delete-collection action over a cluster-scoped resource.
func NewRootDeleteCollectionAction(resource schema.GroupVersionResource, opts interface{}) DeleteCollectionActionImpl {
	return NewDeleteCollectionActionWithOptions(resource, "", metav1.DeleteOptions{}, listOptionsOf(opts))
}

// NewRootDeleteCollectionActionWithOptions returns a delete-collection action over a cluster-scoped resource with options.
func NewRootDeleteCollectionActionWithOptions(resource schema.GroupVersionResource, deleteOpts metav1.DeleteOptions, listOpts metav1.ListOptions) DeleteCollectionActionImpl {
	return NewDeleteCollectionActionWithOptions(resource, "", deleteOpts, listOpts)
}

// NewWatchAction returns a watch action in a namespace; opts should be a metav1.ListOptions.
func NewWatchAction(resource schema.GroupVersionResource, namespace string, opts interface{}) WatchActionImpl {
	return NewWatchActionWithOptions(resource, namespace, listOptionsOf(opts))
}

// NewWatchActionWithOptions returns a watch action in a namespace with options.
func NewWatchActionWithOptions(resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) WatchActionImpl {
	l, f, rv := ExtractFromListOptions(opts)
	return WatchActionImpl{
		ActionImpl:        actionImpl("watch", resource, namespace, ""),
		WatchRestrictions: WatchRestrictions{Labels: l, Fields: f, ResourceVersion: rv},
		ListOptions:       opts,
	}
}

// NewRootWatchAction returns a watch action over a cluster-scoped resource.
func NewRootWatchAction(resource schema.GroupVersionResource, opts interface{}) WatchActionImpl {
	return NewWatchActionWithOptions(resource, "", listOptionsOf(opts))
}

// NewRootWatchActionWithOptions returns a watch action over a cluster-scoped resource with options.
func NewRootWatchActionWithOptions(resource schema.GroupVersionResource, opts metav1.ListOptions) WatchActionImpl {
	return NewWatchActionWithOptions(resource, "", opts)
}

// NewProxyGetAction returns a proxied GET action on a pod or service.
func NewProxyGetAction(resource schema.GroupVersionResource, namespace, scheme, name, port, path string, params map[string]string) ProxyGetActionImpl {
	return ProxyGetActionImpl{
		ActionImpl: actionImpl("get", resource, namespace, "proxy"),
		Scheme:     scheme,
		Name:       name,
		Port:       port,
		Path:       path,
		Params:     params,
	}
}

// ExtractFromListOptions parses the selectors and resourceVersion of a metav1.ListOptions (or a pointer to
// one). Absent selectors select everything. Unlike client-go it never panics: a malformed selector
// selects nothing here, and the ObjectTracker rejects it with a BadRequest error as the server does.
func ExtractFromListOptions(opts interface{}) (labelSelector labels.Selector, fieldSelector fields.Selector, resourceVersion string) {
	o := listOptionsOf(opts)
	labelSelector, err := labels.Parse(o.LabelSelector)
	if err != nil {
		labelSelector = labels.Nothing()
	}
	fieldSelector, err = fields.ParseSelector(o.FieldSelector)
	if err != nil {
		fieldSelector = fields.Nothing()
	}
	return labelSelector, fieldSelector, o.ResourceVersion
}

// listOptionsOf accepts the loosely typed options of the older constructors.
func listOptionsOf(opts interface{}) metav1.ListOptions {
	switch o := opts.(type) {
	case metav1.ListOptions:
		return o
	case *metav1.ListOptions:
		if o != nil {
			return *o
		}
	}
	return metav1.ListOptions{}
}

func joinSubresources(subresources []string) string {
	return strings.Join(subresources, "/")
}
