package kgencmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/kgen-dev/kgen/internal/testenvbuild"
)

const testenvUsage = `
Usage:
  kgen testenv [--kubernetes-version V] [--cache-dir DIR]   build unless cached, print the directory
  kgen testenv list [--cache-dir DIR]                        print the cached Kubernetes versions
  kgen testenv update-deps V [--module-dir DIR]              (kgen maintainers) pin release V

Builds kube-apiserver and etcd from source through the Go module proxy into
$HOME/.cache/kgen/testenv/<version>/ and prints that directory on stdout (progress goes to stderr).
The first build takes minutes; later runs take well under a second and need no network.
Without --kubernetes-version, $KGEN_TESTENV_ASSETS or $KUBEBUILDER_ASSETS, when set, name existing
binaries instead, as testenv.Start reads them.

Examples:
  go run github.com/kgen-dev/kgen/cmd/kgen testenv        # from any module that requires kgen
  go tool kgen testenv --kubernetes-version v1.37.1       # with kgen as a tool of your module
  export KGEN_TESTENV_ASSETS=$(go tool kgen testenv)
`

func runTestenv(args []string, stdout, stderr io.Writer) error {
	var version, cacheDir, moduleDir string
	fs := newFlagSet("testenv", stdout, testenvUsage)
	fs.StringVar(&version, "kubernetes-version", "", "the Kubernetes release to build (default "+testenvbuild.KubernetesVersion+", the one matching kgen's k8s.io/api)")
	fs.StringVar(&cacheDir, "cache-dir", "", "the directory holding one subdirectory per version (default $HOME/.cache/kgen/testenv)")
	fs.StringVar(&moduleDir, "module-dir", filepath.Join("internal", "testenvbuild", "module"), "with update-deps: the embedded module's directory in a kgen checkout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch rest := fs.Args(); {
	case len(rest) == 0:
		dir, err := testenvDir(ctx, version, cacheDir, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, dir)
		return nil
	case rest[0] == "list" && len(rest) == 1:
		versions, err := testenvbuild.Cached(cacheDir)
		if err != nil {
			return err
		}
		for _, v := range versions {
			fmt.Fprintln(stdout, v)
		}
		return nil
	case rest[0] == "update-deps" && len(rest) == 2:
		return updateDeps(ctx, rest[1], moduleDir, stderr)
	default:
		return fmt.Errorf("unexpected arguments %q (see kgen help testenv)", rest)
	}
}

// testenvDir returns the directory of binaries named by the environment or, failing that, builds them.
func testenvDir(ctx context.Context, version, cacheDir string, log io.Writer) (string, error) {
	if version == "" {
		for _, name := range []string{"KGEN_TESTENV_ASSETS", "KUBEBUILDER_ASSETS"} {
			dir := os.Getenv(name)
			if dir == "" {
				continue
			}
			for _, bin := range []string{"kube-apiserver", "etcd"} {
				if info, err := os.Stat(filepath.Join(dir, bin)); err != nil || info.IsDir() {
					return "", fmt.Errorf("$%s=%s has no %s binary", name, dir, bin)
				}
			}
			return dir, nil
		}
	}
	return testenvbuild.Build(ctx, testenvbuild.Options{Version: version, CacheRoot: cacheDir, Log: log})
}

// updateDeps rewrites the embedded module in a kgen checkout so that it builds release version.
func updateDeps(ctx context.Context, version, moduleDir string, log io.Writer) error {
	if info, err := os.Stat(moduleDir); err != nil || !info.IsDir() {
		return errors.New("update-deps rewrites the embedded module of a kgen checkout: run it from the repository root or pass --module-dir")
	}
	m, err := testenvbuild.Resolve(ctx, version, log)
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"go.mod.txt": m.GoMod, "go.sum.txt": m.GoSum} {
		if err := os.WriteFile(filepath.Join(moduleDir, name), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "testenv: %s now builds Kubernetes %s; set testenvbuild.KubernetesVersion to %s (a test checks they agree)\n", moduleDir, version, version)
	return nil
}
