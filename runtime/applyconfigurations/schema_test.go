package applyconfigurations_test

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kgen-dev/kgen/runtime/applyconfigurations"
)

const configMapSchema = typed.YAMLObject(`types:
- name: io.k8s.api.core.v1.ConfigMap
  map:
    fields:
    - name: apiVersion
      type:
        scalar: string
    - name: kind
      type:
        scalar: string
    - name: metadata
      type:
        namedType: __untyped_deduced_
    - name: data
      type:
        map:
          elementType:
            scalar: string
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
`)

// configMap has data a and b, of which manager "alice" owns a.
func configMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "ns", ManagedFields: []metav1.ManagedFieldsEntry{{
			Manager: "alice", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "v1", FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:data":{"f:a":{}}}`),
		}}},
		Data: map[string]string{"a": "1", "b": "2"},
	}
}

type configMapConfig struct {
	Kind *string           `json:"kind,omitempty"`
	Data map[string]string `json:"data,omitempty"`
}

func TestExtractIntoTakesTheManagersFields(t *testing.T) {
	p := applyconfigurations.NewSchema(configMapSchema).Parser()
	var got configMapConfig
	if err := applyconfigurations.ExtractInto(configMap(), p, "io.k8s.api.core.v1.ConfigMap", "alice", &got, ""); err != nil {
		t.Fatal(err)
	}
	if len(got.Data) != 1 || got.Data["a"] != "1" || got.Kind == nil || *got.Kind != "ConfigMap" {
		t.Errorf("extracted %+v; want data a only, with the kind", got)
	}
	var none configMapConfig
	if err := applyconfigurations.ExtractInto(configMap(), p, "io.k8s.api.core.v1.ConfigMap", "bob", &none, ""); err != nil || none.Data != nil {
		t.Errorf("a manager without fields extracted %+v, %v", none, err)
	}
}

func TestExtractIntoFailsWithoutTheType(t *testing.T) {
	p := applyconfigurations.NewSchema(configMapSchema).Parser()
	var got configMapConfig
	err := applyconfigurations.ExtractInto(configMap(), p, "io.k8s.api.core.v1.Secret", "alice", &got, "")
	if err == nil || !strings.Contains(err.Error(), "has no type io.k8s.api.core.v1.Secret") {
		t.Errorf("ExtractInto with a type missing from the schema = %v; want an error naming it", err)
	}
}

func TestSchemaParsesOnce(t *testing.T) {
	s := applyconfigurations.NewSchema(configMapSchema)
	if p := s.Parser(); p != s.Parser() || !p.Type("io.k8s.api.core.v1.ConfigMap").IsValid() {
		t.Error("Parser did not return one parser holding the schema's types")
	}
}

func TestInvalidSchemaPanics(t *testing.T) {
	s := applyconfigurations.NewSchema(typed.YAMLObject("types: [not: {a: valid"))
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "parsing the apply configurations' schema") {
			t.Errorf("Parser of an unparsable schema panicked with %v; want a parse error", r)
		}
	}()
	s.Parser()
}
