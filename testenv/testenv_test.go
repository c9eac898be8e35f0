//go:build linux

package testenv

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// env is the environment shared by this package's tests, started by Main in TestMain.
var env *Environment

// Re-executed test binaries read their role from helperModeEnv and report their environment's process ids
// and directory to the file named by helperReportEnv.
const (
	helperModeEnv   = "KGEN_TESTENV_TEST_HELPER"
	helperReportEnv = "KGEN_TESTENV_TEST_REPORT"
)

func TestMain(m *testing.M) {
	if os.Getenv(helperModeEnv) == "panic" {
		panicWithRunningEnvironment()
	}
	os.Exit(Main(m, Options{}, &env))
}

// panicWithRunningEnvironment starts an environment, reports it and panics without stopping it.
func panicWithRunningEnvironment() {
	e, err := Start(context.Background(), Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	e.report()
	panic("test binary dies with its environment running")
}

// report writes the environment's process ids and directory to the helper report file.
func (e *Environment) report() {
	pids := e.pids()
	line := fmt.Sprintf("%d %d %s\n", pids[0], pids[1], e.dir)
	if err := os.WriteFile(os.Getenv(helperReportEnv), []byte(line), 0o600); err != nil {
		panic(err)
	}
}

// runHelper re-executes the test binary in a helper mode and returns its combined output, the process
// ids and directory of the environment it reported, and its error.
func runHelper(t *testing.T, mode string, args ...string) (string, []int, string, error) {
	t.Helper()
	reportPath := filepath.Join(t.TempDir(), "report")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), helperModeEnv+"="+mode, helperReportEnv+"="+reportPath)
	out, runErr := cmd.CombinedOutput()
	report, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatalf("helper wrote no report: %v\n%s", err, out)
	}
	var etcdPID, apiserverPID int
	var dir string
	if _, err := fmt.Sscanf(string(report), "%d %d %s", &etcdPID, &apiserverPID, &dir); err != nil {
		t.Fatalf("helper report %q: %v", report, err)
	}
	return string(out), []int{etcdPID, apiserverPID}, dir, runErr
}

const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.kgen.dev
spec:
  group: example.kgen.dev
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`

func TestEndToEnd(t *testing.T) {
	c := newAPIClient(t, env.Config())
	c.must(201, "POST", "/api/v1/namespaces", namespaceObject("e2e"))
	got := c.must(200, "GET", "/api/v1/namespaces/e2e", nil)
	if nestedString(got, "status", "phase") != "Active" {
		t.Errorf("namespace phase = %q, want Active", nestedString(got, "status", "phase"))
	}

	list := c.must(200, "GET", "/api/v1/namespaces/e2e/configmaps", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	events := c.openWatch(ctx, "/api/v1/namespaces/e2e/configmaps?watch=1&resourceVersion="+
		nestedString(list, "metadata", "resourceVersion"))

	c.must(201, "POST", "/api/v1/namespaces/e2e/configmaps", map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings"},
		"data":     map[string]any{"colour": "blue"},
	})
	got = c.must(200, "GET", "/api/v1/namespaces/e2e/configmaps/settings", nil)
	if nestedString(got, "data", "colour") != "blue" {
		t.Errorf("configmap data = %v, want colour=blue", got["data"])
	}
	var event struct {
		Type   string         `json:"type"`
		Object map[string]any `json:"object"`
	}
	if err := events.Decode(&event); err != nil {
		t.Fatalf("reading watch event: %v", err)
	}
	if event.Type != "ADDED" || nestedString(event.Object, "metadata", "name") != "settings" {
		t.Errorf("watch event = %s %s, want ADDED settings", event.Type, nestedString(event.Object, "metadata", "name"))
	}

	if err := env.InstallCRDs(ctx, []byte(widgetCRD)); err != nil {
		t.Fatal(err)
	}
	c.must(201, "POST", "/apis/example.kgen.dev/v1/namespaces/e2e/widgets", map[string]any{
		"apiVersion": "example.kgen.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w1"},
		"spec":     map[string]any{"size": 3},
	})
	got = c.must(200, "GET", "/apis/example.kgen.dev/v1/namespaces/e2e/widgets/w1", nil)
	if size := got["spec"].(map[string]any)["size"]; size != float64(3) {
		t.Errorf("widget size = %v, want 3", size)
	}
}

func TestRunningEnvironmentHoldsNoGoroutines(t *testing.T) {
	before := goleak.IgnoreCurrent()
	e, err := Start(context.Background(), Options{CRDs: []any{[]byte(widgetCRD)}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	// Tests that check for leaked goroutines must not trip over a running environment.
	goleak.VerifyNone(t, before)
}

func TestConfigWorksWithRestTransport(t *testing.T) {
	client, err := rest.HTTPClientFor(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	resp, err := client.Get(env.Config().Host + "/api/v1/namespaces/default")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET namespace default with rest transport: status %d", resp.StatusCode)
	}
}

func TestConfigReturnsIndependentCopies(t *testing.T) {
	a, b := env.Config(), env.Config()
	a.Host = "changed"
	a.CAData[0] = 'X'
	if b.Host == "changed" || b.CAData[0] == 'X' || env.Config().CAData[0] == 'X' {
		t.Fatal("Config results share state")
	}
	if b.QPS < 100 || b.Burst < 100 {
		t.Errorf("Config rate limits QPS=%v Burst=%d would throttle tests", b.QPS, b.Burst)
	}
}

func TestKubeconfig(t *testing.T) {
	data, err := os.ReadFile(env.KubeconfigPath())
	if err != nil {
		t.Fatal(err)
	}
	var kubeconfig struct {
		CurrentContext string `json:"current-context"`
		Clusters       []struct {
			Cluster struct {
				Server string `json:"server"`
				CAData []byte `json:"certificate-authority-data"`
			} `json:"cluster"`
		} `json:"clusters"`
		Users []struct {
			User struct {
				CertData []byte `json:"client-certificate-data"`
				KeyData  []byte `json:"client-key-data"`
			} `json:"user"`
		} `json:"users"`
	}
	if err := yaml.Unmarshal(data, &kubeconfig); err != nil {
		t.Fatal(err)
	}
	if len(kubeconfig.Clusters) != 1 || len(kubeconfig.Users) != 1 || kubeconfig.CurrentContext != "testenv" {
		t.Fatalf("kubeconfig shape:\n%s", data)
	}
	config := env.Config()
	cluster, user := kubeconfig.Clusters[0].Cluster, kubeconfig.Users[0].User
	if cluster.Server != config.Host || string(cluster.CAData) != string(config.CAData) ||
		string(user.CertData) != string(config.CertData) || string(user.KeyData) != string(config.KeyData) {
		t.Fatalf("kubeconfig does not match Config():\n%s", data)
	}
}

func TestAddUser(t *testing.T) {
	admin := newAPIClient(t, env.Config())
	for _, ns := range []string{"granted", "denied"} {
		admin.must(201, "POST", "/api/v1/namespaces", namespaceObject(ns))
	}
	config, err := env.AddUser("alice", []string{"developers"})
	if err != nil {
		t.Fatal(err)
	}
	alice := newAPIClient(t, config)
	status, out := alice.do("GET", "/api/v1/namespaces/granted/configmaps", nil)
	if status != 403 || !strings.Contains(fmt.Sprint(out["message"]), `"alice"`) {
		t.Fatalf("alice before any grant: status %d (%v), want 403 naming alice", status, out["message"])
	}
	admin.must(201, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/granted/roles", map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
		"metadata": map[string]any{"name": "configmap-reader"},
		"rules": []any{map[string]any{
			"apiGroups": []any{""}, "resources": []any{"configmaps"}, "verbs": []any{"get", "list", "watch"},
		}},
	})
	admin.must(201, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/granted/rolebindings", map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
		"metadata": map[string]any{"name": "developers-read-configmaps"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "configmap-reader"},
		"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "developers"}},
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		status, _ = alice.do("GET", "/api/v1/namespaces/granted/configmaps", nil)
		if status == 200 || time.Now().After(deadline) {
			break
		}
	}
	if status != 200 {
		t.Fatalf("alice with a role bound to her group: status %d, want 200", status)
	}
	alice.must(403, "GET", "/api/v1/namespaces/denied/configmaps", nil)
	alice.must(403, "POST", "/api/v1/namespaces/granted/configmaps", map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "nope"},
	})

	rootConfig, err := env.AddUser("root", []string{"system:masters"})
	if err != nil {
		t.Fatal(err)
	}
	newAPIClient(t, rootConfig).must(200, "GET", "/api/v1/namespaces/denied/configmaps", nil)

	if _, err := env.AddUser("", nil); err == nil {
		t.Error("AddUser with an empty name succeeded")
	}
}

func TestRestart(t *testing.T) {
	c := newAPIClient(t, env.Config())
	c.must(201, "POST", "/api/v1/namespaces", namespaceObject("survives-restart"))
	before := env.pids()
	if err := env.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := env.pids()
	if after[0] != before[0] {
		t.Errorf("etcd pid changed from %d to %d; Restart must leave etcd running", before[0], after[0])
	}
	if after[1] == before[1] {
		t.Fatalf("kube-apiserver pid %d unchanged by Restart", after[1])
	}
	waitGone(t, before[1])
	// The old configuration reaches the new server, and the data survived.
	c.must(200, "GET", "/api/v1/namespaces/survives-restart", nil)
	log, err := os.ReadFile(env.apiserver.logPath)
	if err != nil || !strings.Contains(string(log), "restarting kube-apiserver") {
		t.Errorf("kube-apiserver log lacks the restart marker (err %v)", err)
	}
}

func TestTwoEnvironmentsAtOnce(t *testing.T) {
	var wg sync.WaitGroup
	envs := make([]*Environment, 2)
	errs := make([]error, 2)
	for i := range envs {
		wg.Go(func() { envs[i], errs[i] = Start(context.Background(), Options{}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("environment %d: %v", i, err)
		}
	}
	a, b := envs[0], envs[1]
	if a.host == b.host || a.dir == b.dir || a.host == env.host {
		t.Fatalf("environments share an address or directory: %s %s, %s %s", a.host, a.dir, b.host, b.dir)
	}
	newAPIClient(t, a.Config()).must(201, "POST", "/api/v1/namespaces", namespaceObject("only-in-a"))
	newAPIClient(t, b.Config()).must(404, "GET", "/api/v1/namespaces/only-in-a", nil)
	// Each environment's CA is its own: a's credentials do not authenticate to b.
	crossed := a.Config()
	crossed.Host = b.host
	crossed.CAData = b.Config().CAData
	status, _ := newAPIClient(t, crossed).do("GET", "/api/v1/namespaces", nil)
	if status != 401 {
		t.Errorf("a's admin certificate at b: status %d, want 401", status)
	}

	pids := append(a.pids(), b.pids()...)
	for _, e := range envs {
		if err := e.Stop(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(e.dir); !os.IsNotExist(err) {
			t.Errorf("Stop left %s behind (stat: %v)", e.dir, err)
		}
	}
	waitGone(t, pids...)
	if stray := strayChildren(t); len(stray) > 0 {
		t.Errorf("Stop left processes %v running", stray)
	}
	if err := a.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if err := a.Restart(context.Background()); err == nil {
		t.Error("Restart after Stop succeeded")
	}
}

func TestStartInstallsCRDsFromOptions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "widgets.yaml"), []byte(widgetCRD), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a manifest"), 0o600); err != nil {
		t.Fatal(err)
	}
	gadgets := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(strings.NewReplacer("widget", "gadget", "Widget", "Gadget").Replace(widgetCRD)), &gadgets.Object); err != nil {
		t.Fatal(err)
	}
	e := startEnv(t, Options{CRDs: []any{dir, gadgets}})
	c := newAPIClient(t, e.Config())
	c.must(200, "GET", "/apis/example.kgen.dev/v1/namespaces/default/widgets", nil)
	c.must(200, "GET", "/apis/example.kgen.dev/v1/namespaces/default/gadgets", nil)

	// Installing again updates in place; a new version becomes served.
	twoVersions := strings.Replace(widgetCRD, "  versions:\n", `  versions:
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`, 1)
	if err := e.InstallCRDs(context.Background(), []byte(twoVersions)); err != nil {
		t.Fatal(err)
	}
	c.must(200, "GET", "/apis/example.kgen.dev/v2/namespaces/default/widgets", nil)
}

func TestInstallCRDsRejectsBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	tests := []struct {
		name  string
		input any
		want  string
	}{
		{"not a CRD", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"), `is a ConfigMap "cm", not a CustomResourceDefinition`},
		{"second document bad", []byte(widgetCRD + "---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"), "document 2 is a Secret"},
		{"old version", []byte(strings.Replace(widgetCRD, "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1)), "serves apiextensions.k8s.io/v1 only"},
		{"missing file", missing, "missing.yaml"},
		{"empty", []byte("---\n"), "holds no CustomResourceDefinition"},
		{"broken YAML", []byte("kind: [unclosed"), "document 1"},
		{"unencodable value", make(chan int), "CRD of type chan int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := env.InstallCRDs(context.Background(), []byte(widgetCRD), tt.input)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestInstallCRDsReportsWhyACRDIsNotServed(t *testing.T) {
	if err := env.InstallCRDs(context.Background(), []byte(widgetCRD)); err != nil {
		t.Fatal(err)
	}
	// Same group and kind as widgets: the API server refuses the names and never establishes it.
	conflicting := strings.NewReplacer("widgets", "gizmos", "singular: widget", "singular: gizmo").Replace(widgetCRD)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := env.InstallCRDs(ctx, []byte(conflicting))
	for _, want := range []string{`CRD "gizmos.example.kgen.dev" from YAML bytes, document 1 is not served`, "NamesAccepted=False ListKindConflict"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v, want one containing %q", err, want)
		}
	}
}

func TestMissingBinary(t *testing.T) {
	empty := t.TempDir()
	t.Run("options", func(t *testing.T) {
		_, err := Start(context.Background(), Options{AssetsDir: empty})
		for _, want := range []string{"etcd binary not found", filepath.Join(empty, "etcd"), "Options.AssetsDir", "go run github.com/kgen-dev/kgen/cmd/kgen testenv"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error = %v, want one containing %q", err, want)
			}
		}
	})
	t.Run("environment variable", func(t *testing.T) {
		t.Setenv(AssetsEnv, empty)
		_, err := Start(context.Background(), Options{})
		if err == nil || !strings.Contains(err.Error(), "$"+AssetsEnv) {
			t.Fatalf("error = %v, want one naming $%s", err, AssetsEnv)
		}
	})
	t.Run("kubebuilder variable", func(t *testing.T) {
		t.Setenv(AssetsEnv, "")
		t.Setenv(KubebuilderAssetsEnv, empty)
		_, err := Start(context.Background(), Options{})
		if err == nil || !strings.Contains(err.Error(), "$"+KubebuilderAssetsEnv) {
			t.Fatalf("error = %v, want one naming $%s", err, KubebuilderAssetsEnv)
		}
	})
	t.Run("not executable", func(t *testing.T) {
		dir := t.TempDir()
		for _, name := range []string{"etcd", "kube-apiserver"} {
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Start(context.Background(), Options{AssetsDir: dir})
		if err == nil || !strings.Contains(err.Error(), "is not an executable file") {
			t.Fatalf("error = %v, want one saying the binary is not executable", err)
		}
	})
}

func TestFailedStartNamesBinaryCommandAndLog(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	_, err := Start(context.Background(), Options{APIServerArgs: []string{"--no-such-flag=1"}})
	for _, want := range []string{"kube-apiserver exited during startup", "command: ", "kube-apiserver --etcd-servers=", "--no-such-flag=1", "unknown flag: --no-such-flag"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v, want one containing %q", err, want)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("failed Start left %s behind", left[0].Name())
	}
	if stray := strayChildren(t); len(stray) > 0 {
		t.Errorf("failed Start left processes %v running", stray)
	}
	t.Log(err)
}

func TestPortConflictGivesClearError(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	url := "http://" + taken.Addr().String()
	_, err = Start(context.Background(), Options{EtcdArgs: []string{"--listen-client-urls=" + url, "--advertise-client-urls=" + url}})
	for _, want := range []string{"etcd exited during startup", "command: ", "address already in use"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v, want one containing %q", err, want)
		}
	}
	if stray := strayChildren(t); len(stray) > 0 {
		t.Errorf("failed Start left processes %v running", stray)
	}
}

func TestStartTimeoutReportsReadiness(t *testing.T) {
	_, err := Start(context.Background(), Options{StartTimeout: time.Millisecond})
	if stray := strayChildren(t); len(stray) > 0 {
		t.Errorf("timed-out Start left processes %v running", stray)
	}
	for _, want := range []string{"kube-apiserver was not ready (waited 1ms)", "command: ", "etcd.log"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v, want one containing %q", err, want)
		}
	}
	t.Log(err)
}

func TestStartHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Start(ctx, Options{})
	if err == nil || !strings.Contains(err.Error(), "kube-apiserver was not ready (context canceled)") {
		t.Fatalf("error = %v, want one saying it was cancelled", err)
	}
	if stray := strayChildren(t); len(stray) > 0 {
		t.Errorf("cancelled Start left processes %v running", stray)
	}
}

func TestChildrenDieWithPanickingTestBinary(t *testing.T) {
	out, pids, dir, err := runHelper(t, "panic")
	defer os.RemoveAll(dir)
	if err == nil || !strings.Contains(out, "test binary dies with its environment running") {
		t.Fatalf("helper did not panic: %v\n%s", err, out)
	}
	waitGone(t, pids...)

	// The dying binary could not remove its directory; the next Start does.
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("helper directory: %v", err)
	}
	startEnv(t, Options{})
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Start left the dead binary's %s behind (stat: %v)", dir, err)
	}
}

func TestMainPrintsLogsWhenTestsFail(t *testing.T) {
	out, pids, dir, err := runHelper(t, "fail", "-test.run=^TestHelperFailing$")
	if err == nil {
		t.Fatalf("helper with a failing test exited 0:\n%s", out)
	}
	for _, want := range []string{"--- FAIL: TestHelperFailing", "testenv: etcd log", "testenv: kube-apiserver log", "last "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	waitGone(t, pids...)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Main left %s behind (stat: %v)", dir, err)
	}
}

// TestHelperFailing is the failing test TestMainPrintsLogsWhenTestsFail runs in a re-executed binary; in
// a normal run it only checks that the shared environment is up.
func TestHelperFailing(t *testing.T) {
	if env == nil || !env.apiserver.running() {
		t.Fatal("Main did not provide a running environment")
	}
	if os.Getenv(helperModeEnv) == "fail" {
		env.report()
		t.Fatal("failing on purpose")
	}
}
