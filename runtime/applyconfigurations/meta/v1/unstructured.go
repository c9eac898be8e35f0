package v1

import (
	"fmt"
	"sync"
	"time"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/util/proto"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// schemaRefreshInterval is how long an UnstructuredExtractor trusts the OpenAPI schema it fetched before
// it fetches it again, so that kinds a CRD adds later become extractable.
const schemaRefreshInterval = time.Minute

// UnstructuredExtractor extracts, from an unstructured object, the fields one field manager owns, as an
// unstructured object that can be modified and applied back with that manager: the unstructured twin of
// the generated Extract<Type> functions. Managed fields come from the object itself, so it must have been
// read from the server: informers drop metadata.managedFields from the objects they cache.
type UnstructuredExtractor interface {
	// Extract returns the fields fieldManager owns in object (outside the status subresource), with
	// object's apiVersion, kind, name and namespace.
	Extract(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error)
	// ExtractStatus returns the fields fieldManager owns through the status subresource.
	ExtractStatus(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error)
}

// OpenAPISchemaSource fetches the server's OpenAPI v2 document. Every discovery client of
// runtime/discovery (discovery.DiscoveryInterface) is one.
type OpenAPISchemaSource interface {
	// OpenAPISchema fetches and parses /openapi/v2.
	OpenAPISchema() (*openapi_v2.Document, error)
}

// NewUnstructuredExtractor returns an UnstructuredExtractor that learns the schema of every served kind
// from dc's OpenAPI v2 document. It fetches the document now, and again when a minute has passed since
// the last fetch and an extraction needs it.
func NewUnstructuredExtractor(dc OpenAPISchemaSource) (UnstructuredExtractor, error) {
	e := &unstructuredExtractor{source: dc, now: time.Now}
	parser, err := e.fetch()
	if err != nil {
		return nil, fmt.Errorf("building the type parser from the OpenAPI schema: %w", err)
	}
	e.parser, e.fetched = parser, e.now()
	return e, nil
}

type unstructuredExtractor struct {
	source OpenAPISchemaSource
	now    func() time.Time

	mu         sync.Mutex
	parser     *managedfields.GvkParser
	fetched    time.Time
	refreshing bool // a fetch is under way, without the lock
}

// fetch builds a parser of every kind the server's OpenAPI v2 document describes.
func (e *unstructuredExtractor) fetch() (*managedfields.GvkParser, error) {
	doc, err := e.source.OpenAPISchema()
	if err != nil {
		return nil, err
	}
	models, err := proto.NewOpenAPIData(doc)
	if err != nil {
		return nil, err
	}
	return managedfields.NewGVKParser(models, false)
}

// typeOf returns the schema of gvk, fetching the document again first if it is more than a minute old.
// The fetch runs without the lock: the caller that starts it waits for it, while concurrent extractions
// keep using the schema fetched before. When the fetch fails that schema is used, and the next attempt is
// a minute later.
func (e *unstructuredExtractor) typeOf(gvk schema.GroupVersionKind) (*typed.ParseableType, error) {
	e.mu.Lock()
	var refreshErr error
	if now := e.now(); now.Sub(e.fetched) > schemaRefreshInterval && !e.refreshing {
		e.fetched, e.refreshing = now, true
		e.mu.Unlock()
		parser, err := e.fetch()
		e.mu.Lock()
		e.refreshing = false
		if err != nil {
			refreshErr = err
		} else {
			e.parser = parser
		}
	}
	parser := e.parser
	e.mu.Unlock()
	t := parser.Type(gvk)
	switch {
	case t == nil && refreshErr != nil:
		return nil, fmt.Errorf("the OpenAPI schema has no kind %s, and fetching it again failed: %w", gvk, refreshErr)
	case t == nil:
		return nil, fmt.Errorf("the server's OpenAPI schema has no kind %s", gvk)
	}
	return t, nil
}

func (e *unstructuredExtractor) Extract(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error) {
	return e.extract(object, fieldManager, "")
}

func (e *unstructuredExtractor) ExtractStatus(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error) {
	return e.extract(object, fieldManager, "status")
}

func (e *unstructuredExtractor) extract(object *unstructured.Unstructured, fieldManager, subresource string) (*unstructured.Unstructured, error) {
	if object == nil {
		return nil, fmt.Errorf("extracting the fields of %q: no object", fieldManager)
	}
	gvk := object.GroupVersionKind()
	t, err := e.typeOf(gvk)
	if err != nil {
		return nil, err
	}
	out := &unstructured.Unstructured{}
	if err := managedfields.ExtractInto(object, *t, fieldManager, out, subresource); err != nil {
		return nil, fmt.Errorf("extracting the fields of %q from %s %s: %w", fieldManager, gvk.Kind, object.GetName(), err)
	}
	out.SetAPIVersion(object.GetAPIVersion())
	out.SetKind(object.GetKind())
	out.SetName(object.GetName())
	out.SetNamespace(object.GetNamespace())
	return out, nil
}
