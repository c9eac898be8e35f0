// Package crdcli is crd-gen's command line, apart from the other generators' (package cli) so the
// crd-gen binary links, and initialises at start, only what it runs.
package crdcli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/crdgen"
	"github.com/kgen-dev/kgen/internal/generators/load"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// Run runs crd-gen with command-line arguments args (without the program name): CRD manifests for
// the kinds of the packages matching the patterns, written to --output-dir.
func Run(args []string, stdout, stderr io.Writer) error {
	var common run.Common
	var maxDesc int
	var allowDangerous, embeddedObjectMeta, allowLossy bool
	var conversionService, webhookDir string
	fs := pflag.NewFlagSet("crd-gen", pflag.ContinueOnError)
	common.AddFlags(fs)
	fs.IntVar(&maxDesc, "max-description-length", -1, "cap every schema description at this many bytes; 0 drops descriptions, -1 keeps them whole")
	fs.BoolVar(&allowDangerous, "allow-dangerous-types", false, "accept float32 and float64 fields, as type number (controller-gen's crd:allowDangerousTypes)")
	fs.BoolVar(&embeddedObjectMeta, "generate-embedded-object-meta", false, "give metadata below a kind's root (a pod template's) its name, namespace, labels, annotations and finalizers (controller-gen's crd:generateEmbeddedObjectMeta)")
	fs.StringVar(&conversionService, "conversion-service", "", "give every CRD with more than one version a conversion webhook reached through this service: namespace/name[:port][/path] (path "+crdgen.DefaultConversionPath+" unless given)")
	fs.BoolVar(&allowLossy, "allow-lossy-versions", false, "accept a CRD whose versions have different fields without a conversion webhook (the API server then prunes what the version read lacks); without it that is an error naming the fields")
	fs.StringVar(&webhookDir, "webhook-output-dir", "", "also write the admission webhook configurations the packages' +kubebuilder:webhook markers describe to "+crdgen.WebhookManifestsFile+" in this directory, as controller-gen's webhook generator does")
	return run.Execute(fs, args, stderr, func(patterns []string) error {
		start := time.Now()
		if common.OutputDir == "" {
			return fmt.Errorf("--output-dir must be specified")
		}
		if err := model.ValidateLintRules(common.LintRules); err != nil {
			return err
		}
		plurals, err := common.Plurals()
		if err != nil {
			return err
		}
		if len(patterns) == 0 {
			return fmt.Errorf("no input packages: pass package patterns as arguments")
		}
		prog, err := load.Load(load.Config{}, patterns...)
		if err != nil {
			return err
		}
		// The model is made while crd-gen derives the schemas, which do not need it.
		type made struct {
			m   *model.Model
			err error
		}
		models := make(chan made, 1)
		go func() {
			m, err := model.FromProgram(prog, prog.Packages, model.Options{PluralExceptions: plurals, LintRules: common.LintRules})
			models <- made{m, err}
		}()
		getModel := func() (*model.Model, error) {
			r := <-models
			return r.m, r.err
		}
		set := output.NewSet(crdgen.Generator)
		cfg := crdgen.Config{OutputDir: common.OutputDir, MaxDescLen: maxDesc, PluralExceptions: plurals,
			AllowDangerousTypes: allowDangerous, GenerateEmbeddedObjectMeta: embeddedObjectMeta, AllowLossyVersions: allowLossy, WebhookDir: webhookDir}
		if conversionService != "" {
			svc, err := crdgen.ParseConversionService(conversionService)
			if err != nil {
				return fmt.Errorf("--conversion-service: %w", err)
			}
			cfg.ConversionService = &svc
		}
		if err := crdgen.GenerateMeanwhile(prog, prog.Packages, getModel, cfg, set); err != nil {
			return err
		}
		return common.Finish(set, start, stdout, stderr)
	})
}
