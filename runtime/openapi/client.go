// Package openapi reads an API server's OpenAPI v3 documents: the index at /openapi/v3 lists one
// document per group version, each fetched on demand in the content type asked for. Its surface
// mirrors client-go's openapi package; runtime/openapi3 parses the documents.
package openapi

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// Client lists the OpenAPI v3 documents a server publishes.
type Client interface {
	// Paths returns the documents by path, such as "api/v1" or "apis/apps/v1".
	Paths() (map[string]GroupVersion, error)
}

// ClientWithContext is Client with methods that honour a context.
type ClientWithContext interface {
	// PathsWithContext returns the documents by path, such as "api/v1" or "apis/apps/v1".
	PathsWithContext(ctx context.Context) (map[string]GroupVersionWithContext, error)
}

// client reads /openapi/v3 through a REST client.
type client struct {
	restClient rest.Interface
}

// NewClient returns a Client that reads the documents through restClient.
func NewClient(restClient rest.Interface) Client { return &client{restClient: restClient} }

// NewClientWithContext returns a ClientWithContext that reads the documents through restClient.
func NewClientWithContext(restClient rest.Interface) ClientWithContext {
	return &client{restClient: restClient}
}

// ToClientWithContext returns c itself when it honours contexts, or else a wrapper whose
// methods ignore the context; nil stays nil.
func ToClientWithContext(c Client) ClientWithContext {
	if c == nil {
		return nil
	}
	if cc, ok := c.(ClientWithContext); ok {
		return cc
	}
	return clientWrapper{c}
}

type clientWrapper struct{ Client }

func (w clientWrapper) PathsWithContext(context.Context) (map[string]GroupVersionWithContext, error) {
	paths, err := w.Paths()
	if err != nil {
		return nil, err
	}
	out := make(map[string]GroupVersionWithContext, len(paths))
	for k, gv := range paths {
		out[k] = ToGroupVersionWithContext(gv)
	}
	return out, nil
}

// discoveryDocument is the index the server serves at /openapi/v3.
type discoveryDocument struct {
	Paths map[string]struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	} `json:"paths"`
}

// Paths returns the documents the server lists.
func (c *client) Paths() (map[string]GroupVersion, error) {
	paths, err := c.paths(context.Background())
	if err != nil {
		return nil, err
	}
	out := make(map[string]GroupVersion, len(paths))
	for k, gv := range paths {
		out[k] = gv
	}
	return out, nil
}

// PathsWithContext returns the documents the server lists.
func (c *client) PathsWithContext(ctx context.Context) (map[string]GroupVersionWithContext, error) {
	paths, err := c.paths(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]GroupVersionWithContext, len(paths))
	for k, gv := range paths {
		out[k] = gv
	}
	return out, nil
}

func (c *client) paths(ctx context.Context) (map[string]*groupVersion, error) {
	body, err := c.restClient.Get().AbsPath("/openapi/v3").Do(ctx).Raw()
	if err != nil {
		return nil, err
	}
	var doc discoveryDocument
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("unable to parse the OpenAPI v3 index /openapi/v3: %w", err)
	}
	out := make(map[string]*groupVersion, len(doc.Paths))
	for k, p := range doc.Paths {
		out[k] = &groupVersion{client: c, url: p.ServerRelativeURL}
	}
	return out, nil
}
