package dynamic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// DynamicClient implements Interface over a REST client.
type DynamicClient struct {
	client rest.Interface
}

var _ Interface = (*DynamicClient)(nil)

// ConfigFor returns a copy of inConfig set up for unstructured JSON.
func ConfigFor(inConfig *rest.Config) *rest.Config {
	config := rest.CopyConfig(inConfig)
	config.ContentType = runtime.ContentTypeJSON
	config.AcceptContentTypes = runtime.ContentTypeJSON
	config.APIPath = ""
	config.GroupVersion = &schema.GroupVersion{}
	config.NegotiatedSerializer = negotiatedSerializer{}
	if config.UserAgent == "" {
		config.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	return config
}

// New returns a DynamicClient over c, which must be configured as ConfigFor does.
func New(c rest.Interface) *DynamicClient { return &DynamicClient{client: c} }

// NewForConfig returns a DynamicClient for inConfig.
func NewForConfig(inConfig *rest.Config) (*DynamicClient, error) {
	config := ConfigFor(inConfig)
	httpClient, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(inConfig, httpClient)
}

// NewForConfigAndClient returns a DynamicClient for inConfig sending requests with h.
func NewForConfigAndClient(inConfig *rest.Config, h *http.Client) (*DynamicClient, error) {
	restClient, err := rest.UnversionedRESTClientForConfigAndClient(ConfigFor(inConfig), h)
	if err != nil {
		return nil, err
	}
	return New(restClient), nil
}

// NewForConfigOrDie is NewForConfig that panics on a bad config.
func NewForConfigOrDie(c *rest.Config) *DynamicClient {
	client, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return client
}

// Resource returns a client for resource.
func (c *DynamicClient) Resource(resource schema.GroupVersionResource) NamespaceableResourceInterface {
	return &resourceClient{client: c.client, resource: resource}
}

type resourceClient struct {
	client    rest.Interface
	resource  schema.GroupVersionResource
	namespace string
}

func (c *resourceClient) Namespace(ns string) ResourceInterface {
	out := *c
	out.namespace = ns
	return &out
}

// path is the request path of the client's resource in its namespace, of name and its subresources.
func (c *resourceClient) path(name string, subresources ...string) string {
	return rest.ResourcePath(c.resource, c.namespace, name, subresources...)
}

func validateName(name, verb string) error {
	if name == "" {
		return fmt.Errorf("name is required to %s a resource", verb)
	}
	return nil
}

func decodeUnstructured(data []byte) (*unstructured.Unstructured, error) {
	obj, err := runtime.Decode(unstructured.UnstructuredJSONScheme, data)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("expected an object, got %T", obj)
	}
	return u, nil
}

// written decodes raw, the server's answer to a write of one object or of the given subresource of it,
// and records the object in the context's consistency.Recorder, if any, when the answer is the object
// itself (no subresource, or its status).
func (c *resourceClient) written(ctx context.Context, raw []byte, subresources []string) (*unstructured.Unstructured, error) {
	obj, err := decodeUnstructured(raw)
	if err == nil && consistency.RecordsSubresource(subresources) {
		if rec := consistency.RecorderFrom(ctx); rec != nil {
			rec.Record(c.resource.GroupResource(), obj)
		}
	}
	return obj, err
}

func (c *resourceClient) Create(ctx context.Context, obj *unstructured.Unstructured, opts metav1.CreateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	name := ""
	if len(subresources) > 0 {
		name = obj.GetName()
		if err := validateName(name, "create a subresource of"); err != nil {
			return nil, err
		}
	}
	raw, err := c.client.Post().AbsPath(c.path(name, subresources...)).Body(obj).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return c.written(ctx, raw, subresources)
}

func (c *resourceClient) Update(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	name := obj.GetName()
	if err := validateName(name, "update"); err != nil {
		return nil, err
	}
	raw, err := c.client.Put().AbsPath(c.path(name, subresources...)).Body(obj).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return c.written(ctx, raw, subresources)
}

func (c *resourceClient) UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions) (*unstructured.Unstructured, error) {
	return c.Update(ctx, obj, opts, "status")
}

func (c *resourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	if err := validateName(name, "delete"); err != nil {
		return err
	}
	body, err := json.Marshal(&opts)
	if err != nil {
		return err
	}
	result := c.client.Delete().AbsPath(c.path(name, subresources...)).Body(body).Do(ctx)
	if err := result.Error(); err != nil {
		return err
	}
	if rec := consistency.RecorderFrom(ctx); rec != nil && len(subresources) == 0 {
		// The server answers with the object (deleted, or marked for deletion) or a Status.
		var deleted metav1.Object
		if raw, err := result.Raw(); err == nil {
			if u, err := decodeUnstructured(raw); err == nil && u.GetKind() != "Status" {
				deleted = u
			}
		}
		rec.RecordDelete(c.resource.GroupResource(), c.namespace, name, consistency.PreconditionUID(opts), deleted)
	}
	return nil
}

func (c *resourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOptions metav1.ListOptions) error {
	body, err := json.Marshal(&opts)
	if err != nil {
		return err
	}
	return c.client.Delete().AbsPath(c.path("")).Body(body).
		SpecificallyVersionedParams(&listOptions, parameterCodec, versionV1).Do(ctx).Error()
}

func (c *resourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if err := validateName(name, "get"); err != nil {
		return nil, err
	}
	raw, err := c.client.Get().AbsPath(c.path(name, subresources...)).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return decodeUnstructured(raw)
}

func (c *resourceClient) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	raw, err := c.client.Get().AbsPath(c.path("")).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	obj, err := runtime.Decode(unstructured.UnstructuredJSONScheme, raw)
	if err != nil {
		return nil, err
	}
	switch t := obj.(type) {
	case *unstructured.UnstructuredList:
		return t, nil
	case *unstructured.Unstructured:
		return t.ToList()
	default:
		return nil, fmt.Errorf("expected a list, got %T", obj)
	}
}

func (c *resourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.client.Get().AbsPath(c.path("")).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).Watch(ctx)
}

func (c *resourceClient) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if err := validateName(name, "patch"); err != nil {
		return nil, err
	}
	raw, err := c.client.Patch(pt).AbsPath(c.path(name, subresources...)).Body(data).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return c.written(ctx, raw, subresources)
}

func (c *resourceClient) Apply(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if err := validateName(name, "apply"); err != nil {
		return nil, err
	}
	if opts.FieldManager == "" {
		return nil, fmt.Errorf("a field manager is required to apply a resource")
	}
	body, err := runtime.Encode(unstructured.UnstructuredJSONScheme, obj)
	if err != nil {
		return nil, err
	}
	patchOpts := opts.ToPatchOptions()
	return c.Patch(ctx, name, types.ApplyPatchType, body, patchOpts, subresources...)
}

func (c *resourceClient) ApplyStatus(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions) (*unstructured.Unstructured, error) {
	return c.Apply(ctx, name, obj, opts, "status")
}
