package e2e_test

import (
	"context"
	"os"
	"testing"

	"github.com/spf13/pflag"

	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/kubeconfig"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

// TestE2EKubeconfigFromTestenv loads the kubeconfig file testenv writes, through the flags a command
// would register, and talks to the real API server with the result.
func TestE2EKubeconfigFromTestenv(t *testing.T) {
	var flags kubeconfig.ConfigFlags
	fs := pflag.NewFlagSet("cmd", pflag.ContinueOnError)
	flags.AddFlags(fs)
	if err := fs.Parse([]string{"--kubeconfig", env.KubeconfigPath()}); err != nil {
		t.Fatal(err)
	}
	cfg, err := flags.ToRESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Insecure {
		t.Fatal("TLS verification must stay on")
	}
	d, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.ServerVersion()
	if err != nil || v.Major != "1" {
		t.Fatalf("%v %v", v, err)
	}
	if _, err := d.ServerGroupsWithContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	raw, err := flags.ToClientConfig().RawConfig()
	if err != nil || raw.CurrentContext == "" {
		t.Fatalf("raw config: %+v %v", raw, err)
	}
}
