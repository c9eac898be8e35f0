package openapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/kgen-dev/kgen/runtime/openapi"
)

type plainClient map[string]openapi.GroupVersion

func (c plainClient) Paths() (map[string]openapi.GroupVersion, error) {
	if c == nil {
		return nil, errors.New("no index")
	}
	return c, nil
}

type plainGroupVersion string

func (g plainGroupVersion) Schema(contentType string) ([]byte, error) {
	return []byte(string(g) + " as " + contentType), nil
}

func (g plainGroupVersion) ServerRelativeURL() string { return "/openapi/v3/" + string(g) }

// TestToClientWithContext: a Client without context methods is wrapped so that its documents
// are reachable through the context methods; errors and nil pass through.
func TestToClientWithContext(t *testing.T) {
	ctx := context.Background()
	if openapi.ToClientWithContext(nil) != nil || openapi.ToGroupVersionWithContext(nil) != nil {
		t.Fatal("nil not kept")
	}
	paths, err := openapi.ToClientWithContext(plainClient{"api/v1": plainGroupVersion("api/v1")}).PathsWithContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	body, err := paths["api/v1"].SchemaWithContext(ctx, "application/json")
	if err != nil || string(body) != "api/v1 as application/json" || paths["api/v1"].ServerRelativeURL() != "/openapi/v3/api/v1" {
		t.Fatalf("%q %v", body, err)
	}
	if _, err := openapi.ToClientWithContext(plainClient(nil)).PathsWithContext(ctx); err == nil {
		t.Fatal("error lost")
	}
}
