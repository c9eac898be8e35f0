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
// into a structured-merge-diff schema, as code-generator's --openapi-schema does: each type is looked up
// by its OpenAPI model name ("io.k8s.sample-controller.pkg.apis.samplecontroller.v1alpha1.Foo"), and
// references are followed as written. A type the document has no definition of under that name (one
// keyed by Go import path, as sample-controller's models-schema writes them, included) gets an empty
// definition, which structured-merge-diff treats as untyped: its extractor and type converter then
// behave exactly as code-generator's do. Those types are also returned, sorted by "import/path.Type",
// for the caller to warn about.
func schemaFromOpenAPI(file string, generated []*acType) (*schema.Schema, []*acType, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("--openapi-schema: %w", err)
	}
	var doc struct {
		Definitions map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
	}
	required := map[string]any{}
	var missing []*acType
	for _, a := range generated {
		if a.client == nil {
			continue
		}
		name := openAPIName(a.decl.pkg.path, a.name())
		def, ok := doc.Definitions[name]
		if !ok {
			missing = append(missing, a)
			required[name] = map[string]any{}
			continue
		}
		if err := addReferenced(name, def, doc.Definitions, required); err != nil {
			return nil, nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
		}
	}
	sort.Slice(missing, func(i, j int) bool {
		return missing[i].decl.pkg.path+"."+missing[i].name() < missing[j].decl.pkg.path+"."+missing[j].name()
	})
	if len(required) == 0 {
		return &schema.Schema{}, missing, nil
	}
	trimmed, err := json.Marshal(map[string]any{
		"swagger": "2.0", "info": map[string]any{"title": "apply configurations", "version": "v0"},
		"paths": map[string]any{}, "definitions": required,
	})
	if err != nil {
		return nil, nil, err
	}
	document, err := openapiv2.ParseDocument(trimmed)
	if err != nil {
		return nil, nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
	}
	models, err := proto.NewOpenAPIData(document)
	if err != nil {
		return nil, nil, fmt.Errorf("--openapi-schema %s: %w", file, err)
	}
	s, err := schemaconv.ToSchema(models)
	return s, missing, err
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
