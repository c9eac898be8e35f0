package testenvbuild

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestPinnedModuleBuildsKubernetesVersion(t *testing.T) {
	k8s, etcd, err := Pinned().Versions()
	if err != nil {
		t.Fatal(err)
	}
	if k8s != KubernetesVersion {
		t.Fatalf("the embedded go.mod requires k8s.io/kubernetes %s, KubernetesVersion is %s", k8s, KubernetesVersion)
	}
	if !strings.HasPrefix(etcd, "v3.") {
		t.Fatalf("etcd server version = %q", etcd)
	}
	if !strings.Contains(string(Pinned().EtcdMain), "etcdmain.Main") {
		t.Fatal("the embedded etcd main package does not run etcdmain")
	}
}

// fakeGo puts a go command on PATH that logs its arguments and environment, reports two downloads for
// `go list` and, for `go build -o F`, writes F; it returns the log's path.
func fakeGo(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	script := `#!/bin/sh
echo "$GOWORK $GOFLAGS $*" >>` + log + `
if [ "$1" = "list" ]; then
	echo "go: downloading example.com/a v1.0.0" >&2
	echo "go: downloading example.com/b v1.0.0" >&2
	echo "example.com/a"
fi
out=""
while [ $# -gt 0 ]; do
	if [ "$1" = "-o" ]; then out="$2"; fi
	shift
done
[ -n "$out" ] && echo binary >"$out"
exit 0
`
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	return log
}

func calls(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func TestBuildCompilesBothBinariesAndStampsThem(t *testing.T) {
	log := fakeGo(t)
	root := t.TempDir()
	dir, err := Build(context.Background(), Options{CacheRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(root, KubernetesVersion) {
		t.Fatalf("dir = %s", dir)
	}
	got := calls(t, log)
	if len(got) != 3 {
		t.Fatalf("go ran %d times, want 3: %q", len(got), got)
	}
	if !strings.HasPrefix(got[0], "off -mod=readonly list -deps ") || !strings.HasSuffix(got[0], "k8s.io/kubernetes/cmd/kube-apiserver ./etcd") {
		t.Errorf("call 0 = %q, want a readonly, workspace-free listing of both binaries' packages", got[0])
	}
	for i, want := range []string{"./etcd", "k8s.io/kubernetes/cmd/kube-apiserver"} {
		if !strings.HasPrefix(got[i+1], "off -mod=readonly build -trimpath -ldflags ") || !strings.HasSuffix(got[i+1], want) {
			t.Errorf("call %d = %q, want a readonly, workspace-free build of %s", i+1, got[i+1], want)
		}
	}
	if !strings.Contains(got[2], "k8s.io/component-base/version.gitVersion="+KubernetesVersion) {
		t.Errorf("kube-apiserver is not stamped with its version: %q", got[2])
	}
	for _, name := range []string{"kube-apiserver", "etcd", "stamp"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}

	// Built once, a second call is offline and runs no go command.
	t.Setenv("PATH", "")
	if again, err := Build(context.Background(), Options{CacheRoot: root}); err != nil || again != dir {
		t.Fatalf("second Build = %s, %v; want %s from the cache", again, err, dir)
	}
}

func TestBuildRebuildsWhenTheStampDiffers(t *testing.T) {
	log := fakeGo(t)
	root := t.TempDir()
	dir := filepath.Join(root, KubernetesVersion)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"kube-apiserver": "old", "etcd": "old", "stamp": "kubernetes v1.0.0\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Build(context.Background(), Options{CacheRoot: root}); err != nil {
		t.Fatal(err)
	}
	if n := len(calls(t, log)); n != 3 {
		t.Fatalf("go ran %d times, want a rebuild of both binaries", n)
	}
	stamp, _ := os.ReadFile(filepath.Join(dir, "stamp"))
	want, _ := Pinned().stamp()
	if strings.TrimSpace(string(stamp)) != want {
		t.Fatalf("stamp = %q, want %q", stamp, want)
	}
}

func TestConcurrentBuildsBuildOnce(t *testing.T) {
	log := fakeGo(t)
	root := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { _, errs[i] = Build(context.Background(), Options{CacheRoot: root}) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := len(calls(t, log)); n != 3 {
		t.Fatalf("go ran %d times for 4 concurrent builds, want 3 (one build)", n)
	}
}

func TestBuildFailureKeepsNoBinary(t *testing.T) {
	bin := t.TempDir()
	script := `#!/bin/sh
case "$*" in
*build*kube-apiserver*) echo 'proxy says no' >&2; exit 1;;
esac
out=""
while [ $# -gt 0 ]; do
	if [ "$1" = "-o" ]; then out="$2"; fi
	shift
done
[ -n "$out" ] && echo binary >"$out"
exit 0
`
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	root := t.TempDir()
	_, err := Build(context.Background(), Options{CacheRoot: root})
	if err == nil || !strings.Contains(err.Error(), "building kube-apiserver") || !strings.Contains(err.Error(), "proxy says no") {
		t.Fatalf("error = %v, want one naming the binary and the go command's message", err)
	}
	if versions, _ := Cached(root); len(versions) != 0 {
		t.Fatalf("Cached = %v after a failed build", versions)
	}
}

func TestBuildRejectsNonReleases(t *testing.T) {
	for _, v := range []string{"1.37.2", "v1.37", "v1.37.2-rc.0", "latest"} {
		if _, err := Build(context.Background(), Options{Version: v, CacheRoot: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "is not a Kubernetes release") {
			t.Errorf("Build(%q) error = %v", v, err)
		}
	}
}

func TestCachedListsCompleteVersionsInOrder(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"v1.37.10", "v1.36.3", "v1.37.2", "v1.35.0"} {
		dir := filepath.Join(root, v)
		os.MkdirAll(dir, 0o755)
		names := []string{"kube-apiserver", "etcd", "stamp"}
		if v == "v1.35.0" {
			names = names[:2] // a build that never finished has no stamp
		}
		for _, name := range names {
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	os.MkdirAll(filepath.Join(root, "not-a-version"), 0o755)
	got, err := Cached(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"v1.36.3", "v1.37.2", "v1.37.10"}; !slices.Equal(got, want) {
		t.Fatalf("Cached = %v, want %v", got, want)
	}
	if got, err := Cached(filepath.Join(root, "missing")); err != nil || got != nil {
		t.Fatalf("Cached(missing) = %v, %v", got, err)
	}
}

func TestToolGoModMapsStagingToPublishedModules(t *testing.T) {
	upstream := []byte(`module k8s.io/kubernetes

go 1.26.0

godebug default=go1.26

require (
	go.etcd.io/etcd/server/v3 v3.7.0
	k8s.io/api v0.0.0
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/client-go => ./staging/src/k8s.io/client-go
	example.com/fork => example.com/other v1.0.0
)
`)
	got, err := toolGoMod("v1.38.4", upstream)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"go 1.26.0\n", "godebug default=go1.26\n", "tool k8s.io/kubernetes/cmd/kube-apiserver\n",
		"\tgo.etcd.io/etcd/server/v3 v3.7.0\n", "\tk8s.io/kubernetes v1.38.4\n",
		"\tk8s.io/api => k8s.io/api v0.38.4\n", "\tk8s.io/client-go => k8s.io/client-go v0.38.4\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), "example.com") {
		t.Errorf("go.mod keeps a replacement that is not a staging module:\n%s", got)
	}
	m := Module{GoMod: got}
	if k8s, etcd, err := m.Versions(); err != nil || k8s != "v1.38.4" || etcd != "v3.7.0" {
		t.Fatalf("Versions() = %s, %s, %v", k8s, etcd, err)
	}
	if _, err := toolGoMod("v1.38.4", []byte("module k8s.io/kubernetes\n")); err == nil || !strings.Contains(err.Error(), "go.etcd.io/etcd/server/v3") {
		t.Fatalf("error = %v, want one naming the missing etcd requirement", err)
	}
}

func TestBuildOfAnotherReleaseReusesItsResolvedModule(t *testing.T) {
	log := fakeGo(t)
	root := t.TempDir()
	other := Module{
		GoMod:    []byte("module x\n\nrequire (\n\tgo.etcd.io/etcd/server/v3 v3.6.9\n\tk8s.io/kubernetes v1.36.3\n)\n"),
		GoSum:    []byte{},
		EtcdMain: Pinned().EtcdMain,
	}
	if err := other.write(filepath.Join(root, "v1.36.3", sourceDir)); err != nil {
		t.Fatal(err)
	}
	dir, err := Build(context.Background(), Options{Version: "v1.36.3", CacheRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	got := calls(t, log)
	if len(got) != 3 || !strings.Contains(got[2], "gitVersion=v1.36.3") {
		t.Fatalf("go calls = %q, want a listing and two builds of v1.36.3 from the kept module and no resolution", got)
	}
	if versions, _ := Cached(root); !slices.Equal(versions, []string{"v1.36.3"}) || dir != filepath.Join(root, "v1.36.3") {
		t.Fatalf("Cached = %v, dir = %s", versions, dir)
	}
}

func TestBuildReportsItsPhasesAndResult(t *testing.T) {
	fakeGo(t)
	root := t.TempDir()
	var log strings.Builder
	dir, err := Build(context.Background(), Options{CacheRoot: root, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	out := log.String()
	for _, want := range []string{
		"testenv: [1/3] downloading the sources ...\n",
		"testenv: [1/3] downloading the sources: done in 0s (2 modules)\n",
		"testenv: [2/3] building etcd v3.",
		"testenv: [3/3] building kube-apiserver " + KubernetesVersion + ": done in ",
		"testenv: kube-apiserver " + KubernetesVersion + " and etcd v3.",
		" are ready in " + dir + " (built in ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "go: downloading") {
		t.Errorf("log repeats the go command's download lines:\n%s", out)
	}
}

func TestBuildFailureShowsTheGoCommandsOutput(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\necho 'go: downloading example.com/a v1.0.0' >&2\necho 'proxy says no' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	var log strings.Builder
	_, err := Build(context.Background(), Options{CacheRoot: t.TempDir(), Log: &log})
	if err == nil || !strings.Contains(err.Error(), "downloading the sources") || !strings.Contains(err.Error(), "proxy says no") {
		t.Fatalf("error = %v, want one naming the phase and the go command's message", err)
	}
	if !strings.Contains(log.String(), "testenv: [1/3] downloading the sources: failed after ") {
		t.Fatalf("log does not report the failed phase:\n%s", log.String())
	}
}

func TestPhaseSaysItIsStillRunning(t *testing.T) {
	var log strings.Builder
	p := newProgress(&log, 2)
	now := p.start
	p.now = func() time.Time { return now }
	ticks := make(chan time.Time)
	stopped := false
	p.ticker = func() (<-chan time.Time, func()) { return ticks, func() { stopped = true } }
	err := p.phase("building etcd v3.7.0", func() (string, error) {
		now = now.Add(90 * time.Second)
		ticks <- now // received by the heartbeat goroutine, which prints before phase returns
		now = now.Add(30 * time.Second)
		return "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "testenv: [1/2] building etcd v3.7.0 ...\n" +
		"testenv: [1/2] building etcd v3.7.0: still running (1m30s)\n" +
		"testenv: [1/2] building etcd v3.7.0: done in 2m0s\n"
	if log.String() != want || !stopped {
		t.Fatalf("log = %q (ticker stopped: %v), want %q", log.String(), stopped, want)
	}
}
