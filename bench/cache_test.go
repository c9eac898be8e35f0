package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	cgcache "k8s.io/client-go/tools/cache"

	kcache "github.com/kgen-dev/kgen/runtime/cache"
)

// client-go's informers hang on an in-memory ListerWatcher unless streaming lists are off (its own
// BenchmarkSharedIndexInformer needs the same); the setting turns them off for kgen's informer too,
// so both sides list and watch.
func init() { os.Setenv("KUBE_FEATURE_WatchListClient", "false") }

const (
	cacheObjects    = 100_000
	cacheNamespaces = 100
)

// cachePod returns a Pod shaped like a real one from a Deployment: labels, annotations, an owner,
// managedFields, two containers, volumes and status.
func cachePod(i int, rv int) *corev1.Pod {
	name := "web-7d4b9c6f5d-" + strconv.Itoa(i)
	ns := "ns-" + strconv.Itoa(i%cacheNamespaces)
	managed := `{"f:metadata":{"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{}},"f:ownerReferences":{}},` +
		`"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{},"f:resources":{}}}}}`
	container := func(n string) corev1.Container {
		return corev1.Container{
			Name:  n,
			Image: "registry.example.com/team/" + n + ":1.27.3",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
			Env: []corev1.EnvVar{
				{Name: "LOG_LEVEL", Value: "info"}, {Name: "REGION", Value: "eu-west-1"},
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
			},
			VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/config"}},
		}
	}
	now := metav1.NewTime(time.Unix(1700000000, 0))
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: ns, UID: types.UID("uid-" + strconv.Itoa(i)), ResourceVersion: strconv.Itoa(rv),
			CreationTimestamp: now,
			Labels:            map[string]string{"app": "web-" + strconv.Itoa(i%50), "pod-template-hash": "7d4b9c6f5d", "tier": "frontend"},
			Annotations:       map[string]string{"kubectl.kubernetes.io/restartedAt": "2024-01-01T00:00:00Z", "prometheus.io/scrape": "true"},
			OwnerReferences:   []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c6f5d", UID: "rs-uid"}},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &now, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(managed)}},
				{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &now, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(managed)}, Subresource: "status"},
			},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{container("web"), container("sidecar")},
			Volumes:    []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"}}}}},
			NodeName:   "node-" + strconv.Itoa(i%500), ServiceAccountName: "web", RestartPolicy: corev1.RestartPolicyAlways,
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: "10.0." + strconv.Itoa(i%250) + "." + strconv.Itoa(i%200), HostIP: "192.168.0.1", StartTime: &now,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
				{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
			},
			ContainerStatuses: []corev1.ContainerStatus{
				{Name: "web", Ready: true, Image: "registry.example.com/team/web:1.27.3", ImageID: "sha256:abc", ContainerID: "containerd://" + strconv.Itoa(i)},
				{Name: "sidecar", Ready: true, Image: "registry.example.com/team/sidecar:1.27.3", ImageID: "sha256:def", ContainerID: "containerd://s" + strconv.Itoa(i)},
			},
		},
	}
}

func cachePods(n, rv int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = cachePod(i, rv)
	}
	return out
}

// cachePodPages builds what a decoder would produce for a paged list of n Pods spread over
// namespaces: one PodList per page of 500, each holding its Pods by value.
func cachePodPages(n, namespaces int) []*corev1.PodList {
	const pageSize = 500
	var pages []*corev1.PodList
	for start := 0; start < n; start += pageSize {
		page := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: make([]corev1.Pod, min(pageSize, n-start))}
		for i := range page.Items {
			page.Items[i] = *cachePod(start+i, 1)
			page.Items[i].Namespace = "ns-" + strconv.Itoa((start+i)%namespaces)
		}
		pages = append(pages, page)
	}
	return pages
}

func byApp(obj any) ([]string, error) {
	return []string{obj.(*corev1.Pod).Labels["app"]}, nil
}

// cacheIndexer is what both Indexers offer to the benchmarks.
type cacheIndexer interface {
	Add(obj any) error
	Update(obj any) error
	List() []any
	ByIndex(indexName, indexedValue string) ([]any, error)
}

var cacheSides = []struct {
	name       string
	newIndexer func() cacheIndexer
}{
	{"kgen", func() cacheIndexer {
		return kcache.NewIndexer(kcache.MetaNamespaceKeyFunc, kcache.Indexers{kcache.NamespaceIndex: kcache.MetaNamespaceIndexFunc, "app": byApp})
	}},
	{"client-go", func() cacheIndexer {
		return cgcache.NewIndexer(cgcache.MetaNamespaceKeyFunc, cgcache.Indexers{cgcache.NamespaceIndex: cgcache.MetaNamespaceIndexFunc, "app": byApp})
	}},
}

// BenchmarkCacheIndexer measures Add and Update of 100k Pods with a namespace and a label index, and
// ByIndex and List over them.
func BenchmarkCacheIndexer(b *testing.B) {
	pods := cachePods(cacheObjects, 1)
	updates := cachePods(cacheObjects, 2)
	for _, side := range cacheSides {
		b.Run("Add100k/"+side.name, func(b *testing.B) {
			runtime.GC()
			for b.Loop() {
				idx := side.newIndexer()
				for _, p := range pods {
					_ = idx.Add(p)
				}
			}
		})
		populated := side.newIndexer()
		for _, p := range pods {
			_ = populated.Add(p)
		}
		b.Run("Update100k/"+side.name, func(b *testing.B) {
			runtime.GC()
			for b.Loop() {
				for _, p := range updates {
					_ = populated.Update(p)
				}
			}
		})
		b.Run("ByIndex/"+side.name, func(b *testing.B) {
			runtime.GC()
			i := 0
			for b.Loop() {
				_, _ = populated.ByIndex(kcache.NamespaceIndex, "ns-"+strconv.Itoa(i%cacheNamespaces))
				_, _ = populated.ByIndex("app", "web-"+strconv.Itoa(i%50))
				i++
			}
		})
		b.Run("List/"+side.name, func(b *testing.B) {
			runtime.GC()
			for b.Loop() {
				_ = populated.List()
			}
		})
	}
}

// BenchmarkCacheDeltaFIFO queues 100k adds and 100k updates and pops everything.
func BenchmarkCacheDeltaFIFO(b *testing.B) {
	pods := cachePods(cacheObjects, 1)
	updates := cachePods(cacheObjects, 2)
	b.Run("kgen", func(b *testing.B) {
		runtime.GC()
		for b.Loop() {
			f := kcache.NewDeltaFIFOWithOptions(kcache.DeltaFIFOOptions{KeyFunction: kcache.MetaNamespaceKeyFunc, EmitDeltaTypeReplaced: true})
			for i := range pods {
				_ = f.Add(pods[i])
				_ = f.Update(updates[i])
			}
			for range pods {
				_, _ = f.Pop(func(any, bool) error { return nil })
			}
		}
	})
	b.Run("client-go", func(b *testing.B) {
		runtime.GC()
		for b.Loop() {
			f := cgcache.NewDeltaFIFOWithOptions(cgcache.DeltaFIFOOptions{KeyFunction: cgcache.MetaNamespaceKeyFunc, EmitDeltaTypeReplaced: true})
			for i := range pods {
				_ = f.Add(pods[i])
				_ = f.Update(updates[i])
			}
			for range pods {
				_, _ = f.Pop(func(any, bool) error { return nil })
			}
		}
	})
}

// memListWatch serves prepared pages (each once, like freshly decoded responses) and one watch fed
// by the benchmark.
type memListWatch struct {
	mu    sync.Mutex
	pages []*corev1.PodList
	w     *watch.FakeWatcher
}

func (lw *memListWatch) List(options metav1.ListOptions) (k8sruntime.Object, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	i := 0
	if options.Continue != "" {
		i, _ = strconv.Atoi(options.Continue)
	}
	if i >= len(lw.pages) || lw.pages[i] == nil {
		return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}, nil
	}
	page := lw.pages[i]
	lw.pages[i] = nil
	if i+1 < len(lw.pages) {
		page.Continue = strconv.Itoa(i + 1)
		remaining := int64(0)
		for _, p := range lw.pages[i+1:] {
			remaining += int64(len(p.Items))
		}
		page.RemainingItemCount = &remaining
	}
	return page, nil
}

func (lw *memListWatch) Watch(metav1.ListOptions) (watch.Interface, error) { return lw.w, nil }

// cacheInformer is what both SharedIndexInformers offer to the benchmarks.
type cacheInformer struct {
	run       func(ctx context.Context)
	waitSync  func(ctx context.Context) bool
	indexer   func() cacheIndexer
	listByNS  func(ns string) int
	addCounts func(adds, updates *atomic.Int64)
}

func newCacheInformer(side string, lw *memListWatch) cacheInformer {
	if side == "kgen" || side == "kgen-unshared" {
		inf := kcache.NewSharedIndexInformer(&kcache.ListWatch{ListFunc: lw.List, WatchFunc: lw.Watch}, &corev1.Pod{}, 0,
			kcache.Indexers{kcache.NamespaceIndex: kcache.MetaNamespaceIndexFunc})
		if side == "kgen-unshared" {
			_ = inf.SetDisableSharing(true)
		}
		return cacheInformer{
			run:      inf.RunWithContext,
			waitSync: func(ctx context.Context) bool { return kcache.WaitFor(ctx, "", inf.HasSyncedChecker()) },
			indexer:  func() cacheIndexer { return inf.GetIndexer() },
			listByNS: func(ns string) int {
				n := 0
				_ = kcache.ListAllByNamespace(inf.GetIndexer(), ns, labels.Everything(), func(any) { n++ })
				return n
			},
			addCounts: func(adds, updates *atomic.Int64) {
				_, _ = inf.AddEventHandler(kcache.ResourceEventHandlerFuncs{
					AddFunc: func(any) { adds.Add(1) }, UpdateFunc: func(_, _ any) { updates.Add(1) },
				})
			},
		}
	}
	inf := cgcache.NewSharedIndexInformer(&cgcache.ListWatch{ListFunc: lw.List, WatchFunc: lw.Watch}, &corev1.Pod{}, 0,
		cgcache.Indexers{cgcache.NamespaceIndex: cgcache.MetaNamespaceIndexFunc})
	return cacheInformer{
		run:      inf.RunWithContext,
		waitSync: func(ctx context.Context) bool { return cgcache.WaitFor(ctx, "", inf.HasSyncedChecker()) },
		indexer:  func() cacheIndexer { return inf.GetIndexer() },
		listByNS: func(ns string) int {
			n := 0
			_ = cgcache.ListAllByNamespace(inf.GetIndexer(), ns, labels.Everything(), func(any) { n++ })
			return n
		},
		addCounts: func(adds, updates *atomic.Int64) {
			_, _ = inf.AddEventHandler(cgcache.ResourceEventHandlerFuncs{
				AddFunc: func(any) { adds.Add(1) }, UpdateFunc: func(_, _ any) { updates.Add(1) },
			})
		},
	}
}

// heapSampler records the peak of live heap objects while it runs.
type heapSampler struct {
	stop chan struct{}
	done chan struct{}
	peak uint64
}

const heapObjectsMetric = "/memory/classes/heap/objects:bytes"

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: heapObjectsMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			h.peak = max(h.peak, heapObjects())
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapSampler) finish() uint64 {
	close(h.stop)
	<-h.done
	return max(h.peak, heapObjects())
}

func waitCount(c *atomic.Int64, n int64) {
	for c.Load() < n {
		time.Sleep(100 * time.Microsecond)
	}
}

// BenchmarkCacheInformer measures, for an initial list of 100k realistic Pods from an in-memory
// ListerWatcher serving pages of 500, the time until HasSynced (sync-ms) and the peak heap above the
// decoded pages (peak-MB; list-MB is the pages themselves), then the time for 100k watch updates to
// reach a handler (watch-ms), with the CPU time the process spent in each (sync-cpu-ms, watch-cpu-ms),
// which other jobs on a shared machine disturb less than wall time. The objects are built, not
// decoded, so this measures the informers' own work: kgen's by default (sharing equal parts, a walk
// of every object) and without sharing.
func BenchmarkCacheInformer(b *testing.B) {
	for _, side := range []string{"kgen", "kgen-unshared", "client-go"} {
		b.Run(side, func(b *testing.B) {
			var syncTotal, watchTotal, syncCPU, watchCPU time.Duration
			var peakTotal, listTotal float64
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				before := heapObjects()
				lw := &memListWatch{pages: cachePodPages(cacheObjects, cacheNamespaces), w: watch.NewFakeWithChanSize(cacheObjects, false)}
				runtime.GC()
				listTotal += float64(heapObjects()-before) / (1 << 20)
				updates := cachePods(cacheObjects, 2)
				inf := newCacheInformer(side, lw)
				var adds, upd atomic.Int64
				inf.addCounts(&adds, &upd)
				runtime.GC()
				base := heapObjects()
				ctx, cancel := context.WithCancel(context.Background())
				b.StartTimer()

				sampler := startHeapSampler()
				start, startCPU := time.Now(), processCPU()
				done := make(chan struct{})
				go func() {
					defer close(done)
					inf.run(ctx)
				}()
				inf.waitSync(ctx)
				syncTotal += time.Since(start)
				syncCPU += processCPU() - startCPU
				waitCount(&adds, cacheObjects)
				peakTotal += float64(sampler.finish()-base) / (1 << 20)

				start, startCPU = time.Now(), processCPU()
				for _, p := range updates {
					lw.w.Modify(p.(*corev1.Pod))
				}
				waitCount(&upd, cacheObjects)
				watchTotal += time.Since(start)
				watchCPU += processCPU() - startCPU

				b.StopTimer()
				cancel()
				<-done
				b.StartTimer()
			}
			n := float64(b.N)
			b.ReportMetric(float64(syncTotal.Milliseconds())/n, "sync-ms")
			b.ReportMetric(peakTotal/n, "peak-MB")
			b.ReportMetric(listTotal/n, "list-MB")
			b.ReportMetric(float64(watchTotal.Milliseconds())/n, "watch-ms")
			b.ReportMetric(float64(syncCPU.Milliseconds())/n, "sync-cpu-ms")
			b.ReportMetric(float64(watchCPU.Milliseconds())/n, "watch-cpu-ms")
		})
	}
}

// BenchmarkCacheInformerWritesWithReaders measures how many watch updates per second an informer
// applies while 0, 1 or 10 goroutines keep calling ListAllByNamespace (client-go issue 130767).
func BenchmarkCacheInformerWritesWithReaders(b *testing.B) {
	const objects, namespaces, writes = 50_000, 10, 20_000
	for _, readers := range []int{0, 1, 10} {
		for _, side := range []string{"kgen", "client-go"} {
			b.Run(fmt.Sprintf("readers=%d/%s", readers, side), func(b *testing.B) {
				var total time.Duration
				for b.Loop() {
					b.StopTimer()
					pages := cachePodPages(objects, namespaces)
					updates := make([]*corev1.Pod, writes)
					for i := range updates {
						updates[i] = pages[i/500].Items[i%500].DeepCopy()
						updates[i].ResourceVersion = strconv.Itoa(i + 2)
					}
					lw := &memListWatch{pages: pages, w: watch.NewFakeWithChanSize(writes, false)}
					inf := newCacheInformer(side, lw)
					var adds, upd atomic.Int64
					inf.addCounts(&adds, &upd)
					ctx, cancel := context.WithCancel(context.Background())
					done := make(chan struct{})
					go func() {
						defer close(done)
						inf.run(ctx)
					}()
					inf.waitSync(ctx)
					waitCount(&adds, objects)
					var wg sync.WaitGroup
					stopReaders := make(chan struct{})
					for r := range readers {
						wg.Go(func() {
							for i := r; ; i++ {
								select {
								case <-stopReaders:
									return
								default:
								}
								inf.listByNS("ns-" + strconv.Itoa(i%namespaces))
							}
						})
					}
					b.StartTimer()

					start := time.Now()
					for _, p := range updates {
						lw.w.Modify(p)
					}
					waitCount(&upd, writes)
					total += time.Since(start)

					b.StopTimer()
					close(stopReaders)
					wg.Wait()
					cancel()
					<-done
					b.StartTimer()
				}
				b.ReportMetric(float64(writes*b.N)/total.Seconds(), "writes/s")
			})
		}
	}
}
