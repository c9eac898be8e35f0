package bench

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	cgcache "k8s.io/client-go/tools/cache"

	kcache "github.com/kgen-dev/kgen/runtime/cache"
)

// memoryObjects is how many objects of each kind BenchmarkInformerMemory caches.
const memoryObjects = 10_000

// Realistic managedFields: what kube-controller-manager and the kubelet record on a Deployment's Pod,
// and what kubectl apply and a controller's status updates record on a custom object.
const (
	podControllerFields = `{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:tier":{}},` +
		`"f:ownerReferences":{".":{},"k:{\"uid\":\"rs-uid\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"sidecar\"}":{".":{},` +
		`"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},` +
		`"f:resources":{".":{},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}},` +
		`"k:{\"name\":\"web\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}},` +
		`"k:{\"name\":\"REGION\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},` +
		`"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},` +
		`"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},` +
		`"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},"k:{\"mountPath\":\"/etc/config\"}":{".":{},` +
		`"f:mountPath":{},"f:name":{}}}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},` +
		`"f:securityContext":{},"f:serviceAccount":{},"f:serviceAccountName":{},"f:terminationGracePeriodSeconds":{},` +
		`"f:volumes":{".":{},"k:{\"name\":\"config\"}":{".":{},"f:configMap":{".":{},"f:defaultMode":{},"f:name":{}},"f:name":{}}}}}`
	podKubeletFields = `{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},` +
		`"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},` +
		`"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},` +
		`"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},` +
		`"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},` +
		`"k:{\"ip\":\"10.0.0.1\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`
	widgetApplyFields = `{"f:metadata":{"f:annotations":{"f:widgets.example.com/owner-team":{}},"f:labels":{"f:app.kubernetes.io/instance":{},` +
		`"f:app.kubernetes.io/managed-by":{},"f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{}}},"f:spec":{"f:image":{},` +
		`"f:replicas":{},"f:resources":{"f:cpu":{},"f:memory":{}},"f:rollout":{"f:maxSurge":{},"f:maxUnavailable":{},"f:strategy":{}},` +
		`"f:tier":{}}}`
	widgetStatusFields = `{"f:status":{".":{},"f:conditions":{".":{},"k:{\"type\":\"Available\"}":{".":{},"f:lastTransitionTime":{},` +
		`"f:message":{},"f:reason":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Progressing\"}":{".":{},"f:lastTransitionTime":{},` +
		`"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:observedGeneration":{},"f:readyReplicas":{}}}`
)

// memoryPod is cachePod with the managedFields a real Deployment's Pod carries.
func memoryPod(i int) *corev1.Pod {
	p := cachePod(i, 1)
	p.GenerateName = "web-7d4b9c6f5d-"
	p.ManagedFields[0].FieldsV1 = metav1.NewFieldsV1(podControllerFields)
	p.ManagedFields[1].FieldsV1 = metav1.NewFieldsV1(podKubeletFields)
	return p
}

// memoryWidget is a custom object applied by kubectl (spec, labels, an annotation) whose status a
// controller updates, owned by another custom object and carrying a finalizer.
func memoryWidget(i int) map[string]any {
	now := "2024-05-01T10:00:00Z"
	name := "widget-" + strconv.Itoa(i)
	condition := func(typ, reason string) map[string]any {
		return map[string]any{"type": typ, "status": "True", "reason": reason, "message": "Widget " + name + " is " + reason, "lastTransitionTime": now}
	}
	return map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{
			"name": name, "namespace": "ns-" + strconv.Itoa(i%cacheNamespaces), "uid": "widget-uid-" + strconv.Itoa(i),
			"resourceVersion": "1", "generation": int64(3), "creationTimestamp": now,
			"labels": map[string]any{
				"app.kubernetes.io/name": "widget", "app.kubernetes.io/instance": "shop-" + strconv.Itoa(i%20),
				"app.kubernetes.io/managed-by": "kubectl", "app.kubernetes.io/part-of": "storefront",
			},
			"annotations": map[string]any{"widgets.example.com/owner-team": "payments"},
			"ownerReferences": []any{map[string]any{
				"apiVersion": "example.com/v1", "kind": "WidgetSet", "name": "shop-" + strconv.Itoa(i%20),
				"uid": "widgetset-uid-" + strconv.Itoa(i%20), "controller": true, "blockOwnerDeletion": true,
			}},
			"finalizers": []any{"widgets.example.com/cleanup"},
			"managedFields": []any{
				map[string]any{"manager": "kubectl", "operation": "Apply", "apiVersion": "example.com/v1", "time": now,
					"fieldsType": "FieldsV1", "fieldsV1": json.RawMessage(widgetApplyFields)},
				map[string]any{"manager": "widget-controller", "operation": "Update", "apiVersion": "example.com/v1", "time": now,
					"fieldsType": "FieldsV1", "fieldsV1": json.RawMessage(widgetStatusFields), "subresource": "status"},
			},
		},
		"spec": map[string]any{
			"replicas": int64(3), "image": "registry.example.com/shop/widget:2.4.1", "tier": "backend",
			"resources": map[string]any{"cpu": "250m", "memory": "256Mi"},
			"rollout":   map[string]any{"strategy": "RollingUpdate", "maxSurge": "25%", "maxUnavailable": int64(0)},
		},
		"status": map[string]any{
			"observedGeneration": int64(3), "readyReplicas": int64(3),
			"conditions": []any{condition("Available", "MinimumReplicasAvailable"), condition("Progressing", "NewReplicaSetAvailable")},
		},
	}
}

// encodedPages serves a list as encoded pages (protobuf for Pods, JSON for custom objects, as clients
// request them), decoding each page afresh on every List as a client does with a response body, so
// that no two cached objects share strings, as with a real server.
type encodedPages struct {
	pages  [][]byte
	decode func([]byte) (k8sruntime.Object, error)
}

// newEncodedPages encodes n items in pages of 500 with encode, to be decoded by decode.
func newEncodedPages[T any](n int, item func(int) T, encode func([]T) ([]byte, error), decode func([]byte) (k8sruntime.Object, error)) *encodedPages {
	const pageSize = 500
	lw := &encodedPages{decode: decode}
	for start := 0; start < n; start += pageSize {
		items := make([]T, 0, pageSize)
		for i := start; i < min(n, start+pageSize); i++ {
			items = append(items, item(i))
		}
		b, err := encode(items)
		if err != nil {
			panic(err)
		}
		lw.pages = append(lw.pages, b)
	}
	return lw
}

func (lw *encodedPages) List(options metav1.ListOptions) (k8sruntime.Object, error) {
	i := 0
	if options.Continue != "" {
		i, _ = strconv.Atoi(options.Continue)
	}
	obj, err := lw.decode(lw.pages[i])
	if err != nil {
		return nil, err
	}
	list, err := meta.ListAccessor(obj)
	if err != nil {
		return nil, err
	}
	list.SetResourceVersion("1")
	if i+1 < len(lw.pages) {
		list.SetContinue(strconv.Itoa(i + 1))
	}
	return obj, nil
}

// Watch returns a watch on which nothing happens until the informer stops it.
func (lw *encodedPages) Watch(metav1.ListOptions) (watch.Interface, error) {
	return watch.NewFake(), nil
}

func podPages() *encodedPages {
	return newEncodedPages(memoryObjects, func(i int) corev1.Pod { return *memoryPod(i) },
		func(items []corev1.Pod) ([]byte, error) { return (&corev1.PodList{Items: items}).Marshal() },
		func(b []byte) (k8sruntime.Object, error) {
			list := &corev1.PodList{}
			return list, list.Unmarshal(b)
		})
}

func widgetPages() *encodedPages {
	return newEncodedPages(memoryObjects, memoryWidget,
		func(items []map[string]any) ([]byte, error) {
			return json.Marshal(map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetList", "metadata": map[string]any{}, "items": items})
		},
		func(b []byte) (k8sruntime.Object, error) {
			list := &unstructured.UnstructuredList{}
			return list, list.UnmarshalJSON(b)
		})
}

// stripManagedFields is the transform client-go users write to drop managedFields.
func stripManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// memoryInformer runs one side's informer over lw; wait waits for it to sync and stop stops it.
func memoryInformer(side string, lw *encodedPages, example k8sruntime.Object) (wait func() bool, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var run func(context.Context)
	switch side {
	case "kgen", "kgen-keep":
		inf := kcache.NewSharedIndexInformer(&kcache.ListWatch{ListFunc: lw.List, WatchFunc: lw.Watch}, example, 0,
			kcache.Indexers{kcache.NamespaceIndex: kcache.MetaNamespaceIndexFunc})
		if side == "kgen-keep" {
			_ = inf.SetKeepManagedFields(true)
		}
		run, wait = inf.RunWithContext, func() bool { return kcache.WaitFor(ctx, "", inf.HasSyncedChecker()) }
	default:
		inf := cgcache.NewSharedIndexInformer(&cgcache.ListWatch{ListFunc: lw.List, WatchFunc: lw.Watch}, example, 0,
			cgcache.Indexers{cgcache.NamespaceIndex: cgcache.MetaNamespaceIndexFunc})
		if side == "client-go-strip" {
			_ = inf.SetTransform(stripManagedFields)
		}
		run, wait = inf.RunWithContext, func() bool { return cgcache.WaitFor(ctx, "", inf.HasSyncedChecker()) }
	}
	var wg sync.WaitGroup
	wg.Go(func() { run(ctx) })
	return wait, func() { cancel(); wg.Wait() }
}

// BenchmarkInformerMemory syncs an informer over 10,000 Pods and, separately, 10,000 custom objects
// (unstructured) with realistic metadata, decoded from pages of 500 (protobuf for Pods, JSON for custom
// objects), and reports the live heap the synced cache holds (heap-MB, after a GC, the decoded pages
// dropped) and the time until HasSynced (sync-ms): kgen's informer as it is by default (managedFields
// dropped) and with managedFields kept, client-go's as it is by default and with a transform that drops
// managedFields.
func BenchmarkInformerMemory(b *testing.B) {
	kinds := []struct {
		name    string
		pages   func() *encodedPages
		example k8sruntime.Object
	}{
		{"pods", podPages, &corev1.Pod{}},
		{"custom", widgetPages, &unstructured.Unstructured{}},
	}
	for _, kind := range kinds {
		lw := kind.pages()
		for _, side := range []string{"kgen", "kgen-keep", "client-go", "client-go-strip"} {
			b.Run(kind.name+"/"+side, func(b *testing.B) {
				var heap float64
				var sync time.Duration
				for b.Loop() {
					b.StopTimer()
					runtime.GC()
					base := heapObjects()
					b.StartTimer()
					start := time.Now()
					wait, stop := memoryInformer(side, lw, kind.example)
					if !wait() {
						b.Fatal("informer did not sync")
					}
					sync += time.Since(start)
					b.StopTimer()
					runtime.GC()
					runtime.GC()
					heap += float64(heapObjects()-base) / (1 << 20)
					stop()
					b.StartTimer()
				}
				n := float64(b.N)
				b.ReportMetric(heap/n, "heap-MB")
				b.ReportMetric(float64(sync.Milliseconds())/n, "sync-ms")
			})
		}
	}
}
