package bench

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	cginformers "k8s.io/client-go/informers"
	cgkubernetes "k8s.io/client-go/kubernetes"
	cgrest "k8s.io/client-go/rest"
	cgcache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/internal/faultproxy"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/testenv"
)

// markerTimes records when an informer's handler first saw each ConfigMap, by name, and each
// ConfigMap's last resourceVersion.
type markerTimes struct {
	mu      sync.Mutex
	seen    map[string]time.Time
	version map[string]string
	changed chan struct{}
}

func newMarkerTimes() *markerTimes {
	return &markerTimes{seen: map[string]time.Time{}, version: map[string]string{}, changed: make(chan struct{}, 1)}
}

func (m *markerTimes) record(obj any) {
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		return
	}
	m.mu.Lock()
	if _, ok := m.seen[cm.Name]; !ok {
		m.seen[cm.Name] = time.Now()
	}
	m.version[cm.Name] = cm.ResourceVersion
	m.mu.Unlock()
	select {
	case m.changed <- struct{}{}:
	default:
	}
}

func (m *markerTimes) OnAdd(obj any, _ bool)  { m.record(obj) }
func (m *markerTimes) OnUpdate(_, newObj any) { m.record(newObj) }
func (m *markerTimes) OnDelete(any)           {}

// wait blocks until done, checked under the lock after every change, holds.
func (m *markerTimes) wait(ctx context.Context, done func() bool) error {
	for {
		m.mu.Lock()
		ok := done()
		m.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-m.changed:
		}
	}
}

// BenchmarkRecovery runs a kgen and a client-go v0.37.2 ConfigMap informer side by side, both reaching
// a testenv kube-apiserver through one fault proxy, restarts the server once per iteration, and
// reports how long after the server was ready again each informer delivered a new ConfigMap: median
// and worst over the iterations, in ms. In "close" the proxy accepts connections and closes them
// while the server is down, as a load balancer in front of it does; in "refused" it refuses them for
// the whole restart. Each iteration takes seconds, so run it with -benchtime 5x or so.
func BenchmarkRecovery(b *testing.B) {
	klog.SetOutput(io.Discard) // both informers log every failed retry while the server is down
	klog.LogToStderr(false)
	ctx := context.Background()
	env, err := testenv.Start(ctx, testenv.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = env.Stop() })
	for _, refuse := range []bool{false, true} {
		name := map[bool]string{false: "close", true: "refused"}[refuse]
		b.Run(name, func(b *testing.B) { benchRecovery(b, env, "recovery-"+name, refuse) })
	}
}

func benchRecovery(b *testing.B, env *testenv.Environment, namespace string, refuse bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	direct, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		b.Fatal(err)
	}
	if err := retryUntil(ctx, func() error {
		_, err := direct.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
		return err
	}, apierrors.IsAlreadyExists); err != nil {
		b.Fatal(err)
	}
	server, err := url.Parse(env.Config().Host)
	if err != nil {
		b.Fatal(err)
	}
	proxy, err := faultproxy.Start(server.Host)
	if err != nil {
		b.Fatal(err)
	}
	defer proxy.Close()

	kgenConfig := env.Config()
	kgenConfig.Host = "https://" + proxy.Addr()
	kgenClient, err := kubernetes.NewForConfig(kgenConfig)
	if err != nil {
		b.Fatal(err)
	}
	cgClient, err := cgkubernetes.NewForConfig(&cgrest.Config{
		Host: kgenConfig.Host,
		TLSClientConfig: cgrest.TLSClientConfig{
			CAData: kgenConfig.CAData, CertData: kgenConfig.CertData, KeyData: kgenConfig.KeyData,
		},
		QPS: -1,
	})
	if err != nil {
		b.Fatal(err)
	}
	kgenTimes, cgTimes := newMarkerTimes(), newMarkerTimes()
	kgenFactory := informers.NewSharedInformerFactoryWithOptions(kgenClient, 0, informers.WithNamespace(namespace))
	if _, err := kgenFactory.Core().V1().ConfigMaps().Informer().AddEventHandler(kgenTimes); err != nil {
		b.Fatal(err)
	}
	cgFactory := cginformers.NewSharedInformerFactoryWithOptions(cgClient, 0, cginformers.WithNamespace(namespace))
	if _, err := cgFactory.Core().V1().ConfigMaps().Informer().AddEventHandler(cgTimes); err != nil {
		b.Fatal(err)
	}
	stop := make(chan struct{})
	defer func() {
		close(stop)
		kgenFactory.Shutdown()
		cgFactory.Shutdown()
	}()
	kgenFactory.Start(stop)
	cgFactory.Start(stop)
	for informer, synced := range kgenFactory.WaitForCacheSync(stop) {
		if !synced {
			b.Fatalf("kgen informer for %v did not sync", informer)
		}
	}
	for informer, synced := range cgFactory.WaitForCacheSync(stop) {
		if !synced {
			b.Fatalf("client-go informer for %v did not sync", informer)
		}
	}

	var kgenLatencies, cgLatencies []time.Duration
	round := 0
	for b.Loop() {
		if refuse {
			proxy.Refuse()
		}
		if err := env.Restart(ctx); err != nil {
			b.Fatal(err)
		}
		if refuse {
			if err := proxy.Accept(); err != nil {
				b.Fatal(err)
			}
		}
		ready := time.Now()
		marker := fmt.Sprintf("marker-%d", round)
		round++
		if err := retryUntil(ctx, func() error {
			_, err := direct.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: marker}}, metav1.CreateOptions{})
			return err
		}, apierrors.IsAlreadyExists); err != nil {
			b.Fatal(err)
		}
		for _, side := range []struct {
			times     *markerTimes
			latencies *[]time.Duration
		}{{kgenTimes, &kgenLatencies}, {cgTimes, &cgLatencies}} {
			var seen time.Time
			if err := side.times.wait(ctx, func() bool {
				var ok bool
				seen, ok = side.times.seen[marker]
				return ok
			}); err != nil {
				b.Fatalf("marker %s never delivered: %v", marker, err)
			}
			*side.latencies = append(*side.latencies, seen.Sub(ready))
		}
		// Let both watches run healthy again before the next restart: an update arrives only
		// through the watch.
		var updated *corev1.ConfigMap
		if err := retryUntil(ctx, func() error {
			var err error
			updated, err = direct.CoreV1().ConfigMaps(namespace).Update(ctx, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: marker}, Data: map[string]string{"settled": "true"},
			}, metav1.UpdateOptions{})
			return err
		}, nil); err != nil {
			b.Fatal(err)
		}
		for _, times := range []*markerTimes{kgenTimes, cgTimes} {
			if err := times.wait(ctx, func() bool { return times.version[marker] == updated.ResourceVersion }); err != nil {
				b.Fatalf("update of %s never delivered: %v", marker, err)
			}
		}
	}
	reportLatencies(b, "kgen", kgenLatencies)
	reportLatencies(b, "client-go", cgLatencies)
}

// reportLatencies reports the median and worst of latencies, in ms, under name.
func reportLatencies(b *testing.B, name string, latencies []time.Duration) {
	slices.Sort(latencies)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(latencies[len(latencies)/2]), name+"-median-ms")
	b.ReportMetric(ms(latencies[len(latencies)-1]), name+"-worst-ms")
}

// retryUntil calls f until it succeeds or fails with an error done accepts (nil: none), retrying
// every 100ms while the server restarts.
func retryUntil(ctx context.Context, f func() error, done func(error) bool) error {
	for {
		err := f()
		if err == nil || done != nil && done(err) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// markerTimes serves as the handler of both informers.
var (
	_ cache.ResourceEventHandler   = (*markerTimes)(nil)
	_ cgcache.ResourceEventHandler = (*markerTimes)(nil)
)
