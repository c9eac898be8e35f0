package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/net"

	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// PodExpansion holds the Pod calls that are not plain verbs: binding to a node, eviction, logs and
// the proxy subresource.
type PodExpansion interface {
	// Bind assigns the pod binding.Name to the node binding.Target names, as a scheduler does.
	Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error
	// Evict asks to evict a pod, honouring its disruption budgets.
	//
	// Deprecated: use EvictV1, or EvictV1beta1 for servers older than 1.22.
	Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error
	// EvictV1 asks to evict the pod eviction.Name, honouring its disruption budgets.
	EvictV1(ctx context.Context, eviction *policyv1.Eviction) error
	// EvictV1beta1 is EvictV1 with a policy/v1beta1 Eviction.
	EvictV1beta1(ctx context.Context, eviction *policyv1beta1.Eviction) error
	// GetLogs returns the request for a pod's logs; call Stream or DoRaw on it.
	GetLogs(name string, opts *corev1.PodLogOptions) *rest.Request
	// ProxyGet returns a GET through the API server's proxy to port of the pod name, at path.
	ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper
}

// Bind posts binding to the pod's binding subresource.
func (c *pods) Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error {
	return c.GetClient().Post().Namespace(c.GetNamespace()).Resource("pods").Name(binding.Name).
		SubResource("binding").VersionedParams(&opts, scheme.ParameterCodec).Body(binding).Do(ctx).Error()
}

// Evict posts eviction to the pod's eviction subresource.
func (c *pods) Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.evict(ctx, eviction.Name, eviction)
}

// EvictV1 posts eviction to the pod's eviction subresource.
func (c *pods) EvictV1(ctx context.Context, eviction *policyv1.Eviction) error {
	return c.evict(ctx, eviction.Name, eviction)
}

// EvictV1beta1 posts eviction to the pod's eviction subresource.
func (c *pods) EvictV1beta1(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.evict(ctx, eviction.Name, eviction)
}

func (c *pods) evict(ctx context.Context, name string, eviction any) error {
	return c.GetClient().Post().Namespace(c.GetNamespace()).Resource("pods").Name(name).
		SubResource("eviction").Body(eviction).Do(ctx).Error()
}

// GetLogs returns the request for the log subresource of the pod name.
func (c *pods) GetLogs(name string, opts *corev1.PodLogOptions) *rest.Request {
	return c.GetClient().Get().Namespace(c.GetNamespace()).Resource("pods").Name(name).
		SubResource("log").VersionedParams(opts, scheme.ParameterCodec)
}

// ProxyGet returns a GET of path on port of the pod name, through the API server's proxy.
func (c *pods) ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper {
	return proxyGet(c.GetClient(), c.GetNamespace(), "pods", scheme, name, port, path, params)
}

// proxyGet builds a GET through the proxy subresource of a pod or service.
func proxyGet(client rest.Interface, namespace, resource, scheme, name, port, path string, params map[string]string) *rest.Request {
	req := client.Get().Namespace(namespace).Resource(resource).SubResource("proxy").
		Name(net.JoinSchemeNamePort(scheme, name, port)).Suffix(path)
	for k, v := range params {
		req = req.Param(k, v)
	}
	return req
}
