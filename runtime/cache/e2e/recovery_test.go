package e2e_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/internal/faultproxy"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/rest"
)

// coreClient returns an unthrottled core/v1 REST client for the test server, reached at host when it
// is not empty.
func coreClient(t *testing.T, host string) *rest.RESTClient {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(scheme, corev1.SchemeGroupVersion)
	cfg := *env.Config()
	if host != "" {
		cfg.Host = host
	}
	gv := corev1.SchemeGroupVersion
	cfg.APIPath = "/api"
	cfg.GroupVersion = &gv
	cfg.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	cfg.QPS = -1
	client, err := rest.RESTClientFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// markerHandler records when its informer delivered each marker ConfigMap and keeps the handler's
// view of every object's resourceVersion.
type markerHandler struct {
	mu      sync.Mutex
	seen    map[string]time.Time
	objects map[string]string
	arrived chan struct{}
}

func newMarkerHandler() *markerHandler {
	return &markerHandler{seen: map[string]time.Time{}, objects: map[string]string{}, arrived: make(chan struct{}, 1)}
}

func (h *markerHandler) record(cm *corev1.ConfigMap) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.objects[cm.Name] = cm.ResourceVersion
	if _, ok := h.seen[cm.Name]; !ok {
		h.seen[cm.Name] = time.Now()
	}
	select {
	case h.arrived <- struct{}{}:
	default:
	}
}

func (h *markerHandler) OnAdd(obj any, _ bool)  { h.record(obj.(*corev1.ConfigMap)) }
func (h *markerHandler) OnUpdate(_, newObj any) { h.record(newObj.(*corev1.ConfigMap)) }
func (h *markerHandler) OnDelete(obj any) {
	key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	_, name, _ := cache.SplitMetaNamespaceKey(key)
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.objects, name)
}

// seenAt returns when the handler first saw name.
func (h *markerHandler) seenAt(name string) (time.Time, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	at, ok := h.seen[name]
	return at, ok
}

// waitSeen waits until the handler has seen name and returns when it did.
func (h *markerHandler) waitSeen(ctx context.Context, name string) (time.Time, error) {
	var at time.Time
	err := h.wait(ctx, func() bool {
		var ok bool
		at, ok = h.seenAt(name)
		return ok
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("marker %s never delivered: %w", name, err)
	}
	return at, nil
}

// waitVersion waits until the handler holds name at resourceVersion rv.
func (h *markerHandler) waitVersion(ctx context.Context, name, rv string) error {
	err := h.wait(ctx, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.objects[name] == rv
	})
	if err != nil {
		return fmt.Errorf("%s at resourceVersion %s never delivered: %w", name, rv, err)
	}
	return nil
}

func (h *markerHandler) wait(ctx context.Context, done func() bool) error {
	for !done() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-h.arrived:
		}
	}
	return nil
}

type recoveryInformer struct {
	name     string
	informer cache.SharedIndexInformer
	handler  *markerHandler
}

func never(error) bool { return false }

// disruption interrupts the API server as the informers see it and returns the time the server was
// ready and reachable again, and how long it was unreachable.
type disruption func(t *testing.T, ctx context.Context, p *faultproxy.Proxy) (ready time.Time, outage time.Duration)

// restartBehindProxy restarts the API server while the proxy keeps accepting connections and closes
// them when the server does not answer: a load balancer in front of a restarting server.
func restartBehindProxy(t *testing.T, ctx context.Context, _ *faultproxy.Proxy) (time.Time, time.Duration) {
	start := time.Now()
	if err := env.Restart(ctx); err != nil {
		t.Fatalf("restart: %v", err)
	}
	return time.Now(), time.Since(start)
}

// restartRefused restarts the API server while the proxy refuses every connection.
func restartRefused(t *testing.T, ctx context.Context, p *faultproxy.Proxy) (time.Time, time.Duration) {
	start := time.Now()
	p.Refuse()
	if err := env.Restart(ctx); err != nil {
		t.Fatalf("restart: %v", err)
	}
	if err := p.Accept(); err != nil {
		t.Fatalf("proxy: %v", err)
	}
	return time.Now(), time.Since(start)
}

// cutRefused cuts every connection and refuses new ones for five seconds while the server keeps
// running: a network cut.
func cutRefused(t *testing.T, ctx context.Context, p *faultproxy.Proxy) (time.Time, time.Duration) {
	start := time.Now()
	p.Refuse()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second): // the outage itself
	}
	if err := p.Accept(); err != nil {
		t.Fatalf("proxy: %v", err)
	}
	return time.Now(), time.Since(start)
}

// resumeBound is how soon after the server accepts connections again every informer must deliver
// a write made then, however long the outage: a server that cannot be reached is retried after the
// reflector's initial delay (0.8-1.6s) instead of a grown backoff.
const resumeBound = 2 * time.Second

func TestRecoveryAfterRestart(t *testing.T) {
	within := func(t *testing.T, latency, outage time.Duration) {
		if latency > resumeBound {
			t.Errorf("informer resumed %v after the server was back from a %v outage, want at most %v", latency, outage, resumeBound)
		}
	}
	report := func(t *testing.T, latencies []time.Duration) {
		slices.Sort(latencies)
		t.Logf("resume latencies after ready: %v (median %v, worst %v)", latencies, latencies[len(latencies)/2], latencies[len(latencies)-1])
	}
	t.Run("accept then close", func(t *testing.T) {
		report(t, runRecovery(t, "close", 3, restartBehindProxy, within))
	})
	t.Run("refused", func(t *testing.T) {
		report(t, runRecovery(t, "refused", 3, restartRefused, within))
	})
	t.Run("cut", func(t *testing.T) {
		report(t, runRecovery(t, "cut", 2, cutRefused, within))
	})
}

// runRecovery runs informers through a proxy, disrupts the server rounds times while a writer keeps
// changing ConfigMaps, and measures how long after the server is back each informer delivers a marker
// write. At the end every informer's store and handler must equal the server's state.
func runRecovery(t *testing.T, name string, rounds int, disrupt disruption, check func(t *testing.T, latency, outage time.Duration)) []time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	direct := coreClient(t, "")
	namespace := "recovery-" + name
	if err := retry(ctx, func() error {
		return direct.Post().Resource("namespaces").Body(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}).Do(ctx).Error()
	}, apierrors.IsAlreadyExists); err != nil {
		t.Fatal(err)
	}
	server, err := url.Parse(env.Config().Host)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := faultproxy.Start(server.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)

	var informers []recoveryInformer
	for _, mode := range []struct {
		name             string
		disableWatchList bool
	}{{"streaming list", false}, {"list and watch", true}, {"list and watch 2", true}} {
		client := coreClient(t, "https://"+proxy.Addr())
		inf := cache.NewSharedIndexInformerWithOptions(configMapListWatch(client, namespace), &corev1.ConfigMap{}, cache.SharedIndexInformerOptions{
			DisableWatchList: mode.disableWatchList,
		})
		h := newMarkerHandler()
		if _, err := inf.AddEventHandler(h); err != nil {
			t.Fatal(err)
		}
		informers = append(informers, recoveryInformer{name: mode.name, informer: inf, handler: h})
	}
	sink := newRecordingSink()
	runCtx, stopInformers := context.WithCancel(klog.NewContext(ctx, logr.New(sink)))
	var running sync.WaitGroup
	defer func() {
		stopInformers()
		running.Wait()
	}()
	for _, inf := range informers {
		running.Go(func() { inf.informer.RunWithContext(runCtx) })
	}
	for _, inf := range informers {
		if !cache.WaitFor(ctx, inf.name, inf.informer.HasSyncedChecker()) {
			t.Fatalf("%s did not sync", inf.name)
		}
	}

	writerCtx, stopWriter := context.WithCancel(ctx)
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		writeRandomly(writerCtx, direct, namespace)
	}()

	var latencies []time.Duration
	for round := range rounds {
		ready, outage := disrupt(t, ctx, proxy)
		marker := "marker-" + strconv.Itoa(round)
		if err := retry(ctx, func() error {
			return direct.Post().Namespace(namespace).Resource("configmaps").Body(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: marker}}).Do(ctx).Error()
		}, apierrors.IsAlreadyExists); err != nil {
			t.Fatal(err)
		}
		for _, inf := range informers {
			seen, err := inf.handler.waitSeen(ctx, marker)
			if err != nil {
				t.Fatalf("%s: %v", inf.name, err)
			}
			latency := seen.Sub(ready)
			t.Logf("round %d: %s delivered the marker %v after the server was ready (outage %v)", round, inf.name, latency.Round(time.Millisecond), outage.Round(time.Millisecond))
			latencies = append(latencies, latency)
			if check != nil {
				check(t, latency, outage)
			}
		}
		// Let every watch run healthy again before the next disruption: an update of the marker arrives
		// only through the watch.
		updated := &corev1.ConfigMap{}
		if err := retry(ctx, func() error {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: marker}, Data: map[string]string{"settled": "true"}}
			return direct.Put().Namespace(namespace).Resource("configmaps").Name(marker).Body(cm).Do(ctx).Into(updated)
		}, never); err != nil {
			t.Fatal(err)
		}
		for _, inf := range informers {
			if err := inf.handler.waitVersion(ctx, marker, updated.ResourceVersion); err != nil {
				t.Fatalf("%s: %v", inf.name, err)
			}
		}
	}
	stopWriter()
	<-writerDone
	assertConverged(t, ctx, direct, namespace, informers)
	assertQuietLogs(t, sink, rounds*len(informers))
	return latencies
}

// assertQuietLogs checks that the informers' log stays bounded at the default verbosity (a warning
// and a recovery line per informer and disruption are expected; twice that is allowed, should a
// disruption break a watch twice), with no error and no credential at any verbosity.
func assertQuietLogs(t *testing.T, sink *recordingSink, disruptions int) {
	t.Helper()
	cert := strings.Split(strings.TrimSpace(string(env.Config().CertData)), "\n")
	key := strings.Split(strings.TrimSpace(string(env.Config().KeyData)), "\n")
	secrets := []string{"PRIVATE KEY", "BEGIN CERTIFICATE", cert[len(cert)/2], key[len(key)/2]}
	var visible []string
	for _, line := range sink.all() {
		for _, secret := range secrets {
			if strings.Contains(line.msg+line.text, secret) {
				t.Errorf("a log line at verbosity %d shows credentials: %q", line.level, line.msg)
			}
		}
		if line.level <= 0 {
			visible = append(visible, fmt.Sprintf("[%d] %s %s", line.level, line.msg, line.text))
		}
		if line.level < 0 {
			t.Errorf("error logged during a restart: %s %s", line.msg, line.text)
		}
	}
	t.Logf("%d log lines at the default verbosity for %d informer disruptions", len(visible), disruptions)
	if len(visible) > 4*disruptions {
		t.Errorf("%d log lines at the default verbosity for %d informer disruptions, want at most %d:\n%s", len(visible), disruptions, 4*disruptions, strings.Join(visible[:min(len(visible), 20)], "\n"))
	}
}

// writeRandomly creates, updates and deletes ConfigMaps until ctx is done, ignoring failures while the
// server restarts.
func writeRandomly(ctx context.Context, client *rest.RESTClient, namespace string) {
	for ctx.Err() == nil {
		name := "cm-" + strconv.Itoa(rand.IntN(50))
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"v": strconv.Itoa(rand.IntN(1000))}}
		switch rand.IntN(3) {
		case 0:
			_ = client.Post().Namespace(namespace).Resource("configmaps").Body(cm).Do(ctx).Error()
		case 1:
			_ = client.Put().Namespace(namespace).Resource("configmaps").Name(name).Body(cm).Do(ctx).Error()
		case 2:
			_ = client.Delete().Namespace(namespace).Resource("configmaps").Name(name).Do(ctx).Error()
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// assertConverged waits until every informer's store and handler hold exactly the server's ConfigMaps
// at the server's resourceVersions.
func assertConverged(t *testing.T, ctx context.Context, client *rest.RESTClient, namespace string, informers []recoveryInformer) {
	t.Helper()
	list := &corev1.ConfigMapList{}
	if err := retry(ctx, func() error {
		return client.Get().Namespace(namespace).Resource("configmaps").Do(ctx).Into(list)
	}, never); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, cm := range list.Items {
		want[cm.Name] = cm.ResourceVersion
	}
	for _, inf := range informers {
		var diff string
		converged := func() bool {
			store := map[string]string{}
			for _, obj := range inf.informer.GetStore().List() {
				cm := obj.(*corev1.ConfigMap)
				store[cm.Name] = cm.ResourceVersion
			}
			inf.handler.mu.Lock()
			defer inf.handler.mu.Unlock()
			for name, rv := range want {
				if store[name] != rv || inf.handler.objects[name] != rv {
					diff = fmt.Sprintf("%s: server %s, store %q, handler %q", name, rv, store[name], inf.handler.objects[name])
					return false
				}
			}
			if len(store) != len(want) || len(inf.handler.objects) != len(want) {
				diff = fmt.Sprintf("server holds %d ConfigMaps, store %d, handler %d", len(want), len(store), len(inf.handler.objects))
				return false
			}
			return true
		}
		deadline := time.Now().Add(30 * time.Second)
		for !converged() {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not converge: %s", inf.name, diff)
			}
			select {
			case <-ctx.Done():
				t.Fatal(ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}
