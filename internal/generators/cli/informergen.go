package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/informergen"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// InformerGen runs informer-gen with command-line arguments args (without the program name).
func InformerGen(args []string, stdout, stderr io.Writer) error {
	var (
		common          run.Common
		clientsetPkg    string
		listersPkg      string
		singleDirectory bool
	)
	fs := pflag.NewFlagSet("informer-gen", pflag.ContinueOnError)
	common.AddFlags(fs)
	fs.StringVar(&clientsetPkg, "versioned-clientset-package", "", "the import path of the versioned clientset to use")
	fs.StringVar(&listersPkg, "listers-package", "", "the import path of the listers to use")
	fs.BoolVar(&singleDirectory, "single-directory", false, "put the factory directly in --output-dir instead of its externalversions subdirectory")
	return run.Execute(fs, args, stderr, func(patterns []string) error {
		start := time.Now()
		header, plurals, err := common.Load()
		if err != nil {
			return err
		}
		if clientsetPkg == "" || listersPkg == "" {
			return fmt.Errorf("--versioned-clientset-package and --listers-package must be specified")
		}
		if len(patterns) == 0 {
			return fmt.Errorf("no input packages: pass package patterns as arguments")
		}
		m, err := loadModel(patterns, model.Options{PluralExceptions: plurals, LintRules: common.LintRules, Clients: true})
		if err != nil {
			return err
		}
		if msg := model.NothingGenerated([]string{informergen.Generator}, len(m.Groups) > 0, "genclient", m.GenclientTags); msg != "" {
			fmt.Fprintf(stderr, "%s: warning: %s\n", informergen.Generator, msg)
		}
		cfg := informergen.Config{
			OutputDir: common.OutputDir, OutputPkg: common.OutputPkg, VersionedClientsetPackage: clientsetPkg,
			ListersPackage: listersPkg, SingleDirectory: singleDirectory, Header: header,
		}
		set := output.NewSet(informergen.Generator)
		if err := informergen.Generate(m, cfg, set); err != nil {
			return err
		}
		return common.Finish(set, start, stdout, stderr)
	})
}
