package kgencmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/openapigen"
	"github.com/kgen-dev/kgen/internal/generators/output"
)

// openapiOptions are kgen generate's flags for the openapi step, named as kube_codegen.sh gen_openapi's.
type openapiOptions struct {
	outputDir, outputPkg, modelNameFile, reportFile string
	extraPkgs                                       []string
	updateReport                                    bool
	// report is the report file's content when the flags were read: part of the no-op record's key
	// (which covers every option), so that an edited report is checked again.
	report string
}

func (o *openapiOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.outputDir, "openapi-output-dir", "", "also write OpenAPI definitions (GetOpenAPIDefinitions) into zz_generated.openapi.go in this directory, as kube_codegen.sh gen_openapi does")
	fs.StringVar(&o.outputPkg, "openapi-output-pkg", "", "the Go import path of --openapi-output-dir")
	fs.StringSliceVar(&o.extraPkgs, "openapi-extra-pkgs", nil, "further packages (import paths) whose +k8s:openapi-gen types get definitions, besides apimachinery's meta/v1, runtime, version and api/resource")
	fs.StringVar(&o.modelNameFile, "openapi-model-name-file", "", "write OpenAPIModelName methods into this file of each input package tagged +k8s:openapi-model-package (zz_generated.model_name.go in k8s.io's modules)")
	fs.StringVar(&o.reportFile, "openapi-report-filename", "", "the file of known API rule violations: a run whose violations differ from it fails, writing nothing")
	fs.BoolVar(&o.updateReport, "openapi-update-report", false, "rewrite --openapi-report-filename with this run's API rule violations instead of failing")
}

func (o *openapiOptions) enabled() bool { return o.outputDir != "" }

func (o *openapiOptions) validate() error {
	switch {
	case (o.outputDir == "") != (o.outputPkg == ""):
		return errors.New("--openapi-output-dir and --openapi-output-pkg go together")
	case o.outputDir == "" && (o.reportFile != "" || o.updateReport || o.modelNameFile != "" || len(o.extraPkgs) > 0):
		return errors.New("the --openapi-* flags need --openapi-output-dir and --openapi-output-pkg")
	case o.updateReport && o.reportFile == "":
		return errors.New("--openapi-update-report needs --openapi-report-filename")
	}
	if o.reportFile != "" {
		b, err := os.ReadFile(o.reportFile)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		o.report = string(b)
	}
	return nil
}

// extraPackages are the packages the openapi step reads besides the input packages: the load's syntax
// dependencies.
func (o *openapiOptions) extraPackages() []string {
	return append(append([]string{}, openapigen.BasePackages...), o.extraPkgs...)
}

// openapiRun is what the openapi step leaves to check after generation.
type openapiRun struct {
	opts   *openapiOptions
	result openapigen.Result
}

// step is the openapi generator's step over the input packages and the syntax dependencies of the
// run's load (apimachinery's packages and --openapi-extra-pkgs, see extraPackages), whose comments become
// descriptions: its set owns the output directory and the input tree's model-name files.
func (o *openapiOptions) step(prog *load.Program, inputDir string, header []byte) (step, *openapiRun, error) {
	dir, err := filepath.Abs(o.outputDir)
	if err != nil {
		return step{}, nil, err
	}
	cfg := openapigen.Config{OutputDir: dir, OutputPkg: o.outputPkg, OutputFile: "zz_generated.openapi.go",
		ModelNameFile: o.modelNameFile, ReadOnly: openapigen.ReadOnlyPackages, Header: header}
	r := &openapiRun{opts: o}
	roots := []string{dir}
	if o.modelNameFile != "" {
		roots = append(roots, inputDir)
	}
	pkgs := slices.Clip(prog.Packages)
	for _, p := range prog.SyntaxDeps {
		if slices.Contains(o.extraPackages(), p.Path) { // not the conversion step's peers
			pkgs = append(pkgs, p)
		}
	}
	return step{output.NewSet(openapigen.Generator, roots...), func(set *output.Set) error {
		res, err := openapigen.Generate(prog, pkgs, cfg, set)
		r.result = res
		return err
	}}, r, nil
}

// check fails when the violations differ from the report file, unless the run updates it.
func (r *openapiRun) check() error {
	if r == nil || r.opts.reportFile == "" || r.opts.updateReport {
		return nil
	}
	old, got := []byte(r.opts.report), r.result.Report()
	if bytes.Equal(old, got) {
		return nil
	}
	return fmt.Errorf("API rule check failed for %s: new reported violations (rerun with --openapi-update-report to accept them):\n%s",
		r.opts.reportFile, output.UnifiedDiff(r.opts.reportFile, old, got))
}

// update rewrites the report file when asked to.
func (r *openapiRun) update(stderr io.Writer) error {
	if r == nil || !r.opts.updateReport {
		return nil
	}
	got := r.result.Report()
	if old, err := os.ReadFile(r.opts.reportFile); err == nil && bytes.Equal(old, got) {
		return nil
	}
	if err := os.WriteFile(r.opts.reportFile, got, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "updated %s (%d API rule violations)\n", r.opts.reportFile, strings.Count(string(got), "\n"))
	return nil
}
