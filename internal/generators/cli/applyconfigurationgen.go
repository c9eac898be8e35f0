package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/applyconfigurationgen"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// ApplyConfigurationGen runs applyconfiguration-gen with command-line arguments args (without the program name).
func ApplyConfigurationGen(args []string, stdout, stderr io.Writer) error {
	var (
		common    run.Common
		externals []string
		openAPI   string
	)
	fs := pflag.NewFlagSet("applyconfiguration-gen", pflag.ContinueOnError)
	common.AddFlags(fs)
	fs.StringSliceVar(&externals, "external-applyconfigurations", nil,
		"list of comma separated external apply configurations locations in <type-package>.<type-name>:<applyconfiguration-package> form; the meta/v1 types map to kgen's runtime/applyconfigurations/meta/v1")
	fs.StringVar(&openAPI, "openapi-schema", "", "path to a Swagger 2 JSON file whose definitions, looked up by OpenAPI model name as code-generator does, give the apply configurations' schema (types it lacks are untyped) instead of the one derived from the Go types")
	return run.Execute(fs, args, stderr, func(patterns []string) error {
		start := time.Now()
		header, _, err := common.Load()
		if err != nil {
			return err
		}
		if len(patterns) == 0 {
			return fmt.Errorf("no input packages: pass package patterns as arguments")
		}
		ext, err := applyconfigurationgen.ParseExternals(externals)
		if err != nil {
			return err
		}
		cfg := applyconfigurationgen.Config{OutputDir: common.OutputDir, OutputPkg: common.OutputPkg, Header: header,
			Externals: ext, OpenAPISchema: openAPI, LintRules: common.LintRules,
			Warn: func(msg string) { fmt.Fprintf(stderr, "applyconfiguration-gen: warning: %s\n", msg) }}
		set := output.NewSet(applyconfigurationgen.Generator, common.OutputDir)
		if err := applyconfigurationgen.Generate(patterns, cfg, set); err != nil {
			return err
		}
		return common.Finish(set, start, stdout, stderr)
	})
}
