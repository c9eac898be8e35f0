package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/deepcopygen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// DeepCopyGen runs deepcopy-gen with command-line arguments args (without the program name).
func DeepCopyGen(args []string, stdout, stderr io.Writer) error {
	var in run.InPackage
	fs := pflag.NewFlagSet("deepcopy-gen", pflag.ContinueOnError)
	in.AddFlags(fs, "generated.deepcopy.go")
	return run.Execute(fs, args, stderr, func(patterns []string) error {
		start := time.Now()
		header, err := in.Load(patterns)
		if err != nil {
			return err
		}
		prog, err := load.Load(load.Config{}, patterns...)
		if err != nil {
			return err
		}
		if err := in.Lint(prog); err != nil {
			return err
		}
		set := output.NewSet(deepcopygen.Generator)
		cfg := deepcopygen.Config{OutputFile: in.OutputFile, Header: header,
			Warn: func(msg string) { fmt.Fprintf(stderr, "deepcopy-gen: warning: %s\n", msg) }}
		if err := deepcopygen.Generate(prog, cfg, set); err != nil {
			return err
		}
		return in.Finish(set, start, stdout, stderr)
	})
}
