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

// Action is one request recorded by a Fake: a verb on a resource, optionally in a namespace and
// on a subresource.
type Action interface {
	GetNamespace() string
	GetVerb() string
	GetResource() schema.GroupVersionResource
	GetSubresource() string
	// Matches reports whether the action has the verb and the resource ("pods" or "pods/status").
	Matches(verb, resource string) bool
	// DeepCopy returns a copy that shares no mutable state with the receiver.
	DeepCopy() Action
}

// GenericAction is an action carrying an arbitrary value.
type GenericAction interface {
	Action
	GetValue() interface{}
}

// GetAction is a get request for one named object.
type GetAction interface {
	Action
	GetName() string
}

// ListAction is a list request restricted by label and field selectors.
type ListAction interface {
	Action
	GetListRestrictions() ListRestrictions
}

// CreateAction is a create request carrying the object to create.
type CreateAction interface {
	Action
	GetObject() runtime.Object
}

// UpdateAction is an update request carrying the new object.
type UpdateAction interface {
	Action
	GetObject() runtime.Object
}

// DeleteAction is a delete request for one named object.
type DeleteAction interface {
	Action
	GetName() string
	GetDeleteOptions() metav1.DeleteOptions
}

// DeleteCollectionAction is a delete request for every object matching the selectors.
type DeleteCollectionAction interface {
	Action
	GetListRestrictions() ListRestrictions
}

// PatchAction is a patch (or server-side apply) request for one named object.
type PatchAction interface {
	Action
	GetName() string
	GetPatchType() types.PatchType
	GetPatch() []byte
}

// WatchAction is a watch request restricted by selectors and a starting resourceVersion.
type WatchAction interface {
	Action
	GetWatchRestrictions() WatchRestrictions
}

// ProxyGetAction is a proxied GET to a pod or service.
type ProxyGetAction interface {
	Action
	GetScheme() string
	GetName() string
	GetPort() string
	GetPath() string
	GetParams() map[string]string
}

// ListRestrictions are the parsed selectors of a list or delete-collection request.
type ListRestrictions struct {
	Labels labels.Selector
	Fields fields.Selector
}

// WatchRestrictions are the parsed selectors and starting resourceVersion of a watch request.
type WatchRestrictions struct {
	Labels          labels.Selector
	Fields          fields.Selector
	ResourceVersion string
}

// ActionImpl holds the fields every action has; the concrete action types embed it.
type ActionImpl struct {
	Namespace   string
	Verb        string
	Resource    schema.GroupVersionResource
	Subresource string
}

// GetNamespace returns the request namespace ("" for cluster-scoped requests).
func (a ActionImpl) GetNamespace() string { return a.Namespace }

// GetVerb returns the request verb, e.g. "get" or "delete-collection".
func (a ActionImpl) GetVerb() string { return a.Verb }

// GetResource returns the requested resource.
func (a ActionImpl) GetResource() schema.GroupVersionResource { return a.Resource }

// GetSubresource returns the requested subresource ("" for the main resource).
func (a ActionImpl) GetSubresource() string { return a.Subresource }

// Matches compares verb and resource case-insensitively; "res/sub" also compares the subresource.
func (a ActionImpl) Matches(verb, resource string) bool {
	if !strings.EqualFold(verb, a.Verb) {
		return false
	}
	top, sub, hasSub := strings.Cut(resource, "/")
	if !strings.EqualFold(top, a.Resource.Resource) {
		return false
	}
	return !hasSub || strings.EqualFold(sub, a.Subresource)
}

// DeepCopy returns a copy of the action.
func (a ActionImpl) DeepCopy() Action { return a }

// GenericActionImpl is an action carrying an arbitrary value.
type GenericActionImpl struct {
	ActionImpl
	Value interface{}
}

// GetValue returns the carried value.
func (a GenericActionImpl) GetValue() interface{} { return a.Value }

// DeepCopy returns a copy of the action; the value is copied when it is a runtime.Object.
func (a GenericActionImpl) DeepCopy() Action {
	if obj, ok := a.Value.(runtime.Object); ok && obj != nil {
		a.Value = obj.DeepCopyObject()
	}
	return a
}

// GetActionImpl is a get request.
type GetActionImpl struct {
	ActionImpl
	Name       string
	GetOptions metav1.GetOptions
}

// GetName returns the requested object's name.
func (a GetActionImpl) GetName() string { return a.Name }

// GetGetOptions returns the request options.
func (a GetActionImpl) GetGetOptions() metav1.GetOptions { return a.GetOptions }

// DeepCopy returns a copy of the action.
func (a GetActionImpl) DeepCopy() Action {
	a.GetOptions = *a.GetOptions.DeepCopy()
	return a
}

// ListActionImpl is a list request.
type ListActionImpl struct {
	ActionImpl
	Kind             schema.GroupVersionKind
	Name             string
	ListRestrictions ListRestrictions
	ListOptions      metav1.ListOptions
}

// GetKind returns the kind of the listed items.
func (a ListActionImpl) GetKind() schema.GroupVersionKind { return a.Kind }

// GetListRestrictions returns the parsed selectors.
func (a ListActionImpl) GetListRestrictions() ListRestrictions { return a.ListRestrictions }

// GetListOptions returns the request options.
func (a ListActionImpl) GetListOptions() metav1.ListOptions { return a.ListOptions }

// DeepCopy returns a copy of the action.
func (a ListActionImpl) DeepCopy() Action {
	a.ListRestrictions = a.ListRestrictions.deepCopy()
	a.ListOptions = *a.ListOptions.DeepCopy()
	return a
}

// CreateActionImpl is a create request (also used for subresource creates such as evictions).
type CreateActionImpl struct {
	ActionImpl
	Name          string
	Object        runtime.Object
	CreateOptions metav1.CreateOptions
}

// GetObject returns the object to create.
func (a CreateActionImpl) GetObject() runtime.Object { return a.Object }

// GetCreateOptions returns the request options.
func (a CreateActionImpl) GetCreateOptions() metav1.CreateOptions { return a.CreateOptions }

// DeepCopy returns a copy of the action.
func (a CreateActionImpl) DeepCopy() Action {
	a.Object = deepCopyObject(a.Object)
	a.CreateOptions = *a.CreateOptions.DeepCopy()
	return a
}

// UpdateActionImpl is an update request on the main resource or a subresource.
type UpdateActionImpl struct {
	ActionImpl
	Object        runtime.Object
	UpdateOptions metav1.UpdateOptions
}

// GetObject returns the new object.
func (a UpdateActionImpl) GetObject() runtime.Object { return a.Object }

// GetUpdateOptions returns the request options.
func (a UpdateActionImpl) GetUpdateOptions() metav1.UpdateOptions { return a.UpdateOptions }

// DeepCopy returns a copy of the action.
func (a UpdateActionImpl) DeepCopy() Action {
	a.Object = deepCopyObject(a.Object)
	a.UpdateOptions = *a.UpdateOptions.DeepCopy()
	return a
}

// PatchActionImpl is a patch or apply request.
type PatchActionImpl struct {
	ActionImpl
	Name         string
	PatchType    types.PatchType
	Patch        []byte
	PatchOptions metav1.PatchOptions
}

// GetName returns the patched object's name.
func (a PatchActionImpl) GetName() string { return a.Name }

// GetPatch returns the patch body.
func (a PatchActionImpl) GetPatch() []byte { return a.Patch }

// GetPatchType returns the patch content type.
func (a PatchActionImpl) GetPatchType() types.PatchType { return a.PatchType }

// GetPatchOptions returns the request options.
func (a PatchActionImpl) GetPatchOptions() metav1.PatchOptions { return a.PatchOptions }

// DeepCopy returns a copy of the action.
func (a PatchActionImpl) DeepCopy() Action {
	a.Patch = append([]byte(nil), a.Patch...)
	a.PatchOptions = *a.PatchOptions.DeepCopy()
	return a
}

// DeleteActionImpl is a delete request.
type DeleteActionImpl struct {
	ActionImpl
	Name          string
	DeleteOptions metav1.DeleteOptions
}

// GetName returns the deleted object's name.
func (a DeleteActionImpl) GetName() string { return a.Name }

// GetDeleteOptions returns the request options.
func (a DeleteActionImpl) GetDeleteOptions() metav1.DeleteOptions { return a.DeleteOptions }

// DeepCopy returns a copy of the action.
func (a DeleteActionImpl) DeepCopy() Action {
	a.DeleteOptions = *a.DeleteOptions.DeepCopy()
	return a
}

// DeleteCollectionActionImpl is a delete-collection request.
type DeleteCollectionActionImpl struct {
	ActionImpl
	ListRestrictions ListRestrictions
	DeleteOptions    metav1.DeleteOptions
	ListOptions      metav1.ListOptions
}

// GetListRestrictions returns the parsed selectors.
func (a DeleteCollectionActionImpl) GetListRestrictions() ListRestrictions {
	return a.ListRestrictions
}

// GetDeleteOptions returns the delete options.
func (a DeleteCollectionActionImpl) GetDeleteOptions() metav1.DeleteOptions { return a.DeleteOptions }

// GetListOptions returns the list options selecting the objects to delete.
func (a DeleteCollectionActionImpl) GetListOptions() metav1.ListOptions { return a.ListOptions }

// DeepCopy returns a copy of the action.
func (a DeleteCollectionActionImpl) DeepCopy() Action {
	a.ListRestrictions = a.ListRestrictions.deepCopy()
	a.DeleteOptions = *a.DeleteOptions.DeepCopy()
	a.ListOptions = *a.ListOptions.DeepCopy()
	return a
}

// WatchActionImpl is a watch request.
type WatchActionImpl struct {
	ActionImpl
	WatchRestrictions WatchRestrictions
	ListOptions       metav1.ListOptions
}

// GetWatchRestrictions returns the parsed selectors and starting resourceVersion.
func (a WatchActionImpl) GetWatchRestrictions() WatchRestrictions { return a.WatchRestrictions }

// GetListOptions returns the request options.
func (a WatchActionImpl) GetListOptions() metav1.ListOptions { return a.ListOptions }

// DeepCopy returns a copy of the action.
func (a WatchActionImpl) DeepCopy() Action {
	r := ListRestrictions{a.WatchRestrictions.Labels, a.WatchRestrictions.Fields}.deepCopy()
	a.WatchRestrictions = WatchRestrictions{r.Labels, r.Fields, a.WatchRestrictions.ResourceVersion}
	a.ListOptions = *a.ListOptions.DeepCopy()
	return a
}

// ProxyGetActionImpl is a proxied GET request.
type ProxyGetActionImpl struct {
	ActionImpl
	Scheme string
	Name   string
	Port   string
	Path   string
	Params map[string]string
}

// GetScheme returns the URL scheme of the proxied request.
func (a ProxyGetActionImpl) GetScheme() string { return a.Scheme }

// GetName returns the proxied pod or service name.
func (a ProxyGetActionImpl) GetName() string { return a.Name }

// GetPort returns the proxied port.
func (a ProxyGetActionImpl) GetPort() string { return a.Port }

// GetPath returns the proxied path.
func (a ProxyGetActionImpl) GetPath() string { return a.Path }

// GetParams returns the query parameters of the proxied request.
func (a ProxyGetActionImpl) GetParams() map[string]string { return a.Params }

// DeepCopy returns a copy of the action.
func (a ProxyGetActionImpl) DeepCopy() Action {
	if a.Params != nil {
		params := make(map[string]string, len(a.Params))
		for k, v := range a.Params {
			params[k] = v
		}
		a.Params = params
	}
	return a
}

func (r ListRestrictions) deepCopy() ListRestrictions {
	if r.Labels != nil {
		r.Labels = r.Labels.DeepCopySelector()
	}
	if r.Fields != nil {
		r.Fields = r.Fields.DeepCopySelector()
	}
	return r
}

func deepCopyObject(obj runtime.Object) runtime.Object {
	if obj == nil {
		return nil
	}
	return obj.DeepCopyObject()
}
