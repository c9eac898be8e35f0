package bench

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/sharding"
	"github.com/kgen-dev/kgen/runtime/workqueue"
	"github.com/kgen-dev/kgen/testenv"
)

const shardItemCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: items.bench.kgen.dev
spec:
  group: bench.kgen.dev
  scope: Namespaced
  names: {plural: items, singular: item, kind: Item, listKind: ItemList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

var (
	shardItems  = schema.GroupVersionResource{Group: "bench.kgen.dev", Version: "v1", Resource: "items"}
	shardedRuns int
)

// Sharded controller benchmark settings: each replica runs shardWorkers workers, and each reconcile
// waits shardCallLatency on a slow dependency (as a cloud API call would) before writing the status.
const (
	shardItemCount   = 600
	shardWorkers     = 4
	shardCallLatency = 200 * time.Millisecond
)

// BenchmarkShardedThroughput measures how fast 1 and 3 replicas of an I/O-bound controller work off a
// burst of changes to 600 custom objects on a testenv kube-apiserver: one unsharded replica (as with
// leader election) against three replicas of a kgen sharding ring, each with the same fixed number of
// workers, the three in the label mode and in the server-side mode. It reports items/s per iteration
// and, with three replicas, the speedup over one.
func BenchmarkShardedThroughput(b *testing.B) {
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
	ctx := context.Background()
	env, err := testenv.Start(ctx, testenv.Options{CRDs: []any{[]byte(shardItemCRD)}, APIServerArgs: []string{"--feature-gates=ShardedListAndWatch=true"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = env.Stop() })
	var oneRate float64
	for _, run := range []struct {
		name     string
		replicas int
		mode     sharding.Mode
	}{{"replicas=1", 1, sharding.LabelMode}, {"replicas=3", 3, sharding.LabelMode}, {"replicas=3-server-side", 3, sharding.ServerMode}} {
		b.Run(run.name, func(b *testing.B) {
			rate := benchSharded(b, env, run.replicas, run.mode)
			b.ReportMetric(rate, "items/s")
			if run.replicas == 1 {
				oneRate = rate
			} else if oneRate > 0 {
				b.ReportMetric(rate/oneRate, "x-one-replica")
			}
		})
	}
}

func benchSharded(b *testing.B, env *testenv.Environment, replicas int, mode sharding.Mode) float64 {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shardedRuns++ // the benchmark function runs once per b.N tried; each run gets fresh objects
	ns := fmt.Sprintf("sharded-%d-%d", replicas, shardedRuns)
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		b.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		b.Fatal(err)
	}
	client := dyn.Resource(shardItems).Namespace(ns)
	parallel(b, shardItemCount, func(i int) error {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "bench.kgen.dev/v1", "kind": "Item",
			"metadata": map[string]any{"name": fmt.Sprintf("item-%04d", i)}, "spec": map[string]any{"value": int64(0)}}}
		_, err := client.Create(ctx, u, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	})
	for i := range replicas {
		startBenchReplica(ctx, b, env, ns, fmt.Sprintf("replica-%d", i), mode)
	}
	// Every item assigned and reconciled once before timing.
	waitAllObserved(ctx, b, client, 0)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		value := int64(i + 1)
		start := time.Now()
		parallel(b, shardItemCount, func(j int) error {
			return retryConflict(func() error {
				u, err := client.Get(ctx, fmt.Sprintf("item-%04d", j), metav1.GetOptions{})
				if err != nil {
					return err
				}
				_ = unstructured.SetNestedField(u.Object, value, "spec", "value")
				_, err = client.Update(ctx, u, metav1.UpdateOptions{})
				return err
			})
		})
		waitAllObserved(ctx, b, client, value)
		total += time.Since(start)
	}
	return float64(shardItemCount*b.N) / total.Seconds()
}

// startBenchReplica runs one replica: its ring membership, an informer of its share, a queue and
// shardWorkers workers whose reconcile waits shardCallLatency and then writes status.observed.
func startBenchReplica(ctx context.Context, b *testing.B, env *testenv.Environment, ns, id string, mode sharding.Mode) {
	cfg := rest.CopyConfig(env.Config())
	cfg.Wrap(sharding.WrapTransport)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	meta, err := metadata.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	res := sharding.Resource{Resource: shardItems, Kind: "Item"}
	replica, err := sharding.New(sharding.Config{Ring: ns, Identity: id, Namespace: ns, Leases: cs.CoordinationV1().Leases(ns),
		Metadata: meta, ObjectNamespace: ns, Resources: []sharding.Resource{res},
		LeaseDuration: 3 * time.Second, RenewDeadline: 2 * time.Second, RetryPeriod: 500 * time.Millisecond, Mode: mode})
	if err != nil {
		b.Fatal(err)
	}
	items := dyn.Resource(shardItems).Namespace(ns)
	inf := cache.NewSharedIndexInformer(replica.ListerWatcher(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (k8sruntime.Object, error) {
			return items.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return items.Watch(ctx, opts)
		},
	}), &unstructured.Unstructured{}, 0, cache.Indexers{})
	queue := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](), workqueue.TypedRateLimitingQueueConfig[string]{})
	enqueue := func(obj any) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			queue.Add(key)
		}
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, o any) { enqueue(o) }, DeleteFunc: enqueue})
	reconcile := replica.Reconciler(res, inf.GetIndexer().GetByKey, queue, func(ctx context.Context, key string) error {
		item, exists, err := inf.GetIndexer().GetByKey(key)
		if err != nil || !exists {
			return err
		}
		u := item.(*unstructured.Unstructured).DeepCopy()
		want, _, _ := unstructured.NestedInt64(u.Object, "spec", "value")
		got, found, _ := unstructured.NestedInt64(u.Object, "status", "observed")
		if found && got == want {
			return nil
		}
		select { // the slow dependency a real controller calls
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(shardCallLatency):
		}
		_ = unstructured.SetNestedField(u.Object, want, "status", "observed")
		_, err = items.UpdateStatus(ctx, u, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return nil
		}
		return err
	})
	go func() { _ = replica.Run(ctx) }()
	go inf.RunWithContext(ctx)
	startWorkers(ctx, queue, reconcile)
}

// startWorkers runs shardWorkers workers taking keys from queue to reconcile, requeueing failures with
// backoff, until ctx ends.
func startWorkers(ctx context.Context, queue workqueue.TypedRateLimitingInterface[string], reconcile func(context.Context, string) error) {
	go func() { <-ctx.Done(); queue.ShutDown() }()
	for range shardWorkers {
		go func() {
			for {
				key, shutdown := queue.Get()
				if shutdown {
					return
				}
				if err := reconcile(ctx, key); err != nil && ctx.Err() == nil {
					queue.AddRateLimited(key)
				} else {
					queue.Forget(key)
				}
				queue.Done(key)
			}
		}()
	}
}

// waitAllObserved waits until every item's status.observed is value.
func waitAllObserved(ctx context.Context, b *testing.B, client dynamic.ResourceInterface, value int64) {
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		list, err := client.List(ctx, metav1.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		ok := len(list.Items) == shardItemCount
		for _, u := range list.Items {
			if got, found, _ := unstructured.NestedInt64(u.Object, "status", "observed"); !found || got != value {
				ok = false
				break
			}
		}
		if ok {
			return
		}
		time.Sleep(100 * time.Millisecond) // a full list each time: keep the API server's load from the check small
	}
	b.Fatalf("items did not reach %d", value)
}

// parallel runs fn for 0..n-1 on 16 goroutines and fails b with the first error once all returned.
func parallel(b *testing.B, n int, fn func(i int) error) {
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	sem := make(chan struct{}, 16)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := fn(i); err != nil {
				once.Do(func() { first = err })
			}
		}()
	}
	wg.Wait()
	if first != nil {
		b.Fatal(first)
	}
}

func retryConflict(fn func() error) error {
	for {
		if err := fn(); !apierrors.IsConflict(err) {
			return err
		}
	}
}
