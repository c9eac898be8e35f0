package fake

import (
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/testing"
)

// ProxyGet records a proxy get action and returns the reactors' response.
func (c *fakeServices) ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper {
	return c.Fake.InvokesProxy(testing.NewProxyGetAction(c.Resource(), c.Namespace(), scheme, name, port, path, params))
}
