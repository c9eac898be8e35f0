package crdgen

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/internal/yamlemit"
)

// TestDocYAML checks that rendering a CRD without encoding its schemas to JSON writes what rendering its
// JSON writes, for every kind of value a schema may hold.
func TestDocYAML(t *testing.T) {
	doc := &crdDoc{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition",
		Metadata: crdMeta{Name: "widgets.example.com", Annotations: map[string]string{"a": "b"}},
		Spec: crdSpec{Group: "example.com", Names: crdNames{Kind: "Widget", ListKind: "WidgetList", Plural: "widgets", Singular: "widget", ShortNames: []string{"wd"}}, Scope: "Namespaced",
			Versions: []crdVersion{
				{Name: "v1", Served: true, Storage: true, Subresources: map[string]any{"status": map[string]any{}},
					AdditionalPrinterColumns: []printerColumn{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp", Priority: 1}},
					Schema: schema{"openAPIV3Schema": schema{
						"type": "object", "description": "A widget.\n\nWith lines.", "nullable": true,
						"maxLength": int64(10), "minimum": 1.5, "maximum": float64(1e21), "priority": int32(-3), "count": 7,
						"enum":     []any{"a", 1, 2.25, true, nil, []string{"x"}, []string(nil), schema(nil), []any(nil)},
						"required": []string{"spec", "status"}, "empty": []string{}, "emptyMap": schema{},
						"default": json.RawMessage(`{"z":1,"a":[1.0,"q"]}`), "example": map[string]int{"n": 1},
						"bad": "invalid \xff utf-8", "x-kubernetes-validations": []any{schema{"rule": "self.a > 0", "message": "must 'be' positive: a"}},
					}}},
				{Name: "v2", Served: true, Schema: nil, Deprecated: true, DeprecationWarning: "gone"},
			}}}
	j, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := yamlemit.JSONToYAML(j)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := docYAML(doc, -1)
	if !ok {
		t.Fatal("docYAML gave up")
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("docYAML:\n%s\nwant\n%s", got, want)
	}
}
