// Command metagen writes kgen's apply configurations of k8s.io/apimachinery's meta/v1 types
// (applyconfigurationgen.MetaTypes) into runtime/applyconfigurations/meta/v1 with applyconfiguration-gen's
// code; runtime/applyconfigurations/meta/v1/doc.go runs it with go:generate.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/applyconfigurationgen"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

func main() { run.Main("metagen", generate) }

func generate(args []string, stdout, stderr io.Writer) error {
	var common run.Common
	fs := pflag.NewFlagSet("metagen", pflag.ContinueOnError)
	common.AddFlags(fs)
	return run.Execute(fs, args, stderr, func(patterns []string) error {
		start := time.Now()
		header, _, err := common.Load()
		if err != nil {
			return err
		}
		if len(patterns) != 0 {
			return fmt.Errorf("metagen takes no package arguments")
		}
		if common.OutputPkg != applyconfigurationgen.MetaPkg {
			return fmt.Errorf("--output-pkg must be %s", applyconfigurationgen.MetaPkg)
		}
		cfg := applyconfigurationgen.Config{OutputDir: common.OutputDir, OutputPkg: common.OutputPkg,
			Header: header, Externals: map[string]string{}, Roots: applyconfigurationgen.MetaTypes}
		set := output.NewSet(applyconfigurationgen.Generator, common.OutputDir)
		if err := applyconfigurationgen.Generate([]string{"k8s.io/apimachinery/pkg/apis/meta/v1"}, cfg, set); err != nil {
			return err
		}
		return common.Finish(set, start, stdout, os.Stderr)
	})
}
