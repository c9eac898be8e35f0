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
// into a structured-merge-diff schema, as code-generator's --openapi-schema does. Definitions may be
// keyed by OpenAPI model name ("io.k8s.api.apps.v1.Deployment") or by Go import path
// ("k8s.io/api/apps/v1.Deployment", as openapi-gen's GetOpenAPIDefinitions and sample-controller's
// models-schema write them); both become model names. It also returns the +genclient types the document
// lacks, sorted by "import/path.Type": their schema is for the caller to derive from the Go types.
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
	defs := make(map[string]any, len(doc.Definitions))
	for name, def := range doc.Definitions {
		renameRefs(def)
		name = modelName(name)
		if _, dup := defs[name]; dup {
			return nil, nil, fmt.Errorf("--openapi-schema %s: definition %s is given twice (by Go path and by model name)", file, name)
		}
		defs[name] = def
	}
	required := map[string]any{}
	var missing []*acType
	for _, a := range generated {
		if a.client == nil {
			continue
		}
		name := openAPIName(a.decl.pkg.path, a.name())
		def, ok := defs[name]
		if !ok {
			missing = append(missing, a)
			continue
		}
		if err := addReferenced(name, def, defs, required); err != nil {
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

// modelName is the OpenAPI model name of a definition key: keys with a slash are Go import paths and the
// type name ("k8s.io/api/apps/v1.Deployment"), turned into model names as openapi-gen does; any other key
// is a model name already.
func modelName(key string) string {
	slash := strings.LastIndexByte(key, '/')
	if slash < 0 {
		return key
	}
	dot := strings.LastIndexByte(key, '.')
	if dot < slash {
		return key
	}
	return openAPIName(key[:dot], key[dot+1:])
}

// renameRefs rewrites every "#/definitions/<key>" reference in v to name the model name of key.
func renameRefs(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && k == "$ref" {
				if target, ok := strings.CutPrefix(s, "#/definitions/"); ok {
					v[k] = "#/definitions/" + modelName(target)
				}
				continue
			}
			renameRefs(e)
		}
	case []any:
		for _, e := range v {
			renameRefs(e)
		}
	}
}

// mergeSchemas returns the types of from followed by those of derived that from lacks, by name.
func mergeSchemas(from, derived *schema.Schema) *schema.Schema {
	out := &schema.Schema{Types: append([]schema.TypeDef(nil), from.Types...)}
	have := make(map[string]bool, len(from.Types))
	for _, t := range from.Types {
		have[t.Name] = true
	}
	for _, t := range derived.Types {
		if !have[t.Name] {
			out.Types = append(out.Types, t)
		}
	}
	return out
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
