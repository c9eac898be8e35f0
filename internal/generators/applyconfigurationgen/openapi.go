package applyconfigurationgen

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/util/proto"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// schemaFromOpenAPI converts the definitions of a Swagger 2 document that the +genclient types reach
// into a structured-merge-diff schema, as code-generator's --openapi-schema does.
func schemaFromOpenAPI(file string, generated []*acType) (*schema.Schema, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--openapi-schema: %w", err)
	}
	var doc struct {
		Definitions map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
	}
	required := map[string]any{}
	var roots []string
	for _, a := range generated {
		if a.client != nil {
			roots = append(roots, openAPIName(a.decl.pkg.path, a.name()))
		}
	}
	sort.Strings(roots)
	for _, name := range roots {
		def, ok := doc.Definitions[name]
		if !ok {
			return nil, fmt.Errorf("--openapi-schema %s: no definition %s", file, name)
		}
		if err := addReferenced(name, def, doc.Definitions, required); err != nil {
			return nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
		}
	}
	trimmed, err := json.Marshal(map[string]any{
		"swagger": "2.0", "info": map[string]any{"title": "apply configurations", "version": "v0"},
		"paths": map[string]any{}, "definitions": required,
	})
	if err != nil {
		return nil, err
	}
	document, err := openapiv2.ParseDocument(trimmed)
	if err != nil {
		return nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
	}
	models, err := proto.NewOpenAPIData(document)
	if err != nil {
		return nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
	}
	return schemaconv.ToSchema(models)
}

// addReferenced records def under name and, recursively, every definition it refers to with $ref.
func addReferenced(name string, def any, all, out map[string]any) error {
	if _, ok := out[name]; ok {
		return nil
	}
	out[name] = def
	var refs []string
	collectRefs(def, &refs)
	for _, ref := range refs {
		target, ok := strings.CutPrefix(ref, "#/definitions/")
		if !ok {
			continue
		}
		next, ok := all[target]
		if !ok {
			return fmt.Errorf("definition %s refers to missing %s", name, target)
		}
		if err := addReferenced(target, next, all, out); err != nil {
			return err
		}
	}
	return nil
}

func collectRefs(v any, refs *[]string) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, ok := v[k].(string); ok && k == "$ref" {
				*refs = append(*refs, s)
				continue
			}
			collectRefs(v[k], refs)
		}
	case []any:
		for _, e := range v {
			collectRefs(e, refs)
		}
	}
}
