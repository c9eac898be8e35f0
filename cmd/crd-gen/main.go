// Command crd-gen generates apiextensions.k8s.io/v1 CustomResourceDefinition manifests from Go API types
// and their tags (controller-gen's +kubebuilder markers, +listType and friends, +k8s: validation tags),
// one <group>_<plural>.yaml per group and kind in --output-dir, plus --verify.
package main

import (
	"github.com/kgen-dev/kgen/internal/generators/crdcli"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("crd-gen", crdcli.Run) }
