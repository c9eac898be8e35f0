package crdgen_test

import (
	"reflect"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/crdgen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// TestIndirectPackages generates testdata/jobs, an API that embeds batch/v1's JobTemplateSpec (core/v1
// is imported only through batch/v1) and reaches its own package inner only through package shared,
// with the dependencies' types from export data (where an indirectly imported package holds only what
// its importer refers to) and from source.
//   - ref() defaults and +k8s:enum constants of the project's indirectly imported package resolve;
//   - ref() defaults of k8s.io/api's types are left out, as controller-gen leaves them, while their JSON
//     defaults stay;
//   - a +structType=atomic type embedded inline makes the embedding type atomic, as controller-gen's
//     flattening does: LocalObjectReference in ConfigMapEnvSource and SecretEnvSource.
func TestIndirectPackages(t *testing.T) {
	for _, deps := range []load.DepsMode{load.DepsExport, load.DepsSource} {
		t.Run(deps.String(), func(t *testing.T) {
			prog, err := load.Load(load.Config{Deps: deps}, "./testdata/jobs/v1")
			if err != nil {
				t.Fatal(err)
			}
			m, err := model.FromProgram(prog, prog.Packages, model.Options{})
			if err != nil {
				t.Fatal(err)
			}
			set := output.NewSet(crdgen.Generator)
			if err := crdgen.Generate(prog, prog.Packages, m, crdgen.Config{OutputDir: "out", MaxDescLen: 0}, set); err != nil {
				t.Fatal(err)
			}
			spec := dig(t, crd(t, set, "batch.example.com_runners.yaml"), "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties")
			retry := dig(t, spec, "settings", "properties", "retry", "properties")
			if got := dig(t, retry, "policy", "default"); got != "Always" {
				t.Errorf("inner ref() default = %v, want Always", got)
			}
			if got := dig(t, retry, "limit", "default"); got != float64(3) {
				t.Errorf("inner ref() default = %v, want 3", got)
			}
			if got := dig(t, retry, "policy", "enum"); !reflect.DeepEqual(got, []any{"Always", "Never"}) {
				t.Errorf("inner +k8s:enum = %v", got)
			}
			if got := dig(t, spec, "target", "x-kubernetes-map-type"); got != "atomic" {
				t.Errorf("target embedding an atomic struct: map type %v", got)
			}
			pod := dig(t, spec, "template", "properties", "spec", "properties", "template", "properties", "spec", "properties")
			disk := dig(t, pod, "volumes", "items", "properties", "azureDisk", "properties").(map[string]any)
			for _, f := range []string{"cachingMode", "kind"} {
				if d, ok := disk[f].(map[string]any)["default"]; ok {
					t.Errorf("azureDisk.%s has k8s.io/api's ref() default %v", f, d)
				}
			}
			if got := dig(t, disk, "fsType", "default"); got != "ext4" {
				t.Errorf("azureDisk.fsType JSON default = %v, want ext4", got)
			}
			container := dig(t, pod, "containers", "items", "properties")
			if got := dig(t, container, "ports", "items", "properties", "protocol", "default"); got != "TCP" {
				t.Errorf("k8s.io/api's JSON default = %v, want TCP", got)
			}
			for _, ref := range []string{"configMapRef", "secretRef"} {
				if got := dig(t, container, "envFrom", "items", "properties", ref, "x-kubernetes-map-type"); got != "atomic" {
					t.Errorf("envFrom.%s map type = %v, want atomic", ref, got)
				}
			}
		})
	}
}
