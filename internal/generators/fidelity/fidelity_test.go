package fidelity_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgen-dev/kgen/internal/generators/cli"
	"github.com/kgen-dev/kgen/internal/generators/fidelity"
	"github.com/kgen-dev/kgen/internal/generators/internal/testmodule"
)

// clientGo maps the client-go packages generated code uses to kgen's runtime equivalents (the README's
// porting table).
var clientGo = map[string]string{
	"k8s.io/client-go/applyconfigurations/meta/v1": "github.com/kgen-dev/kgen/runtime/applyconfigurations/meta/v1",
	"k8s.io/client-go/discovery":                   "github.com/kgen-dev/kgen/runtime/discovery",
	"k8s.io/client-go/discovery/fake":              "github.com/kgen-dev/kgen/runtime/discovery/fake",
	"k8s.io/client-go/gentype":                     "github.com/kgen-dev/kgen/runtime/gentype",
	"k8s.io/client-go/listers":                     "github.com/kgen-dev/kgen/runtime/listers",
	"k8s.io/client-go/rest":                        "github.com/kgen-dev/kgen/runtime/rest",
	"k8s.io/client-go/testing":                     "github.com/kgen-dev/kgen/runtime/testing",
	"k8s.io/client-go/tools/cache":                 "github.com/kgen-dev/kgen/runtime/cache",
}

// realModule is an API module from the Go module proxy that ships code-generator's output.
type realModule struct {
	// Path and Version name the module; APIs and Generated are its API and generated directories.
	Path, Version, APIs, Generated string
	// Inputs are client-gen's --input group/versions, relative to APIs.
	Inputs string
	// Trees are the generated trees the module ships, below Generated: "applyconfiguration", "clientset",
	// "listers", "informers".
	Trees []string
}

var modules = []realModule{{
	Path: "k8s.io/sample-controller", Version: "v0.37.1", APIs: "pkg/apis", Generated: "pkg/generated",
	Inputs: "samplecontroller/v1alpha1", Trees: []string{"applyconfiguration", "clientset", "listers", "informers"},
}, {
	Path: "k8s.io/metrics", Version: "v0.37.2", APIs: "pkg/apis", Generated: "pkg/client",
	Inputs: "metrics/v1alpha1,metrics/v1beta1,metrics/v1", Trees: []string{"clientset"},
}}

// deliberateExtras are the declarations kgen's generated API adds to code-generator's on purpose (each is
// listed in the README's deviations): informers drop managedFields unless a factory is told to keep them,
// and share equal parts of cached objects unless told not to.
var deliberateExtras = map[string]bool{
	"extra informers/externalversions.WithKeepManagedFields func(keep bool) SharedInformerOption": true,
	"extra informers/externalversions/internalinterfaces.InformerOptions.KeepManagedFields bool":  true,
	"extra informers/externalversions.WithDisableSharing func(disable bool) SharedInformerOption": true,
	"extra informers/externalversions/internalinterfaces.InformerOptions.DisableSharing bool":     true,

	// client-go 1.38's shard selectors, which code-generator 1.37 does not generate.
	`extra informers/externalversions.WithShardSelector func(shardSelector "k8s.io/apimachinery/pkg/sharding".Selector) SharedInformerOption`: true,
}

// TestGeneratedAPIMatchesCodeGenerator generates each real module's generated trees (Trees) with
// kgen, builds them and checks their exported API, signatures included, is the code-generator output the
// module ships: every declaration and no other.
func TestGeneratedAPIMatchesCodeGenerator(t *testing.T) {
	// Generated informer packages alias runtime/informers types: compare what the aliases denote.
	runtimeAPI, err := fidelity.Load("../../../runtime", func(p string) string { return p })
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modules {
		t.Run(m.Path, func(t *testing.T) {
			src := testmodule.Download(t, m.Path+"@"+m.Version)
			work, workPkg := testmodule.WorkDir(t, "github.com/kgen-dev/kgen/internal/generators/fidelity")
			testmodule.CopyGoFiles(t, filepath.Join(src, m.APIs), filepath.Join(work, "apis"), m.Path+"/"+m.APIs+"/", workPkg+"/apis/")
			t.Chdir(work)
			generate(t, m, workPkg)
			build(t, "generated")

			want, got := fidelity.API{}, fidelity.API{}
			for _, sub := range m.Trees {
				merge(t, want, sub, filepath.Join(src, m.Generated, sub), func(p string) string {
					if r, ok := clientGo[p]; ok {
						return r
					}
					p = strings.Replace(p, m.Path+"/"+m.APIs+"/", "apis/", 1)
					return strings.Replace(p, m.Path+"/"+m.Generated+"/", "generated/", 1)
				})
				merge(t, got, sub, filepath.Join(work, "generated", sub), func(p string) string {
					return strings.Replace(p, workPkg+"/", "", 1)
				})
			}
			inTree := func(p string) string {
				if dir, ok := strings.CutPrefix(p, "generated/"); ok {
					return dir
				}
				return ""
			}
			want.FlattenInterfaces(inTree)
			got.FlattenInterfaces(inTree)
			got.ResolveAliases(runtimeAPI, func(p string) string {
				if dir, ok := strings.CutPrefix(p, "github.com/kgen-dev/kgen/runtime/"); ok {
					return dir
				}
				return ""
			})
			c := fidelity.Compare(want, got)
			t.Logf("%s@%s: %d of %d exported declarations match (%.1f%%)", m.Path, m.Version, c.Matched, c.Total, c.Percent())
			for _, d := range c.Deviations {
				if !deliberateExtras[d] {
					t.Errorf("deviation: %s", d)
				}
			}
		})
	}
}

func generate(t *testing.T, m realModule, pkg string) {
	t.Helper()
	gen := pkg + "/generated"
	var applyPkg string
	if slices.Contains(m.Trees, "applyconfiguration") {
		applyPkg = gen + "/applyconfiguration"
	}
	runs := map[string]func() error{
		"applyconfiguration": func() error {
			return cli.ApplyConfigurationGen([]string{"--output-dir", "generated/applyconfiguration", "--output-pkg", applyPkg, "./apis/..."}, os.Stdout, os.Stderr)
		},
		"clientset": func() error {
			return cli.ClientGen([]string{"--output-dir", "generated/clientset", "--output-pkg", gen + "/clientset", "--clientset-name", "versioned",
				"--input-base", "./apis", "--input", m.Inputs, "--apply-configuration-package", applyPkg}, os.Stdout, os.Stderr)
		},
		"listers": func() error {
			return cli.ListerGen([]string{"--output-dir", "generated/listers", "--output-pkg", gen + "/listers", "./apis/..."}, os.Stdout, os.Stderr)
		},
		"informers": func() error {
			return cli.InformerGen([]string{"--output-dir", "generated/informers", "--output-pkg", gen + "/informers",
				"--versioned-clientset-package", gen + "/clientset/versioned", "--listers-package", gen + "/listers", "./apis/..."}, os.Stdout, os.Stderr)
		},
	}
	for _, tree := range m.Trees {
		if err := runs[tree](); err != nil {
			t.Fatalf("generating %s: %v", tree, err)
		}
	}
}

// build compiles every package under dir (named one by one: go's ./... patterns skip testdata).
func build(t *testing.T, dir string) {
	t.Helper()
	var pkgs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if files, _ := filepath.Glob(filepath.Join(p, "*.go")); len(files) > 0 {
				pkgs = append(pkgs, "./"+filepath.ToSlash(p))
			}
		}
		return err
	})
	out, err := exec.Command("go", append([]string{"build"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

func merge(t *testing.T, into fidelity.API, prefix, root string, mapImport func(string) string) {
	t.Helper()
	api, err := fidelity.Load(root, mapImport)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range api {
		into[prefix+"/"+k] = v
	}
}
