// Package testenvbuild builds the kube-apiserver and etcd binaries that testenv runs, from source through
// the Go module proxy, into one cache directory per Kubernetes version. The Go module the binaries are
// built from (its go.mod, go.sum and etcd's main package) is embedded, so a build needs no kgen checkout:
// it works from the module cache of any module that requires kgen, and offline once the binaries exist.
package testenvbuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// KubernetesVersion is the kube-apiserver release the embedded module pins: the one matching kgen's
// k8s.io/api. A test checks that the embedded go.mod requires it.
const KubernetesVersion = "v1.37.2"

// The embedded module: go.mod, go.sum and etcd's main package, stored under names Go does not treat as a
// nested module or as a package of kgen's own.
//
//go:embed module/go.mod.txt module/go.sum.txt module/etcd/main.go.txt
var embedded embed.FS

// Module is the source of one build: the tool module's go.mod and go.sum and etcd's main.go.
type Module struct {
	GoMod, GoSum, EtcdMain []byte
}

// Pinned returns the embedded module, the one that builds KubernetesVersion.
func Pinned() Module {
	read := func(name string) []byte {
		b, err := embedded.ReadFile("module/" + name)
		if err != nil {
			panic(err) // the files are embedded at compile time
		}
		return b
	}
	return Module{GoMod: read("go.mod.txt"), GoSum: read("go.sum.txt"), EtcdMain: read("etcd/main.go.txt")}
}

// Versions reads the Kubernetes and etcd versions the module requires.
func (m Module) Versions() (kubernetes, etcd string, err error) {
	f, err := modfile.ParseLax("go.mod", m.GoMod, nil)
	if err != nil {
		return "", "", err
	}
	for _, r := range f.Require {
		switch r.Mod.Path {
		case "k8s.io/kubernetes":
			kubernetes = r.Mod.Version
		case etcdServerModule:
			etcd = r.Mod.Version
		}
	}
	if kubernetes == "" || etcd == "" {
		return "", "", fmt.Errorf("the tool module must require k8s.io/kubernetes and %s", etcdServerModule)
	}
	return kubernetes, etcd, nil
}

// DefaultCacheRoot is $HOME/.cache/kgen/testenv, the parent of every version's directory.
func DefaultCacheRoot() string {
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, ".cache", "kgen", "testenv")
}

// Options configure Build.
type Options struct {
	// Version is the Kubernetes release to build, such as "v1.37.2"; empty means KubernetesVersion. Another
	// release's module is resolved through the module proxy on its first build and kept in the cache.
	Version string
	// CacheRoot holds one directory per version; empty means DefaultCacheRoot().
	CacheRoot string
	// Log receives progress and the go command's output; nil discards them.
	Log io.Writer
}

// Build returns the directory holding kube-apiserver and etcd for the version, building them first unless
// a build from the same module and flags is already there. Concurrent builds of one version wait for each
// other, and a waiting one finds the work done.
func Build(ctx context.Context, opts Options) (string, error) {
	version, root, log := opts.Version, opts.CacheRoot, opts.Log
	if version == "" {
		version = KubernetesVersion
	}
	if !isRelease(version) {
		return "", fmt.Errorf("testenv: %q is not a Kubernetes release such as %s", version, KubernetesVersion)
	}
	if root == "" {
		root = DefaultCacheRoot()
	}
	if log == nil {
		log = io.Discard
	}
	dir := filepath.Join(root, version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("testenv: %w", err)
	}
	unlock, err := lock(filepath.Join(dir, ".lock"))
	if err != nil {
		return "", fmt.Errorf("testenv: locking %s: %w", dir, err)
	}
	defer unlock()

	mod, err := moduleFor(ctx, version, dir, log)
	if err != nil {
		return "", err
	}
	s, err := mod.stamp()
	if err != nil {
		return "", fmt.Errorf("testenv: %w", err)
	}
	if upToDate(dir, s) {
		return dir, nil
	}
	if err := build(ctx, mod, dir, log); err != nil {
		return "", err
	}
	if err := writeFileAtomic(filepath.Join(dir, stampFile), []byte(s+"\n")); err != nil {
		return "", fmt.Errorf("testenv: %w", err)
	}
	return dir, nil
}

// Cached lists the versions under root (empty means DefaultCacheRoot()) whose binaries are complete, in
// version order.
func Cached(root string) ([]string, error) {
	if root == "" {
		root = DefaultCacheRoot()
	}
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var versions []string
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if e.IsDir() && isRelease(e.Name()) && complete(dir) {
			versions = append(versions, e.Name())
		}
	}
	slices.SortFunc(versions, semver.Compare)
	return versions, nil
}

const (
	etcdServerModule = "go.etcd.io/etcd/server/v3"
	stampFile        = "stamp"
	// sourceDir keeps the resolved module of a version other than the pinned one, so it rebuilds offline.
	sourceDir = "module"
)

func isRelease(v string) bool {
	return semver.IsValid(v) && semver.Prerelease(v) == "" && semver.Build(v) == "" && strings.Count(v, ".") == 2
}

// moduleFor returns the module that builds version: the embedded one for the pinned release, otherwise the
// one kept in dir or, on first use, one resolved through the module proxy and kept there.
func moduleFor(ctx context.Context, version, dir string, log io.Writer) (Module, error) {
	if version == KubernetesVersion {
		return Pinned(), nil
	}
	src := filepath.Join(dir, sourceDir)
	if m, err := readModule(src); err == nil {
		return m, nil
	}
	fmt.Fprintf(log, "testenv: resolving the module for Kubernetes %s through the module proxy\n", version)
	m, err := Resolve(ctx, version, log)
	if err != nil {
		return Module{}, err
	}
	if err := m.write(src); err != nil {
		return Module{}, fmt.Errorf("testenv: %w", err)
	}
	return m, nil
}

// stamp records what the binaries are built from; any change to it rebuilds them.
func (m Module) stamp() (string, error) {
	k8s, etcd, err := m.Versions()
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	sum.Write(m.GoMod)
	sum.Write(m.GoSum)
	sum.Write(m.EtcdMain)
	return fmt.Sprintf("kubernetes %s\netcd %s\ninputs %s\nldflags %s | %s",
		k8s, etcd, hex.EncodeToString(sum.Sum(nil)), apiserverLDFlags(k8s), etcdLDFlags), nil
}

const etcdLDFlags = "-s -w"

// apiserverLDFlags stamps the release into the binary, so the server reports its real version.
func apiserverLDFlags(k8s string) string {
	minor := strings.Split(strings.TrimPrefix(k8s, "v"), ".")[1]
	return fmt.Sprintf("-s -w -X k8s.io/component-base/version.gitVersion=%[1]s -X k8s.io/component-base/version.gitMajor=1"+
		" -X k8s.io/component-base/version.gitMinor=%[2]s -X k8s.io/component-base/version.gitTreeState=clean"+
		" -X k8s.io/client-go/pkg/version.gitVersion=%[1]s -X k8s.io/client-go/pkg/version.gitMajor=1"+
		" -X k8s.io/client-go/pkg/version.gitMinor=%[2]s", k8s, minor)
}

func upToDate(dir, stamp string) bool {
	got, err := os.ReadFile(filepath.Join(dir, stampFile))
	return err == nil && strings.TrimSpace(string(got)) == stamp && complete(dir)
}

// complete reports whether dir holds both binaries and a stamp.
func complete(dir string) bool {
	for _, name := range []string{"kube-apiserver", "etcd", stampFile} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.IsDir() {
			return false
		}
	}
	return true
}

// build compiles both binaries from the module into dir, each under a temporary name renamed into place
// once it is complete. It reports each phase (downloading the sources, building etcd, building
// kube-apiserver) with its elapsed time, a line a minute while one runs, and the result; the go
// command's own output is shown only when it fails.
func build(ctx context.Context, m Module, dir string, log io.Writer) error {
	k8s, etcd, err := m.Versions()
	if err != nil {
		return fmt.Errorf("testenv: %w", err)
	}
	work, err := os.MkdirTemp("", "kgen-testenv-")
	if err != nil {
		return fmt.Errorf("testenv: %w", err)
	}
	defer os.RemoveAll(work)
	if err := m.write(work); err != nil {
		return fmt.Errorf("testenv: %w", err)
	}
	os.Remove(filepath.Join(dir, stampFile))
	p := newProgress(log, 3)
	p.printf("testenv: building kube-apiserver %s and etcd %s into %s (the first build takes minutes)", k8s, etcd, dir)
	const apiserverPkg = "k8s.io/kubernetes/cmd/kube-apiserver"
	var downloaded int
	err = p.phase("downloading the sources", func() (string, error) {
		out, err := goCommand(ctx, work, nil, "-mod=readonly", "list", "-deps", "-test=false", "-f", "{{.ImportPath}}", apiserverPkg, "./etcd")
		downloaded = strings.Count(out, "go: downloading ")
		if downloaded == 0 {
			return "all in the module cache", err
		}
		return fmt.Sprintf("%d modules", downloaded), err
	})
	if err != nil {
		return fmt.Errorf("testenv: downloading the sources of kube-apiserver %s and etcd %s: %w", k8s, etcd, err)
	}
	for _, b := range []struct{ name, version, pkg, ldflags string }{
		{"etcd", etcd, "./etcd", etcdLDFlags},
		{"kube-apiserver", k8s, apiserverPkg, apiserverLDFlags(k8s)},
	} {
		tmp := filepath.Join(dir, b.name+".tmp")
		err := p.phase("building "+b.name+" "+b.version, func() (string, error) {
			_, err := goCommand(ctx, work, nil, "-mod=readonly", "build", "-trimpath", "-ldflags", b.ldflags, "-o", tmp, b.pkg)
			return "", err
		})
		if err != nil {
			os.Remove(tmp)
			return fmt.Errorf("testenv: building %s %s: %w", b.name, b.version, err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, b.name)); err != nil {
			return fmt.Errorf("testenv: %w", err)
		}
	}
	p.printf("testenv: kube-apiserver %s and etcd %s are ready in %s (built in %s)", k8s, etcd, dir, p.elapsed(p.start))
	return nil
}

// goCommand runs the go command in dir outside any workspace, with modFlag as its only GOFLAGS, copies its
// standard output to stdout (nil discards it) and returns what it wrote to stderr; a failure's error ends
// with the last lines of that, which say why.
func goCommand(ctx context.Context, dir string, stdout io.Writer, modFlag string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+modFlag)
	var stderr bytes.Buffer
	cmd.Stdout = stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := lastLines(stderr.String(), 20); msg != "" {
			return stderr.String(), fmt.Errorf("go %s: %w\n%s", args[0], err, msg)
		}
		return stderr.String(), fmt.Errorf("go %s: %w", args[0], err)
	}
	return stderr.String(), nil
}

// lastLines returns the last n lines of s, which say why a go command failed.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// write lays the module out in dir as the go command expects it.
func (m Module) write(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "etcd"), 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{"go.mod": m.GoMod, "go.sum": m.GoSum, "etcd/main.go": m.EtcdMain} {
		if err := writeFileAtomic(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	return nil
}

func readModule(dir string) (Module, error) {
	var m Module
	var err error
	for name, dst := range map[string]*[]byte{"go.mod": &m.GoMod, "go.sum": &m.GoSum, "etcd/main.go": &m.EtcdMain} {
		if *dst, err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			return Module{}, err
		}
	}
	return m, nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
