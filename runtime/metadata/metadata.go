// Package metadata is a client that reads and writes only object metadata (PartialObjectMetadata), so
// controllers that need names, labels, owners or finalizers of many objects keep little in memory. Its
// surface mirrors client-go's metadata package.
package metadata

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// Interface gives metadata-only access to any resource.
type Interface interface {
	// Resource returns a client for resource.
	Resource(resource schema.GroupVersionResource) Getter
}

// ResourceInterface performs metadata-only verbs on one resource.
type ResourceInterface interface {
	// Delete deletes the named object.
	Delete(ctx context.Context, name string, options metav1.DeleteOptions, subresources ...string) error
	// DeleteCollection deletes the objects selected by listOptions.
	DeleteCollection(ctx context.Context, options metav1.DeleteOptions, listOptions metav1.ListOptions) error
	// Get returns the named object.
	Get(ctx context.Context, name string, options metav1.GetOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
	// List returns the objects selected by opts.
	List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error)
	// Watch streams changes to the objects selected by opts.
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	// Patch applies a patch of type pt to the named object.
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, options metav1.PatchOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
}

// Getter is a ResourceInterface that can be narrowed to a namespace.
type Getter interface {
	// Namespace returns a client for the resource in namespace ns.
	Namespace(ns string) ResourceInterface
	ResourceInterface
}

var (
	versionV1 = schema.GroupVersion{Version: "v1"}
	scheme    = func() *runtime.Scheme {
		s := runtime.NewScheme()
		metav1.AddToGroupVersion(s, versionV1)
		metav1.AddMetaToScheme(s)
		return s
	}()
	codecs         = serializer.NewCodecFactory(scheme)
	parameterCodec = runtime.NewParameterCodec(scheme)
)

// Accept headers asking the server to answer with metadata only, protobuf first.
const (
	acceptObject = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	acceptList   = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
)

// Client implements Interface.
type Client struct {
	client rest.Interface
}

var _ Interface = (*Client)(nil)

// ConfigFor returns a copy of inConfig set up for metadata requests.
func ConfigFor(inConfig *rest.Config) *rest.Config {
	config := rest.CopyConfig(inConfig)
	config.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	config.ContentType = runtime.ContentTypeJSON
	config.APIPath = ""
	config.GroupVersion = &schema.GroupVersion{}
	config.NegotiatedSerializer = codecs.WithoutConversion()
	return config
}

// New returns a metadata client over c, which must be configured as ConfigFor does.
func New(c rest.Interface) *Client { return &Client{client: c} }

// NewForConfig returns a metadata client for inConfig.
func NewForConfig(inConfig *rest.Config) (Interface, error) {
	httpClient, err := rest.HTTPClientFor(ConfigFor(inConfig))
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(inConfig, httpClient)
}

// NewForConfigAndClient returns a metadata client for inConfig sending requests with h.
func NewForConfigAndClient(inConfig *rest.Config, h *http.Client) (Interface, error) {
	restClient, err := rest.UnversionedRESTClientForConfigAndClient(ConfigFor(inConfig), h)
	if err != nil {
		return nil, err
	}
	return New(restClient), nil
}

// NewForConfigOrDie is NewForConfig that panics on a bad config.
func NewForConfigOrDie(c *rest.Config) Interface {
	client, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return client
}

// Resource returns a client for resource.
func (c *Client) Resource(resource schema.GroupVersionResource) Getter {
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

func requireName(name, verb string) error {
	if name == "" {
		return fmt.Errorf("name is required to %s a resource", verb)
	}
	return nil
}

// decodeObject decodes a PartialObjectMetadata and rejects full objects from servers that ignored the request.
func decodeObject(result rest.Result) (*metav1.PartialObjectMetadata, error) {
	obj, err := result.Get()
	if err != nil {
		return nil, err
	}
	m, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		return nil, fmt.Errorf("expected PartialObjectMetadata from the server, got %T", obj)
	}
	return m, nil
}

func (c *resourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	if err := requireName(name, "get"); err != nil {
		return nil, err
	}
	return decodeObject(c.client.Get().AbsPath(c.path(name, subresources...)).SetHeader("Accept", acceptObject).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).Do(ctx))
}

func (c *resourceClient) List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	obj, err := c.client.Get().AbsPath(c.path("")).SetHeader("Accept", acceptList).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).Do(ctx).Get()
	if err != nil {
		return nil, err
	}
	list, ok := obj.(*metav1.PartialObjectMetadataList)
	if !ok {
		return nil, fmt.Errorf("expected PartialObjectMetadataList from the server, got %T", obj)
	}
	return list, nil
}

func (c *resourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.client.Get().AbsPath(c.path("")).SetHeader("Accept", acceptObject).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).Watch(ctx)
}

func (c *resourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	if err := requireName(name, "delete"); err != nil {
		return err
	}
	body, err := json.Marshal(&opts)
	if err != nil {
		return err
	}
	return c.client.Delete().AbsPath(c.path(name, subresources...)).SetHeader("Content-Type", runtime.ContentTypeJSON).Body(body).Do(ctx).Error()
}

func (c *resourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOptions metav1.ListOptions) error {
	body, err := json.Marshal(&opts)
	if err != nil {
		return err
	}
	return c.client.Delete().AbsPath(c.path("")).SetHeader("Content-Type", runtime.ContentTypeJSON).Body(body).
		SpecificallyVersionedParams(&listOptions, parameterCodec, versionV1).Do(ctx).Error()
}

func (c *resourceClient) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	if err := requireName(name, "patch"); err != nil {
		return nil, err
	}
	return decodeObject(c.client.Patch(pt).AbsPath(c.path(name, subresources...)).SetHeader("Accept", acceptObject).Body(data).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).Do(ctx))
}
