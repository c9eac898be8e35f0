package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// inPackageGenerate fills set with a generator's files for prog: outputFile in each package that asks,
// headed by header; warn receives problems that do not stop generation.
type inPackageGenerate func(prog *load.Program, outputFile string, header []byte, warn func(string), set *output.Set) error

// runInPackage runs a generator that writes one file into each input package's own directory
// (deepcopy-gen, register-gen), named name, with command-line arguments args.
func runInPackage(name, defaultFile string, generate inPackageGenerate, args []string, stdout, stderr io.Writer) error {
	var in run.InPackage
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	in.AddFlags(fs, defaultFile)
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
		set := output.NewSet(name)
		warn := func(msg string) { fmt.Fprintf(stderr, "%s: warning: %s\n", name, msg) }
		if err := generate(prog, in.OutputFile, header, warn, set); err != nil {
			return err
		}
		return in.Finish(set, start, stdout, stderr)
	})
}
