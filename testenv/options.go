package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kgen-dev/kgen/internal/testenvbuild"
)

// KubernetesVersion is the kube-apiserver release `kgen testenv` builds and DefaultAssetsDir is named after:
// the one matching kgen's k8s.io/api.
const KubernetesVersion = testenvbuild.KubernetesVersion

// BuildCommand is the command that builds the binaries for this version of kgen, from any module that
// requires it.
const BuildCommand = "go run github.com/kgen-dev/kgen/cmd/kgen testenv"

// Environment variables naming a directory that holds the kube-apiserver and etcd binaries, checked in order.
const (
	AssetsEnv            = "KGEN_TESTENV_ASSETS"
	KubebuilderAssetsEnv = "KUBEBUILDER_ASSETS"
)

const defaultStartTimeout = time.Minute

// Options configures Start. The zero value starts a ready environment with the default binaries.
type Options struct {
	// AssetsDir holds the kube-apiserver and etcd binaries. Empty means $KGEN_TESTENV_ASSETS, then
	// $KUBEBUILDER_ASSETS, then DefaultAssetsDir().
	AssetsDir string
	// StartTimeout bounds how long Start, Restart and InstallCRDs wait for the server; zero means one minute.
	StartTimeout time.Duration
	// CRDs are installed by Start once the server is ready, in any form InstallCRDs accepts.
	CRDs []any
	// APIServerArgs are extra kube-apiserver flags such as "--feature-gates=X=true". They follow testenv's
	// own flags, so a scalar flag given here wins and a list flag is extended.
	APIServerArgs []string
	// EtcdArgs are extra etcd flags; they follow testenv's own flags, so a flag given here wins.
	EtcdArgs []string
	// Webhooks points CRD conversions and admission webhooks at a server the test runs (see WebhookOptions).
	Webhooks WebhookOptions
}

// DefaultAssetsDir is where `kgen testenv` puts the binaries: $HOME/.cache/kgen/testenv/<KubernetesVersion>.
func DefaultAssetsDir() string {
	return filepath.Join(testenvbuild.DefaultCacheRoot(), KubernetesVersion)
}

func (o Options) startTimeout() time.Duration {
	if o.StartTimeout > 0 {
		return o.StartTimeout
	}
	return defaultStartTimeout
}

// assetsDir reports the binaries' directory and where that choice came from, for error messages.
func (o Options) assetsDir() (dir, origin string) {
	if o.AssetsDir != "" {
		return o.AssetsDir, "Options.AssetsDir"
	}
	for _, name := range []string{AssetsEnv, KubebuilderAssetsEnv} {
		if dir := os.Getenv(name); dir != "" {
			return dir, "$" + name
		}
	}
	return DefaultAssetsDir(), "the default directory"
}

// binary returns the path of the named binary, or an error telling how to get it.
func (o Options) binary(name string) (string, error) {
	dir, origin := o.assetsDir()
	path := filepath.Join(dir, name)
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("testenv: %s binary not found at %s (%s): run `%s` in your module to build it "+
			"(once, a few minutes), or set %s to a directory holding kube-apiserver and etcd", name, path, origin, BuildCommand, AssetsEnv)
	case info.IsDir() || info.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("testenv: %s at %s (%s) is not an executable file", name, path, origin)
	}
	return path, nil
}
