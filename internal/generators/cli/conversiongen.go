package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/conversiongen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// ConversionGen runs conversion-gen with command-line arguments args (without the program name).
func ConversionGen(args []string, stdout, stderr io.Writer) error {
	var in run.InPackage
	var cfg conversiongen.Config
	fs := pflag.NewFlagSet(conversiongen.Generator, pflag.ContinueOnError)
	in.AddFlags(fs, "generated.conversion.go")
	fs.StringSliceVar(&cfg.BasePeerDirs, "base-peer-dirs", conversiongen.DefaultBasePeerDirs, "comma-separated import paths consulted, after the tags' peer packages, for peer types and hand-written conversion functions")
	fs.StringSliceVar(&cfg.ExtraPeerDirs, "extra-peer-dirs", nil, "application-specific comma-separated import paths consulted after --base-peer-dirs")
	fs.StringSliceVar(&cfg.ExtraDirs, "extra-dirs", nil, "comma-separated import paths searched for hand-written conversion functions only (not for peer types)")
	fs.BoolVar(&cfg.SkipUnsafe, "skip-unsafe", false, "never convert through unsafe.Pointer casts; the code may be slower")
	fs.StringVar(&cfg.BuildTag, "build-tag", conversiongen.DefaultBuildTag, "the build tag the generated files' constraint excludes")
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
		// Peers the inputs do not import are loaded with them, as inputs of the load only.
		if missing := conversiongen.MissingPackages(prog, cfg); len(missing) > 0 {
			for _, p := range prog.Packages {
				cfg.Inputs = append(cfg.Inputs, p.Path)
			}
			if prog, err = load.Load(load.Config{}, append(patterns, missing...)...); err != nil {
				return err
			}
		}
		set := output.NewSet(conversiongen.Generator)
		cfg.OutputFile, cfg.Header = in.OutputFile, header
		cfg.Warn = func(msg string) { fmt.Fprintf(stderr, "%s: warning: %s\n", conversiongen.Generator, msg) }
		if err := conversiongen.Generate(prog, cfg, set); err != nil {
			return err
		}
		return in.Finish(set, start, stdout, stderr)
	})
}
