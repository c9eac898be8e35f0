package fake

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/testing"
)

// Bind records a create action on the pod's binding subresource.
func (c *fakePods) Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error {
	_, err := c.Fake.Invokes(testing.NewCreateSubresourceActionWithOptions(c.Resource(), binding.Name, "binding", c.Namespace(), binding, opts), binding)
	return err
}

// Evict records a create action on the pod's eviction subresource.
func (c *fakePods) Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.EvictV1beta1(ctx, eviction)
}

// EvictV1 records a create action on the pod's eviction subresource.
func (c *fakePods) EvictV1(ctx context.Context, eviction *policyv1.Eviction) error {
	return c.evict(eviction.Name, eviction)
}

// EvictV1beta1 records a create action on the pod's eviction subresource.
func (c *fakePods) EvictV1beta1(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.evict(eviction.Name, eviction)
}

func (c *fakePods) evict(name string, eviction runtime.Object) error {
	_, err := c.Fake.Invokes(testing.NewCreateSubresourceAction(c.Resource(), name, "eviction", c.Namespace(), eviction), eviction)
	return err
}

// GetLogs records a get action on the pod's log subresource (opts is the action's value) and returns
// a request whose response is "fake logs", or the Raw bytes of a *runtime.Unknown a reactor returns.
func (c *fakePods) GetLogs(name string, opts *corev1.PodLogOptions) *rest.Request {
	action := testing.GenericActionImpl{ActionImpl: testing.ActionImpl{
		Verb: "get", Namespace: c.Namespace(), Resource: c.Resource(), Subresource: "log"}, Value: opts}
	fallback := &runtime.Unknown{Raw: []byte("fake logs")}
	logs := fallback.Raw
	obj, err := c.Fake.Invokes(action, fallback)
	if err == nil {
		if unknown, ok := obj.(*runtime.Unknown); ok && unknown != nil {
			logs = unknown.Raw
		} else {
			err = fmt.Errorf("fake Pods.GetLogs: a reactor returned %T, want *runtime.Unknown", obj)
		}
	}
	respond := roundTripFunc(func(*http.Request) (*http.Response, error) {
		if err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/plain"}},
			Body: io.NopCloser(bytes.NewReader(logs))}, nil
	})
	base := &url.URL{Scheme: "http", Host: "fake"}
	path := fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/log", c.Namespace(), name)
	content := rest.ClientContentConfig{GroupVersion: c.Kind().GroupVersion(),
		Negotiator: runtime.NewClientNegotiator(scheme.Codecs.WithoutConversion(), c.Kind().GroupVersion())}
	return rest.NewRequestWithClient(base, path, content, &http.Client{Transport: respond})
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// ProxyGet records a proxy get action and returns the reactors' response.
func (c *fakePods) ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper {
	return c.Fake.InvokesProxy(testing.NewProxyGetAction(c.Resource(), c.Namespace(), scheme, name, port, path, params))
}
