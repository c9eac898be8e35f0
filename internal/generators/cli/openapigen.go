package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/openapigen"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// OpenAPIGen runs openapi-gen with command-line arguments args (without the program name): kube-openapi's
// flags, plus --verify. Like kube-openapi's, it writes the API rule violation report (to stdout by
// default) and never fails because of violations; with --verify a report file that differs fails the
// run like a differing generated file.
func OpenAPIGen(args []string, stdout, stderr io.Writer) error {
	var c run.Common
	var outputFile, modelNameFile, report string
	var readOnly []string
	fs := pflag.NewFlagSet(openapigen.Generator, pflag.ContinueOnError)
	fs.StringVar(&c.OutputDir, "output-dir", "", "the directory of the definitions file")
	fs.StringVar(&c.OutputPkg, "output-pkg", "", "the Go import path of --output-dir")
	fs.StringVar(&outputFile, "output-file", "generated.openapi.go", "the name of the definitions file")
	fs.StringVar(&modelNameFile, "output-model-name-file", "", "when set, write OpenAPIModelName methods into this file of each input package that names its models (+k8s:openapi-model-package)")
	fs.StringSliceVar(&readOnly, "readonly-pkg", nil, "packages (import paths) that never get a model-name file")
	fs.StringVar(&c.GoHeaderFile, "go-header-file", "", "the path to a file containing boilerplate header text; YEAR is replaced with the current year")
	fs.StringVarP(&report, "report-filename", "r", "-", `the file to write the API rule violations to; "-" is stdout`)
	fs.BoolVar(&c.Verify, "verify", false, "generate in memory, print a unified diff of what differs from the files on disk, write nothing, and exit non-zero if anything differs")
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	fs.AddGoFlagSet(klogFlags)
	return run.Execute(fs, args, stderr, func(patterns []string) error {
		start := time.Now()
		if err := c.Validate(); err != nil {
			return err
		}
		if report == "" {
			return errors.New("--report-filename must be specified (use - for stdout)")
		}
		if len(patterns) == 0 {
			return errors.New("no input packages: pass package patterns as arguments")
		}
		header, err := c.Header()
		if err != nil {
			return err
		}
		prog, err := load.Load(load.Config{}, patterns...)
		if err != nil {
			return err
		}
		set := output.NewSet(openapigen.Generator)
		cfg := openapigen.Config{OutputDir: c.OutputDir, OutputPkg: c.OutputPkg, OutputFile: outputFile,
			ModelNameFile: modelNameFile, ReadOnly: readOnly, Header: header}
		res, err := openapigen.Generate(prog, prog.Packages, cfg, set)
		if err != nil {
			return err
		}
		if c.Verify && report != "-" {
			old, err := os.ReadFile(report)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			if got := res.Report(); !bytes.Equal(old, got) {
				io.WriteString(stdout, output.UnifiedDiff(report, old, got))
				if err := c.Finish(set, start, stdout, stderr); err != nil {
					return err
				}
				return fmt.Errorf("the API rule violation report %s differs (diff on stdout); run without --verify to update it", report)
			}
		}
		if err := c.Finish(set, start, stdout, stderr); err != nil || c.Verify {
			return err
		}
		if report == "-" {
			_, err := stdout.Write(res.Report())
			return err
		}
		return os.WriteFile(report, res.Report(), 0o644)
	})
}
