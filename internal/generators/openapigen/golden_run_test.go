package openapigen_test

import (
	"testing"

	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/kgen-dev/kgen/testdata/generated/openapi"
)

// TestGoldenDefinitionsRun calls the golden GetOpenAPIDefinitions: every definition is keyed by its
// model name, references go through the callback, and an inlined member's required field reaches the
// schema. Importing the golden package also keeps what generated definitions import (kube-openapi's
// common package and its dependencies) in the module's go.sum, so generated code builds in this module.
func TestGoldenDefinitionsRun(t *testing.T) {
	var refs []string
	var ref common.ReferenceCallback = func(name string) spec.Ref {
		refs = append(refs, name)
		return spec.MustCreateRef("#/definitions/" + name)
	}
	defs := openapi.GetOpenAPIDefinitions(ref)
	if len(defs) != 15 {
		t.Errorf("%d definitions, want 15", len(defs))
	}
	addr, ok := defs["dev.kgen.testdata.shop.v1.Address"]
	if !ok {
		t.Fatalf("no Address definition among %d", len(defs))
	}
	if got := addr.Schema.Required; len(got) != 1 || got[0] != "street" {
		t.Errorf("Address required = %v, want [street]", got)
	}
	if len(refs) == 0 {
		t.Error("no definition referred to another through the callback")
	}
}
