package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/defaultergen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// DefaulterGen runs defaulter-gen with command-line arguments args (without the program name): the flags
// of code-generator's defaulter-gen (--output-file, --extra-peer-dirs, --go-header-file, --build-tag,
// --lint-rules) plus --verify.
func DefaulterGen(args []string, stdout, stderr io.Writer) error {
	name := defaultergen.Generator
	var in run.InPackage
	var extraPeers []string
	var buildTag string
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	in.AddFlags(fs, "generated.defaults.go")
	fs.StringSliceVar(&extraPeers, "extra-peer-dirs", nil, "comma-separated import paths of further packages whose SetDefaults_ functions the generated defaulters call")
	fs.StringVar(&buildTag, "build-tag", defaultergen.DefaultBuildTag, "the build tag that excludes the generated files")
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
		cfg := defaultergen.Config{OutputFile: in.OutputFile, Header: header, ExtraPeerDirs: extraPeers, BuildTag: buildTag,
			Warn: func(msg string) { fmt.Fprintf(stderr, "%s: warning: %s\n", name, msg) }}
		if err := defaultergen.Generate(prog, cfg, set); err != nil {
			return err
		}
		return in.Finish(set, start, stdout, stderr)
	})
}
