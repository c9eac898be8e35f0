package cli

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/internal/generators/clientgen"
	"github.com/kgen-dev/kgen/internal/generators/model"
	"github.com/kgen-dev/kgen/internal/generators/output"
	"github.com/kgen-dev/kgen/internal/generators/run"
)

// ClientGen runs client-gen with command-line arguments args (without the program name).
func ClientGen(args []string, stdout, stderr io.Writer) error {
	var (
		common        run.Common
		inputs        []string
		inputBase     string
		included      []string
		clientsetName string
		apiPath       string
		clientsetOnly bool
		fake          bool
		applyPkg      string
		protobuf      bool
	)
	fs := pflag.NewFlagSet("client-gen", pflag.ContinueOnError)
	common.AddFlags(fs)
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == "clientset-path" { // code-generator's old name of --output-pkg
			name = "output-pkg"
		}
		return pflag.NormalizedName(name)
	})
	fs.StringSliceVar(&inputs, "input", nil, "group/version (or path/.../group/version) of the API packages, relative to --input-base; repeatable or comma separated")
	fs.StringVar(&inputBase, "input-base", "k8s.io/kubernetes/pkg/apis", "import path or directory prefix of --input")
	fs.StringSliceVar(&included, "included-types-overrides", nil, "group/version/Type (or group/Type) to generate regardless of +genclient; restricts that group version to the listed types")
	fs.StringVarP(&clientsetName, "clientset-name", "n", "internalclientset", "the name of the generated clientset package")
	fs.StringVar(&apiPath, "clientset-api-path", "/apis", "the default API path of the generated clientset")
	fs.BoolVar(&clientsetOnly, "clientset-only", false, "only generate the clientset shell, without typed clients")
	fs.BoolVar(&fake, "fake-clientset", true, "generate a fake clientset")
	fs.StringVar(&applyPkg, "apply-configuration-package", "", "import path of the apply configurations; enables Apply verbs")
	fs.BoolVar(&protobuf, "prefers-protobuf", false, "make generated clients prefer protobuf")

	return run.Execute(fs, args, stderr, func(args []string) error {
		start := time.Now()
		if len(args) > 0 {
			return fmt.Errorf("client-gen takes no package arguments (got %s): name the API group versions with --input (relative to --input-base)", strings.Join(args, " "))
		}
		header, plurals, err := common.Load()
		if err != nil {
			return err
		}
		if clientsetName == "" || apiPath == "" {
			return fmt.Errorf("--clientset-name and --clientset-api-path must not be empty")
		}
		if len(inputs) == 0 {
			return fmt.Errorf("--input must name at least one group/version")
		}
		overrides := map[string][]string{}
		for _, o := range included {
			parts := strings.Split(o, "/")
			switch len(parts) {
			case 2:
				overrides[parts[0]+"/"] = append(overrides[parts[0]+"/"], parts[1])
			case 3:
				overrides[parts[0]+"/"+parts[1]] = append(overrides[parts[0]+"/"+parts[1]], parts[2])
			default:
				return fmt.Errorf("--included-types-overrides: %q is not group/version/Type or group/Type", o)
			}
		}
		var patterns []string
		for _, in := range inputs {
			if filepath.IsAbs(inputBase) {
				patterns = append(patterns, filepath.Join(inputBase, filepath.FromSlash(in)))
			} else if strings.HasPrefix(inputBase, ".") {
				patterns = append(patterns, "."+string(filepath.Separator)+filepath.Join(inputBase, filepath.FromSlash(in)))
			} else {
				patterns = append(patterns, path.Join(inputBase, in))
			}
		}
		m, err := loadModel(patterns, model.Options{PluralExceptions: plurals, WithApply: applyPkg != "", IncludedTypes: overrides, LintRules: common.LintRules, Clients: !clientsetOnly})
		if err != nil {
			return err
		}
		if msg := model.NothingGenerated([]string{clientgen.Generator}, len(m.Groups) > 0, "genclient", m.GenclientTags); msg != "" {
			fmt.Fprintf(stderr, "%s: warning: %s\n", clientgen.Generator, msg)
		}
		cfg := clientgen.Config{
			OutputDir: common.OutputDir, OutputPkg: common.OutputPkg, ClientsetName: clientsetName,
			APIPath: apiPath, ClientsetOnly: clientsetOnly, FakeClientset: fake,
			ApplyConfigurationPackage: applyPkg, PrefersProtobuf: protobuf, Header: header,
		}
		set := output.NewSet(clientgen.Generator)
		if err := clientgen.Generate(m, cfg, set); err != nil {
			return err
		}
		return common.Finish(set, start, stdout, stderr)
	})
}
