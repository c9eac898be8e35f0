package openapi

import (
	"context"
	"fmt"
	"net/url"
)

// ContentTypeOpenAPIV3PB is the protobuf encoding of an OpenAPI v3 document; "application/json"
// asks for JSON.
const ContentTypeOpenAPIV3PB = "application/com.github.proto-openapi.spec.v3@v1.0+protobuf"

// GroupVersion is the OpenAPI v3 document of one group version.
type GroupVersion interface {
	// Schema fetches the document in contentType ("application/json" or ContentTypeOpenAPIV3PB).
	Schema(contentType string) ([]byte, error)
	// ServerRelativeURL is the document's URL on the server, with the hash that versions it.
	ServerRelativeURL() string
}

// GroupVersionWithContext is GroupVersion with methods that honour a context.
type GroupVersionWithContext interface {
	// SchemaWithContext fetches the document in contentType.
	SchemaWithContext(ctx context.Context, contentType string) ([]byte, error)
	// ServerRelativeURL is the document's URL on the server, with the hash that versions it.
	ServerRelativeURL() string
}

// ToGroupVersionWithContext returns gv itself when it honours contexts, or else a wrapper whose
// methods ignore the context; nil stays nil.
func ToGroupVersionWithContext(gv GroupVersion) GroupVersionWithContext {
	if gv == nil {
		return nil
	}
	if g, ok := gv.(GroupVersionWithContext); ok {
		return g
	}
	return groupVersionWrapper{gv}
}

type groupVersionWrapper struct{ GroupVersion }

func (w groupVersionWrapper) SchemaWithContext(_ context.Context, contentType string) ([]byte, error) {
	return w.Schema(contentType)
}

// groupVersion fetches one document listed by the index.
type groupVersion struct {
	client *client
	url    string
}

// Schema fetches the document in contentType.
func (g *groupVersion) Schema(contentType string) ([]byte, error) {
	return g.SchemaWithContext(context.Background(), contentType)
}

// SchemaWithContext fetches the document in contentType. The server-relative URL carries the
// document's hash, so the server lets caches keep the answer.
func (g *groupVersion) SchemaWithContext(ctx context.Context, contentType string) ([]byte, error) {
	u, err := url.Parse(g.url)
	if err != nil {
		return nil, fmt.Errorf("OpenAPI v3 document URL %q: %w", g.url, err)
	}
	req := g.client.restClient.Get().AbsPath(u.Path).SetHeader("Accept", contentType)
	for k, vs := range u.Query() {
		for _, v := range vs {
			req = req.Param(k, v)
		}
	}
	return req.Do(ctx).Raw()
}

// ServerRelativeURL is the document's URL on the server.
func (g *groupVersion) ServerRelativeURL() string { return g.url }

var (
	_ GroupVersion            = (*groupVersion)(nil)
	_ GroupVersionWithContext = (*groupVersion)(nil)
	_ Client                  = (*client)(nil)
	_ ClientWithContext       = (*client)(nil)
)
