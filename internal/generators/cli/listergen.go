package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/listergen"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// ListerGen runs lister-gen with command-line arguments args (without the program name).
func ListerGen(args []string, stdout, stderr io.Writer) error {
	var common run.Common
	fs := pflag.NewFlagSet("lister-gen", pflag.ContinueOnError)
	common.AddFlags(fs)
	return run.Execute(fs, args, stderr, func(patterns []string) error {
		start := time.Now()
		header, plurals, err := common.Load()
		if err != nil {
			return err
		}
		if len(patterns) == 0 {
			return fmt.Errorf("no input packages: pass package patterns as arguments")
		}
		m, err := loadModel(patterns, model.Options{PluralExceptions: plurals, LintRules: common.LintRules, Clients: true})
		if err != nil {
			return err
		}
		if msg := model.NothingGenerated([]string{listergen.Generator}, len(m.Groups) > 0, "genclient", m.GenclientTags); msg != "" {
			fmt.Fprintf(stderr, "%s: warning: %s\n", listergen.Generator, msg)
		}
		set := output.NewSet(listergen.Generator)
		cfg := listergen.Config{OutputDir: common.OutputDir, OutputPkg: common.OutputPkg, Header: header}
		if err := listergen.Generate(m, cfg, set); err != nil {
			return err
		}
		return common.Finish(set, start, stdout, stderr)
	})
}
