package v1

import "github.com/kgen-dev/kgen/runtime/rest"

// ServiceExpansion holds the Service calls that are not plain verbs.
type ServiceExpansion interface {
	// ProxyGet returns a GET through the API server's proxy to port of the service name, at path.
	ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper
}

// ProxyGet returns a GET of path on port of the service name, through the API server's proxy.
func (c *services) ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper {
	return proxyGet(c.GetClient(), c.GetNamespace(), "services", scheme, name, port, path, params)
}
