package kgencmd

import (
	"path"
	"path/filepath"
	"sync"

	"github.com/kgen-dev/kgen/internal/generators/applyconfigurationgen"
	"github.com/kgen-dev/kgen/internal/generators/clientgen"
	"github.com/kgen-dev/kgen/internal/generators/conversiongen"
	"github.com/kgen-dev/kgen/internal/generators/deepcopygen"
	"github.com/kgen-dev/kgen/internal/generators/defaultergen"
	"github.com/kgen-dev/kgen/internal/generators/informergen"
	"github.com/kgen-dev/kgen/internal/generators/listergen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/registergen"
)

// step is one generator of a run: the set it fills and how. Every generator reads the load and the model
// only, so steps run concurrently, each into its own set.
type step struct {
	set *output.Set
	run func(*output.Set) error
}

// runSteps runs the steps concurrently and returns their sets in step order, or the error of the first
// step (in that order) that failed.
func runSteps(steps []step) ([]*output.Set, error) {
	errs := make([]error, len(steps))
	var wg sync.WaitGroup
	for i, st := range steps {
		wg.Go(func() { errs[i] = st.run(st.set) })
	}
	wg.Wait()
	sets := make([]*output.Set, len(steps))
	for i, st := range steps {
		if errs[i] != nil {
			return nil, errs[i]
		}
		sets[i] = st.set
	}
	return sets, nil
}

// helperSteps are the steps writing into the input packages, as kube_codegen.sh's gen_helpers and
// gen_register do: deepcopy, defaulter, register and conversion.
func (r *generateRun) helperSteps(prog *load.Program) []step {
	var steps []step
	if r.o.runs(genDeepcopy) {
		cfg := deepcopygen.Config{OutputFile: "zz_generated.deepcopy.go", Header: r.header, Warn: r.warn(genDeepcopy)}
		steps = append(steps, step{output.NewSet(deepcopygen.Generator, r.inputDir), func(set *output.Set) error {
			return deepcopygen.Generate(prog, cfg, set)
		}})
	}
	if r.o.runs(genDefaulter) {
		cfg := defaultergen.Config{OutputFile: "zz_generated.defaults.go", Header: r.header, Warn: r.warn(genDefaulter)}
		steps = append(steps, step{output.NewSet(defaultergen.Generator, r.inputDir), func(set *output.Set) error {
			return defaultergen.Generate(prog, cfg, set)
		}})
	}
	if r.o.runs(genRegister) {
		cfg := registergen.Config{OutputFile: "zz_generated.register.go", Header: r.header, Warn: r.warn(genRegister)}
		steps = append(steps, step{output.NewSet(registergen.Generator, r.inputDir), func(set *output.Set) error {
			return registergen.Generate(prog, cfg, set)
		}})
	}
	if r.o.runs(genConversion) {
		cfg := conversiongen.Config{OutputFile: "zz_generated.conversion.go", Header: r.header, ExtraPeerDirs: r.o.extraPeerDirs, Warn: r.warn(genConversion)}
		steps = append(steps, step{output.NewSet(conversiongen.Generator, r.inputDir), func(set *output.Set) error {
			return conversiongen.Generate(prog, cfg, set)
		}})
	}
	return steps
}

// clientSteps are the steps writing under --output-dir, as kube_codegen.sh's gen_client does: apply
// configurations, the clientset, listers and informers.
func (r *generateRun) clientSteps(prog *load.Program, clientPkgs []*load.Package, m *model.Model) []step {
	o := &r.o
	if o.outputDir == "" {
		return nil
	}
	var steps []step
	var applyConfigPkg string
	if r.withApply() {
		cfg := applyconfigurationgen.Config{
			OutputDir: filepath.Join(o.outputDir, o.applyConfigName), OutputPkg: path.Join(o.outputPkg, o.applyConfigName),
			Header: r.header, Externals: r.applyExternals, OpenAPISchema: o.applyConfigSchema, LintRules: o.lintRules,
			Warn: r.warn(genApplyConfig),
		}
		steps = append(steps, step{output.NewSet(applyconfigurationgen.Generator, cfg.OutputDir), func(set *output.Set) error {
			return applyconfigurationgen.GenerateFromLoad(prog, clientPkgs, m, cfg, set)
		}})
		applyConfigPkg = cfg.OutputPkg
	}
	if o.runs(genClient) {
		cfg := clientgen.Config{
			OutputDir: filepath.Join(o.outputDir, o.clientsetName), OutputPkg: path.Join(o.outputPkg, o.clientsetName),
			ClientsetName: o.versionedName, APIPath: "/apis", FakeClientset: true, PrefersProtobuf: o.prefersProtobuf,
			ApplyConfigurationPackage: applyConfigPkg, ApplyConfigurationExternals: r.applyExternals, Header: r.header,
		}
		steps = append(steps, step{output.NewSet(clientgen.Generator, cfg.Dir()), func(set *output.Set) error {
			return clientgen.Generate(m, cfg, set)
		}})
	}
	if !o.withWatch {
		return steps
	}
	listers := listergen.Config{OutputDir: filepath.Join(o.outputDir, o.listersName), OutputPkg: path.Join(o.outputPkg, o.listersName), Header: r.header}
	if o.runs(genLister) {
		steps = append(steps, step{output.NewSet(listergen.Generator, listers.OutputDir), func(set *output.Set) error {
			return listergen.Generate(m, listers, set)
		}})
	}
	if o.runs(genInformer) {
		cfg := informergen.Config{
			OutputDir: filepath.Join(o.outputDir, o.informersName), OutputPkg: path.Join(o.outputPkg, o.informersName),
			VersionedClientsetPackage: path.Join(o.outputPkg, o.clientsetName, o.versionedName), ListersPackage: listers.OutputPkg, Header: r.header,
		}
		steps = append(steps, step{output.NewSet(informergen.Generator, cfg.Dir()), func(set *output.Set) error {
			return informergen.Generate(m, cfg, set)
		}})
	}
	return steps
}
