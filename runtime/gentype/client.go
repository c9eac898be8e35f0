package gentype

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/gentype/internal/applypatch"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// object is what a typed client serves: an API object with object metadata.
type object interface {
	runtime.Object
	metav1.Object
}

// namedObject is an apply configuration: comparable (so a nil pointer can be detected) and named.
type namedObject = applypatch.Configuration

// Client is a typed client for one resource, namespaced or cluster-scoped, serving the
// single-object verbs. Generated clients embed it when the type has no list or apply verbs.
type Client[T object] struct {
	resource        string
	client          rest.Interface
	namespace       string // "" for cluster-scoped resources and for all namespaces
	newObject       func() T
	parameterCodec  runtime.ParameterCodec
	prefersProtobuf bool
}

// ClientWithList is a Client that also lists and deletes collections.
type ClientWithList[T object, L runtime.Object] struct {
	*Client[T]
	newList func() L
}

// ClientWithApply is a Client that also applies server-side apply configurations.
type ClientWithApply[T object, C namedObject] struct {
	*Client[T]
}

// ClientWithListAndApply is a Client that lists, deletes collections and applies.
type ClientWithListAndApply[T object, L runtime.Object, C namedObject] struct {
	*ClientWithList[T, L]
}

// Option configures a Client at construction.
type Option[T object] func(*Client[T])

// PrefersProtobuf makes the client ask for protobuf when the REST client's configuration
// allows it; generated clients pass it for built-in types that have a protobuf encoding.
func PrefersProtobuf[T object]() Option[T] {
	return func(c *Client[T]) { c.prefersProtobuf = true }
}

// NewClient returns a client for resource; namespace is "" for a cluster-scoped resource.
func NewClient[T object](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string,
	emptyObjectCreator func() T, options ...Option[T],
) *Client[T] {
	c := &Client[T]{
		resource:       resource,
		client:         client,
		namespace:      namespace,
		newObject:      emptyObjectCreator,
		parameterCodec: parameterCodec,
	}
	for _, option := range options {
		option(c)
	}
	return c
}

// NewClientWithList returns a client for resource that also lists; emptyListCreator makes the
// list the server's response is decoded into.
func NewClientWithList[T object, L runtime.Object](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string,
	emptyObjectCreator func() T, emptyListCreator func() L, options ...Option[T],
) *ClientWithList[T, L] {
	return &ClientWithList[T, L]{
		Client:  NewClient(resource, client, parameterCodec, namespace, emptyObjectCreator, options...),
		newList: emptyListCreator,
	}
}

// NewClientWithApply returns a client for resource that also applies configurations of type C.
func NewClientWithApply[T object, C namedObject](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string,
	emptyObjectCreator func() T, options ...Option[T],
) *ClientWithApply[T, C] {
	return &ClientWithApply[T, C]{NewClient(resource, client, parameterCodec, namespace, emptyObjectCreator, options...)}
}

// NewClientWithListAndApply returns a client for resource that lists and applies.
func NewClientWithListAndApply[T object, L runtime.Object, C namedObject](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string,
	emptyObjectCreator func() T, emptyListCreator func() L, options ...Option[T],
) *ClientWithListAndApply[T, L, C] {
	return &ClientWithListAndApply[T, L, C]{
		NewClientWithList(resource, client, parameterCodec, namespace, emptyObjectCreator, emptyListCreator, options...),
	}
}

// GetClient returns the REST client, for the bodies of generated extension verbs.
func (c *Client[T]) GetClient() rest.Interface {
	return c.client
}

// GetNamespace returns the namespace the client is bound to, "" if none.
func (c *Client[T]) GetNamespace() string {
	return c.namespace
}

// Get returns the object called name.
func (c *Client[T]) Get(ctx context.Context, name string, options metav1.GetOptions) (T, error) {
	return c.into(ctx, c.request(c.client.Get()).
		Name(name).
		VersionedParams(&options, c.parameterCodec))
}

// Watch starts a watch on the resource's objects that match opts.
func (c *Client[T]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.request(c.client.Get()).
		VersionedParams(&opts, c.parameterCodec).
		Timeout(timeoutOf(opts)).
		Watch(ctx)
}

// Create creates obj and returns the server's representation of it.
func (c *Client[T]) Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error) {
	return c.write(ctx, c.request(c.client.Post()).
		VersionedParams(&opts, c.parameterCodec).
		Body(obj))
}

// Update replaces obj and returns the server's representation of it.
func (c *Client[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return c.write(ctx, c.request(c.client.Put()).
		Name(obj.GetName()).
		VersionedParams(&opts, c.parameterCodec).
		Body(obj))
}

// UpdateStatus replaces the status subresource of obj and returns the server's representation of it.
func (c *Client[T]) UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return c.write(ctx, c.request(c.client.Put()).
		Name(obj.GetName()).
		SubResource("status").
		VersionedParams(&opts, c.parameterCodec).
		Body(obj))
}

// Delete deletes the object called name.
func (c *Client[T]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	result := c.request(c.client.Delete()).
		Name(name).
		Body(&opts).
		Do(ctx)
	if err := result.Error(); err != nil {
		return err
	}
	if rec := consistency.RecorderFrom(ctx); rec != nil {
		// The server answers with the object (deleted, or marked for deletion) or a Status.
		var deleted metav1.Object
		if response, err := result.Get(); err == nil {
			if obj, ok := response.(T); ok {
				deleted = obj
			}
		}
		rec.RecordDelete(c.groupResource(), c.namespace, name, consistency.PreconditionUID(opts), deleted)
	}
	return nil
}

// Patch patches the object called name, or the given subresource of it, and returns the result.
func (c *Client[T]) Patch(
	ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string,
) (T, error) {
	return c.writeSubresource(ctx, subresources, c.request(c.client.Patch(pt)).
		Name(name).
		SubResource(subresources...).
		VersionedParams(&opts, c.parameterCodec).
		Body(data))
}

// List returns the resource's objects that match opts.
func (c *ClientWithList[T, L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	list := c.newList()
	err := c.request(c.client.Get()).
		VersionedParams(&opts, c.parameterCodec).
		Timeout(timeoutOf(opts)).
		DoInto(ctx, list)
	return list, err
}

// DeleteCollection deletes the resource's objects that match listOpts.
func (c *ClientWithList[T, L]) DeleteCollection(
	ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions,
) error {
	return c.request(c.client.Delete()).
		VersionedParams(&listOpts, c.parameterCodec).
		Timeout(timeoutOf(listOpts)).
		Body(&opts).
		Do(ctx).
		Error()
}

// Apply applies configuration with server-side apply and returns the resulting object.
func (c *ClientWithApply[T, C]) Apply(ctx context.Context, configuration C, opts metav1.ApplyOptions) (T, error) {
	return apply(ctx, c.Client, configuration, opts)
}

// ApplyStatus applies configuration to the status subresource and returns the resulting object.
func (c *ClientWithApply[T, C]) ApplyStatus(ctx context.Context, configuration C, opts metav1.ApplyOptions) (T, error) {
	return apply(ctx, c.Client, configuration, opts, "status")
}

// Apply applies configuration with server-side apply and returns the resulting object.
func (c *ClientWithListAndApply[T, L, C]) Apply(ctx context.Context, configuration C, opts metav1.ApplyOptions) (T, error) {
	return apply(ctx, c.Client, configuration, opts)
}

// ApplyStatus applies configuration to the status subresource and returns the resulting object.
func (c *ClientWithListAndApply[T, L, C]) ApplyStatus(
	ctx context.Context, configuration C, opts metav1.ApplyOptions,
) (T, error) {
	return apply(ctx, c.Client, configuration, opts, "status")
}

// apply sends configuration as an apply patch to the object it names, or to its subresource.
func apply[T object, C namedObject](
	ctx context.Context, c *Client[T], configuration C, opts metav1.ApplyOptions, subresources ...string,
) (T, error) {
	name, data, patchOpts, err := applypatch.Build(configuration, opts)
	if err != nil {
		var zero T
		return zero, err
	}
	return c.writeSubresource(ctx, subresources, c.request(c.client.Patch(types.ApplyPatchType)).
		Name(name).
		SubResource(subresources...).
		VersionedParams(&patchOpts, c.parameterCodec).
		Body(data))
}

// request scopes r to the client's resource and namespace and sets its encoding preference.
func (c *Client[T]) request(r *rest.Request) *rest.Request {
	return r.UseProtobufAsDefaultIfPreferred(c.prefersProtobuf).
		NamespaceIfScoped(c.namespace, c.namespace != "").
		Resource(c.resource)
}

// into sends r and decodes the response into a new object; on error the object is empty.
func (c *Client[T]) into(ctx context.Context, r *rest.Request) (T, error) {
	result := c.newObject()
	err := r.Do(ctx).Into(result)
	return result, err
}

// write sends r, a write of one object, decodes the response as into does and records the result in
// the context's consistency.Recorder, if any.
func (c *Client[T]) write(ctx context.Context, r *rest.Request) (T, error) {
	return c.writeSubresource(ctx, nil, r)
}

// writeSubresource is write for a write of the given subresource of an object: the result is recorded
// only when it is the object itself (no subresource, or its status).
func (c *Client[T]) writeSubresource(ctx context.Context, subresources []string, r *rest.Request) (T, error) {
	result, err := c.into(ctx, r)
	if err == nil && consistency.RecordsSubresource(subresources) {
		if rec := consistency.RecorderFrom(ctx); rec != nil {
			rec.Record(c.groupResource(), result)
		}
	}
	return result, err
}

// groupResource is the group and resource the client serves.
func (c *Client[T]) groupResource() schema.GroupResource {
	return schema.GroupResource{Group: c.client.APIVersion().Group, Resource: c.resource}
}

// timeoutOf turns the server-side timeout of a list or watch into a client-side request timeout.
func timeoutOf(opts metav1.ListOptions) time.Duration {
	if opts.TimeoutSeconds == nil {
		return 0
	}
	return time.Duration(*opts.TimeoutSeconds) * time.Second
}
