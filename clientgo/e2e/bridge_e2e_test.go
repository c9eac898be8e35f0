package e2e

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubectl/pkg/drain"

	kgenkubernetes "github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/clientgo"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, testenv.Options{}, &env)) }

// countingLimiter is a kgen rate limiter that counts the tokens taken.
type countingLimiter struct {
	rest.RateLimiter
	waits atomic.Int32
}

func (l *countingLimiter) Wait(ctx context.Context) error {
	l.waits.Add(1)
	return l.RateLimiter.Wait(ctx)
}

// TestKubectlDrainRunsOnAKgenConfig hands kubectl's drain library, which takes a client-go
// kubernetes.Interface, a clientset built from kgen's config: it cordons a node and evicts its pod
// on the real API server, through the kgen config's client certificate, transport wrapper and
// rate limiter, and kgen's own client sees the result.
func TestKubectlDrainRunsOnAKgenConfig(t *testing.T) {
	ctx := context.Background()
	config := env.Config()
	var wrapped atomic.Int32
	config.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			wrapped.Add(1)
			return rt.RoundTrip(r)
		})
	}
	limiter := &countingLimiter{RateLimiter: rest.NewTokenBucketRateLimiter(1000, 2000)}
	config.RateLimiter = limiter

	cs, err := clientgo.NewClientset(config)
	if err != nil {
		t.Fatal(err)
	}
	kgen := kgenkubernetes.NewForConfigOrDie(env.Config())
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-" + rand.String(5)}}
	if node, err = kgen.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "bridge-"}}
	if ns, err = kgen.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: ns.Name},
		Spec:       corev1.PodSpec{NodeName: node.Name, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
	if _, err := kgen.CoreV1().Pods(ns.Name).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	var out, errOut bytes.Buffer
	helper := &drain.Helper{
		Ctx: ctx, Client: cs, Force: true, GracePeriodSeconds: 0, Timeout: 30 * time.Second,
		IgnoreAllDaemonSets: true, Out: &out, ErrOut: &errOut,
	}
	if err := drain.RunCordonOrUncordon(helper, node, true); err != nil {
		t.Fatal(err)
	}
	if err := drain.RunNodeDrain(helper, node.Name); err != nil {
		t.Fatalf("drain: %v\n%s%s", err, out.String(), errOut.String())
	}

	got, err := kgen.CoreV1().Nodes().Get(ctx, node.Name, metav1.GetOptions{})
	if err != nil || !got.Spec.Unschedulable {
		t.Fatalf("node after cordon: %+v, %v", got.Spec, err)
	}
	if _, err := kgen.CoreV1().Pods(ns.Name).Get(ctx, "p", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("pod after drain: %v, want NotFound", err)
	}
	if wrapped.Load() == 0 || limiter.waits.Load() == 0 {
		t.Fatalf("client-go did not use the kgen config's transport wrapper (%d requests) or rate limiter (%d tokens)",
			wrapped.Load(), limiter.waits.Load())
	}
}

// TestClientGoConfigDrivesKgenClients goes the other way: a client-go config, as a library built
// it, becomes a kgen config whose clientset reads what client-go wrote.
func TestClientGoConfigDrivesKgenClients(t *testing.T) {
	ctx := context.Background()
	cgConfig := clientgo.RESTConfig(env.Config())
	cg := kubernetes.NewForConfigOrDie(cgConfig)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "from-client-go-" + rand.String(5), Namespace: "default"}, Data: map[string]string{"k": "v"}}
	if _, err := cg.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	config, err := clientgo.FromRESTConfig(cgConfig)
	if err != nil {
		t.Fatal(err)
	}
	kgen, err := kgenkubernetes.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	got, err := kgen.CoreV1().ConfigMaps("default").Get(ctx, cm.Name, metav1.GetOptions{})
	if err != nil || got.Data["k"] != "v" {
		t.Fatalf("kgen read %+v, %v", got, err)
	}
}

// TestExecProviderCarriesOverToClientGo gives client-go a kgen config that authenticates only
// through an exec credential plugin (kgen's test plugin, printing the admin client certificate):
// client-go runs the plugin with the config's arguments and environment and the server accepts
// the credentials.
func TestExecProviderCarriesOverToClientGo(t *testing.T) {
	plugin := filepath.Join(t.TempDir(), "execplugin")
	build := exec.Command("go", "build", "-o", plugin, "./runtime/rest/testdata/execplugin")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the exec plugin: %v\n%s", err, out)
	}
	admin := env.Config()
	counter := filepath.Join(t.TempDir(), "runs")
	config := &rest.Config{
		Host:            admin.Host,
		TLSClientConfig: rest.TLSClientConfig{CAData: admin.CAData},
		ExecProvider: &rest.ExecConfig{
			Command: plugin, APIVersion: "client.authentication.k8s.io/v1", InteractiveMode: rest.NeverExecInteractiveMode,
			Env: []rest.ExecEnvVar{
				{Name: "COUNTER_FILE", Value: counter},
				{Name: "PLUGIN_CERT", Value: string(admin.CertData)},
				{Name: "PLUGIN_KEY", Value: string(admin.KeyData)},
			},
		},
	}
	cs, err := clientgo.NewClientset(config)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Namespaces().Get(context.Background(), "default", metav1.GetOptions{}); err != nil {
		t.Fatalf("request authenticated by the exec plugin: %v", err)
	}
	if runs, err := os.ReadFile(counter); err != nil || len(runs) == 0 {
		t.Fatalf("the plugin did not run: %q, %v", runs, err)
	}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
