package kubeconfig

import (
	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// ConfigFlags holds the kubectl-style connection flags of a command.
type ConfigFlags struct {
	// KubeConfig is the --kubeconfig path.
	KubeConfig string
	// Context is the --context name.
	Context string
	// Namespace is the --namespace (-n) value.
	Namespace string
}

// AddFlags registers --kubeconfig, --context and --namespace/-n on fs.
func (f *ConfigFlags) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&f.KubeConfig, "kubeconfig", f.KubeConfig, "Path to the kubeconfig file to use (default: $KUBECONFIG or ~/.kube/config).")
	fs.StringVar(&f.Context, "context", f.Context, "The name of the kubeconfig context to use.")
	fs.StringVarP(&f.Namespace, "namespace", "n", f.Namespace, "The namespace to use (default: the context's namespace).")
}

// ToClientConfig returns a ClientConfig honouring the flags.
func (f *ConfigFlags) ToClientConfig() ClientConfig {
	rules := NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = f.KubeConfig
	return NewNonInteractiveDeferredLoadingClientConfig(rules, f.overrides())
}

func (f *ConfigFlags) overrides() *ConfigOverrides {
	return &ConfigOverrides{CurrentContext: f.Context, Context: Context{Namespace: f.Namespace}}
}

// ToRESTConfig returns the rest.Config the flags select. Without --kubeconfig, $KUBECONFIG or --context it
// uses the in-cluster service account when running in a pod.
func (f *ConfigFlags) ToRESTConfig() (*rest.Config, error) {
	if f.Context != "" {
		return f.ToClientConfig().ClientConfig()
	}
	rules := NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = f.KubeConfig
	return InClusterOrKubeconfig(rules, f.overrides())
}

// ToNamespace returns the namespace the flags select and whether --namespace set it.
func (f *ConfigFlags) ToNamespace() (string, bool, error) {
	return f.ToClientConfig().Namespace()
}
