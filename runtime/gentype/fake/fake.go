package fake

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/gentype/internal/applypatch"
	"github.com/kgen-dev/kgen/runtime/testing"
)

// object is what a fake typed client serves: an API object with object metadata.
type object interface {
	runtime.Object
	metav1.Object
}

// namedObject is an apply configuration: comparable (so a nil pointer can be detected) and named.
type namedObject = applypatch.Configuration

// FakeClient is the fake twin of gentype.Client: every verb is recorded as an action on the embedded
// testing.Fake and answered by its reactors. Generated fake clients embed it.
type FakeClient[T object] struct {
	*testing.Fake
	ns        string
	resource  schema.GroupVersionResource
	kind      schema.GroupVersionKind
	newObject func() T
}

// FakeClientWithList is the fake twin of gentype.ClientWithList.
type FakeClientWithList[T object, L runtime.Object] struct {
	*FakeClient[T]
	newList      func() L
	copyListMeta func(dst, src L)
	getItems     func(L) []T
	setItems     func(L, []T)
}

// FakeClientWithApply is the fake twin of gentype.ClientWithApply.
type FakeClientWithApply[T object, C namedObject] struct {
	*FakeClient[T]
}

// FakeClientWithListAndApply is the fake twin of gentype.ClientWithListAndApply.
type FakeClientWithListAndApply[T object, L runtime.Object, C namedObject] struct {
	*FakeClientWithList[T, L]
}

// NewFakeClient returns a fake client for resource recording on fake; namespace is "" for a
// cluster-scoped resource.
func NewFakeClient[T object](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind,
	emptyObjectCreator func() T,
) *FakeClient[T] {
	return &FakeClient[T]{Fake: fake, ns: namespace, resource: resource, kind: kind, newObject: emptyObjectCreator}
}

// NewFakeClientWithList returns a fake client that also lists. The list functions copy list
// metadata and read and write a list's items, so List can filter the items by label selector.
func NewFakeClientWithList[T object, L runtime.Object](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind,
	emptyObjectCreator func() T, emptyListCreator func() L,
	listMetaCopier func(L, L), itemGetter func(L) []T, itemSetter func(L, []T),
) *FakeClientWithList[T, L] {
	return &FakeClientWithList[T, L]{
		FakeClient:   NewFakeClient(fake, namespace, resource, kind, emptyObjectCreator),
		newList:      emptyListCreator,
		copyListMeta: listMetaCopier,
		getItems:     itemGetter,
		setItems:     itemSetter,
	}
}

// NewFakeClientWithApply returns a fake client that also applies configurations of type C.
func NewFakeClientWithApply[T object, C namedObject](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind,
	emptyObjectCreator func() T,
) *FakeClientWithApply[T, C] {
	return &FakeClientWithApply[T, C]{NewFakeClient(fake, namespace, resource, kind, emptyObjectCreator)}
}

// NewFakeClientWithListAndApply returns a fake client that lists and applies.
func NewFakeClientWithListAndApply[T object, L runtime.Object, C namedObject](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind,
	emptyObjectCreator func() T, emptyListCreator func() L,
	listMetaCopier func(L, L), itemGetter func(L) []T, itemSetter func(L, []T),
) *FakeClientWithListAndApply[T, L, C] {
	return &FakeClientWithListAndApply[T, L, C]{NewFakeClientWithList(
		fake, namespace, resource, kind, emptyObjectCreator, emptyListCreator, listMetaCopier, itemGetter, itemSetter)}
}

// ToPointerSlice returns pointers to the elements of src, which it shares; nil stays nil.
func ToPointerSlice[T any](src []T) []*T {
	if src == nil {
		return nil
	}
	out := make([]*T, len(src))
	for i := range src {
		out[i] = &src[i]
	}
	return out
}

// FromPointerSlice returns a slice holding copies of the values src points to; nil stays nil.
func FromPointerSlice[T any](src []*T) []T {
	if src == nil {
		return nil
	}
	out := make([]T, len(src))
	for i, p := range src {
		out[i] = *p
	}
	return out
}

// Namespace returns the namespace the fake client is bound to, "" if none.
func (c *FakeClient[T]) Namespace() string {
	return c.ns
}

// Kind returns the kind of the objects the fake client serves.
func (c *FakeClient[T]) Kind() schema.GroupVersionKind {
	return c.kind
}

// Resource returns the resource the fake client records its actions against.
func (c *FakeClient[T]) Resource() schema.GroupVersionResource {
	return c.resource
}

// Get records a get action and returns the reactors' answer.
func (c *FakeClient[T]) Get(ctx context.Context, name string, options metav1.GetOptions) (T, error) {
	return invoke(c.Fake, testing.NewGetActionWithOptions(c.resource, c.ns, name, options), c.newObject())
}

// Watch records a watch action and returns the watch reactors' answer.
func (c *FakeClient[T]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if _, err := parseSelectors(opts); err != nil {
		return nil, err
	}
	opts.Watch = true
	return c.Fake.InvokesWatch(testing.NewWatchActionWithOptions(c.resource, c.ns, opts))
}

// Create records a create action and returns the reactors' answer.
func (c *FakeClient[T]) Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error) {
	return c.written(ctx, nil)(invoke(c.Fake, testing.NewCreateActionWithOptions(c.resource, c.ns, obj, opts), c.newObject()))
}

// Update records an update action and returns the reactors' answer.
func (c *FakeClient[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return c.written(ctx, nil)(invoke(c.Fake, testing.NewUpdateActionWithOptions(c.resource, c.ns, obj, opts), c.newObject()))
}

// UpdateStatus records an update action on the status subresource and returns the reactors' answer.
func (c *FakeClient[T]) UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	action := testing.NewUpdateSubresourceActionWithOptions(c.resource, "status", c.ns, obj, opts)
	return c.written(ctx, []string{"status"})(invoke(c.Fake, action, c.newObject()))
}

// Delete records a delete action and returns the reactors' error.
func (c *FakeClient[T]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	deleted, err := c.Fake.Invokes(testing.NewDeleteActionWithOptions(c.resource, c.ns, name, opts), c.newObject())
	if err != nil {
		return err
	}
	if rec := consistency.RecorderFrom(ctx); rec != nil {
		var response metav1.Object
		if obj, ok := deleted.(T); ok {
			response = obj
		}
		rec.RecordDelete(c.resource.GroupResource(), c.ns, name, consistency.PreconditionUID(opts), response)
	}
	return nil
}

// Patch records a patch action, on the given subresource if any, and returns the reactors' answer.
func (c *FakeClient[T]) Patch(
	ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string,
) (T, error) {
	action := testing.NewPatchSubresourceActionWithOptions(c.resource, c.ns, name, pt, data, opts, subresources...)
	return c.written(ctx, subresources)(invoke(c.Fake, action, c.newObject()))
}

// List records a list action and returns the reactors' answer, keeping only the items that
// match the label selector of opts.
func (c *FakeClientWithList[T, L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	selector, err := parseSelectors(opts)
	if err != nil {
		return c.newList(), err
	}
	list, err := invoke(c.Fake, testing.NewListActionWithOptions(c.resource, c.kind, c.ns, opts), c.newList())
	if err != nil || selector.Empty() {
		return list, err
	}
	all := c.getItems(list)
	items := make([]T, 0, len(all))
	for _, item := range all {
		if selector.Matches(labels.Set(item.GetLabels())) {
			items = append(items, item)
		}
	}
	if len(items) == len(all) {
		return list, nil
	}
	filtered := c.newList()
	c.copyListMeta(filtered, list)
	c.setItems(filtered, items)
	return filtered, nil
}

// DeleteCollection records a delete-collection action and returns the reactors' error.
func (c *FakeClientWithList[T, L]) DeleteCollection(
	ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions,
) error {
	if _, err := parseSelectors(listOpts); err != nil {
		return err
	}
	action := testing.NewDeleteCollectionActionWithOptions(c.resource, c.ns, opts, listOpts)
	_, err := c.Fake.Invokes(action, c.newList())
	return err
}

// Apply records an apply patch action and returns the reactors' answer.
func (c *FakeClientWithApply[T, C]) Apply(ctx context.Context, configuration C, opts metav1.ApplyOptions) (T, error) {
	return fakeApply(ctx, c.FakeClient, configuration, opts)
}

// ApplyStatus records an apply patch action on the status subresource and returns the reactors' answer.
func (c *FakeClientWithApply[T, C]) ApplyStatus(
	ctx context.Context, configuration C, opts metav1.ApplyOptions,
) (T, error) {
	return fakeApply(ctx, c.FakeClient, configuration, opts, "status")
}

// Apply records an apply patch action and returns the reactors' answer.
func (c *FakeClientWithListAndApply[T, L, C]) Apply(
	ctx context.Context, configuration C, opts metav1.ApplyOptions,
) (T, error) {
	return fakeApply(ctx, c.FakeClient, configuration, opts)
}

// ApplyStatus records an apply patch action on the status subresource and returns the reactors' answer.
func (c *FakeClientWithListAndApply[T, L, C]) ApplyStatus(
	ctx context.Context, configuration C, opts metav1.ApplyOptions,
) (T, error) {
	return fakeApply(ctx, c.FakeClient, configuration, opts, "status")
}

// fakeApply checks configuration like the real client does and records it as an apply patch.
func fakeApply[T object, C namedObject](
	ctx context.Context, c *FakeClient[T], configuration C, opts metav1.ApplyOptions, subresources ...string,
) (T, error) {
	name, data, patchOpts, err := applypatch.Build(configuration, opts)
	if err != nil {
		var zero T
		return zero, err
	}
	action := testing.NewPatchSubresourceActionWithOptions(
		c.resource, c.ns, name, types.ApplyPatchType, data, patchOpts, subresources...)
	return c.written(ctx, subresources)(invoke(c.Fake, action, c.newObject()))
}

// invoke runs action through the fake's reactors and returns their object as an R, or empty
// when they returned none; an object of another type is an error, not a panic.
// written returns a function that passes a write's result through, first recording a successful
// write of the object or its status in the context's consistency.Recorder, as the real client does.
func (c *FakeClient[T]) written(ctx context.Context, subresources []string) func(T, error) (T, error) {
	return func(obj T, err error) (T, error) {
		if err == nil && consistency.RecordsSubresource(subresources) {
			if rec := consistency.RecorderFrom(ctx); rec != nil {
				rec.Record(c.resource.GroupResource(), obj)
			}
		}
		return obj, err
	}
}

func invoke[R runtime.Object](fake *testing.Fake, action testing.Action, empty R) (R, error) {
	obj, err := fake.Invokes(action, empty)
	if obj == nil {
		return empty, err
	}
	typed, ok := obj.(R)
	if !ok {
		return empty, fmt.Errorf("reactor for %s %s returned %T, want %T",
			action.GetVerb(), action.GetResource().Resource, obj, empty)
	}
	return typed, err
}

// parseSelectors checks the selectors of opts like the server does and returns the label selector.
func parseSelectors(opts metav1.ListOptions) (labels.Selector, error) {
	selector, err := labels.Parse(opts.LabelSelector)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid label selector %q: %v", opts.LabelSelector, err))
	}
	if _, err := fields.ParseSelector(opts.FieldSelector); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid field selector %q: %v", opts.FieldSelector, err))
	}
	return selector, nil
}
