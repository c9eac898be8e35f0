package crdgen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kgen-dev/kgen/internal/generators/crdgen"
	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// kueue is the second real project the schemas are compared on: a batch scheduler's API whose Workload
// embeds a core/v1 PodTemplateSpec (every pod field, k8s.io/api's markers and defaults), with CEL rules,
// list maps and enums of its own.
const kueue = "sigs.k8s.io/kueue@v0.17.0"

// controllerGen is the controller-gen the schemas are compared with, run from the module proxy.
const controllerGen = "sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0"

// schemeShim stands in for sigs.k8s.io/controller-runtime/pkg/scheme, which kueue's API registers its
// types with and which kgen's module does not require (it pulls client-go): the same Builder API over
// apimachinery's runtime.SchemeBuilder.
const schemeShim = `// Package scheme is controller-runtime's scheme.Builder API, for the copied kueue API to build.
package scheme

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Builder registers the types of one group version.
type Builder struct {
	GroupVersion schema.GroupVersion
	runtime.SchemeBuilder
}

// Register adds the types to what AddToScheme registers.
func (b *Builder) Register(objs ...runtime.Object) {
	b.SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(b.GroupVersion, objs...)
		return nil
	})
}

// AddToScheme registers the types with s.
func (b *Builder) AddToScheme(s *runtime.Scheme) error { return b.SchemeBuilder.AddToScheme(s) }
`

// TestSameSchemaAsControllerGenOnKueue copies kueue's v1beta2 API (the version its CRDs store), runs
// controller-gen v0.23.0's crd generator on it as kueue's Makefile does (generateEmbeddedObjectMeta=true)
// and kgen's on the same load, and compares the CRDs, parsed, value by value: they must agree on every
// value of every CRD (names, scope, versions, subresources, printer columns and each schema node, the
// Workload's pod template included).
func TestSameSchemaAsControllerGenOnKueue(t *testing.T) {
	src := testmodule.Download(t, kueue)
	dir, importPath := testmodule.WorkDir(t, "github.com/kgen-dev/kgen/internal/generators/crdgen")
	testmodule.CopyGoFiles(t, filepath.Join(src, "apis/kueue/v1beta2"), filepath.Join(dir, "v1beta2"),
		"sigs.k8s.io/controller-runtime/pkg/scheme", importPath+"/scheme")
	if err := os.MkdirAll(filepath.Join(dir, "scheme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scheme", "scheme.go"), []byte(schemeShim), 0o644); err != nil {
		t.Fatal(err)
	}

	theirDir := t.TempDir()
	cmd := exec.Command("go", "run", controllerGen, "crd:generateEmbeddedObjectMeta=true", "paths=./v1beta2/...", "output:crd:dir="+theirDir)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly") // controller-gen lists the packages of kgen's module, which must not change
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("controller-gen: %v\n%s", err, out)
	}

	prog, err := load.Load(load.Config{Dir: dir}, "./v1beta2/...")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.FromProgram(prog, prog.Packages, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := output.NewSet(crdgen.Generator)
	cfg := crdgen.Config{OutputDir: "out", MaxDescLen: -1, GenerateEmbeddedObjectMeta: true}
	if err := crdgen.Generate(prog, prog.Packages, m, cfg, set); err != nil {
		t.Fatal(err)
	}

	want, err := filepath.Glob(filepath.Join(theirDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var names, got []string
	for _, w := range want {
		names = append(names, filepath.Base(w))
	}
	for _, p := range set.Paths() {
		got = append(got, filepath.Base(p))
	}
	if !slices.Equal(got, names) {
		t.Fatalf("files = %v\nwant %v", got, names)
	}
	compared, atomic := 0, 0
	for _, name := range names {
		var ours, theirs map[string]any
		if err := yaml.Unmarshal(set.Content(filepath.Join("out", name)), &ours); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(theirDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(b, &theirs); err != nil {
			t.Fatal(err)
		}
		c := &comparison{}
		c.compare(name+":spec", ours["spec"], theirs["spec"], false)
		for _, d := range c.diffs {
			t.Error(d)
		}
		compared += c.nodes
		atomic += strings.Count(string(b), "x-kubernetes-map-type: atomic")
	}
	if compared < 7000 || atomic < 50 {
		t.Errorf("compared only %d schema values, %d atomic structs", compared, atomic)
	}
	t.Logf("%d CRDs, %d values compared, %d atomic structs", len(names), compared, atomic)
}
