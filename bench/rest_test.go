package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	cgrest "k8s.io/client-go/rest"

	"github.com/kgen-dev/kgen/runtime/rest"
)

var (
	restScheme         = kruntime.NewScheme()
	restCodecs         = serializer.NewCodecFactory(restScheme)
	restParameterCodec = kruntime.NewParameterCodec(restScheme)
)

func init() {
	metav1.AddToGroupVersion(restScheme, metav1.SchemeGroupVersion)
	utilruntime.Must(corev1.AddToScheme(restScheme))
}

const (
	listSize          = 5000
	bigListSize       = 10000
	watchEventsPerRun = 1000
	mediaProtobuf     = "application/vnd.kubernetes.protobuf"
	mediaJSON         = "application/json"
)

// benchPod returns a realistic pod: labels, annotations, two containers with resources, status.
func benchPod(i int) corev1.Pod {
	return corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("web-%d", i), Namespace: "bench", UID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
			ResourceVersion: strconv.Itoa(1000 + i), Labels: map[string]string{"app": "web", "tier": "frontend", "pod-template-hash": "5d8f7c9b4"},
			Annotations:       map[string]string{"kubernetes.io/psp": "restricted", "prometheus.io/scrape": "true"},
			CreationTimestamp: metav1.Unix(1700000000, 0),
			OwnerReferences:   []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d8f7c9b4", UID: "a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90"}},
		},
		Spec: corev1.PodSpec{
			NodeName: fmt.Sprintf("node-%d", i%50),
			Containers: []corev1.Container{{
				Name: "app", Image: "registry.example.com/web:v1.2.3", Args: []string{"--port=8080", "--log-level=info"},
				Ports:     []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Env:       []corev1.EnvVar{{Name: "MODE", Value: "production"}, {Name: "REGION", Value: "eu-west-1"}},
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
			}, {
				Name: "sidecar", Image: "registry.example.com/proxy:v0.9",
				Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")}},
			}},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, PodIP: fmt.Sprintf("10.0.%d.%d", i/250, i%250), HostIP: "192.168.0.10",
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Unix(1700000100, 0)}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: true, RestartCount: 0, Image: "registry.example.com/web:v1.2.3", ImageID: "sha256:abc"}},
		},
	}
}

func encodeFor(mediaType string, obj kruntime.Object) []byte {
	info, ok := kruntime.SerializerInfoForMediaType(restCodecs.SupportedMediaTypes(), mediaType)
	if !ok {
		panic(mediaType)
	}
	var buf bytes.Buffer
	utilruntime.Must(restCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion).Encode(obj, &buf))
	return buf.Bytes()
}

// watchBody frames watchEventsPerRun MODIFIED events in mediaType's stream framing.
func watchBody(mediaType string) []byte {
	info, _ := kruntime.SerializerInfoForMediaType(restCodecs.SupportedMediaTypes(), mediaType)
	var buf bytes.Buffer
	framer := info.StreamSerializer.Framer.NewFrameWriter(&buf)
	for i := range watchEventsPerRun {
		pod := benchPod(i)
		ev := &metav1.WatchEvent{Type: string(watch.Modified), Object: kruntime.RawExtension{Raw: encodeFor(mediaType, &pod)}}
		utilruntime.Must(info.StreamSerializer.Encode(ev, framer))
	}
	return buf.Bytes()
}

// podServer serves a list of n pods and a watch stream, as JSON or protobuf by the Accept header.
func podServer(b *testing.B, n int) *httptest.Server {
	list := &corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, ListMeta: metav1.ListMeta{ResourceVersion: "99999"}}
	for i := range n {
		list.Items = append(list.Items, benchPod(i))
	}
	lists := map[string][]byte{mediaJSON: encodeFor(mediaJSON, list), mediaProtobuf: encodeFor(mediaProtobuf, list)}
	watches := map[string][]byte{mediaJSON: watchBody(mediaJSON), mediaProtobuf: watchBody(mediaProtobuf)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		media := mediaJSON
		if strings.HasPrefix(r.Header.Get("Accept"), mediaProtobuf) {
			media = mediaProtobuf
		}
		if r.URL.Query().Get("watch") == "true" {
			w.Header().Set("Content-Type", media+";stream=watch")
			_, _ = w.Write(watches[media])
			return
		}
		w.Header().Set("Content-Type", media)
		_, _ = w.Write(lists[media])
	}))
	b.Cleanup(srv.Close)
	return srv
}

// clients returns a kgen and a client-go REST client for core/v1 on srv, both without rate limiting.
func clients(b *testing.B, srv *httptest.Server) (*rest.RESTClient, *cgrest.RESTClient) {
	k, err := rest.RESTClientFor(&rest.Config{Host: srv.URL, APIPath: "/api", QPS: -1,
		ContentConfig: rest.ContentConfig{GroupVersion: &corev1.SchemeGroupVersion, NegotiatedSerializer: restCodecs.WithoutConversion()}})
	if err != nil {
		b.Fatal(err)
	}
	c, err := cgrest.RESTClientFor(&cgrest.Config{Host: srv.URL, APIPath: "/api", QPS: -1,
		ContentConfig: cgrest.ContentConfig{GroupVersion: &corev1.SchemeGroupVersion, NegotiatedSerializer: restCodecs.WithoutConversion()}})
	if err != nil {
		b.Fatal(err)
	}
	return k, c
}

// BenchmarkRESTListPods5k decodes a List of 5000 Pods through each client (JSON and protobuf).
func BenchmarkRESTListPods5k(b *testing.B) {
	srv := podServer(b, listSize)
	k, c := clients(b, srv)
	ctx := context.Background()
	for _, proto := range []bool{false, true} {
		enc := map[bool]string{false: "json", true: "protobuf"}[proto]
		b.Run(enc+"/kgen", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				list := &corev1.PodList{}
				if err := k.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").Do(ctx).Into(list); err != nil || len(list.Items) != listSize {
					b.Fatal(err, len(list.Items))
				}
			}
		})
		b.Run(enc+"/client-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				list := &corev1.PodList{}
				if err := c.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").Do(ctx).Into(list); err != nil || len(list.Items) != listSize {
					b.Fatal(err, len(list.Items))
				}
			}
		})
	}
}

// peakHeapInterval is how often peakHeap samples the heap.
const peakHeapInterval = 100 * time.Microsecond

// peakHeap runs op after a forced GC while a goroutine samples the runtime/metrics value
// /memory/classes/heap/objects:bytes (live objects and dead ones not yet swept) every
// peakHeapInterval. It returns the highest sample above the value before op, and what op's result
// still holds after another forced GC.
func peakHeap(op func() any) (peak, retained uint64) {
	const name = "/memory/classes/heap/objects:bytes"
	read := func() uint64 {
		s := []metrics.Sample{{Name: name}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var highest atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if v := read(); v > highest.Load() {
				highest.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(peakHeapInterval):
			}
		}
	}()
	result := op()
	close(done)
	<-stopped
	runtime.GC()
	after := read()
	runtime.KeepAlive(result)
	return max(highest.Load(), base) - base, max(after, base) - base
}

// peakHeapRuns is how many lists BenchmarkRESTListPods10k decodes to measure the peak heap.
const peakHeapRuns = 3

// BenchmarkRESTListPods10k decodes a List of 10000 Pods through each client the way its typed
// clients do: kgen with DoInto, which decodes the items as the body arrives, client-go with
// Do(ctx).Into, which reads the whole body first. Besides time and B/op it reports, in MB (10^6
// bytes), peak-heap-MB and list-MB: before the timed loop, peakHeapRuns lists are decoded one at a
// time with peakHeap, and the metrics are the means of their peaks and of what the decoded list
// holds. The peak counts the body, the decoded list and garbage not yet collected; both clients run
// under the same GC settings, and the sampling goroutine does not run during the timed loop.
func BenchmarkRESTListPods10k(b *testing.B) {
	srv := podServer(b, bigListSize)
	k, c := clients(b, srv)
	ctx := context.Background()
	for _, proto := range []bool{false, true} {
		enc := map[bool]string{false: "json", true: "protobuf"}[proto]
		for _, client := range []string{"kgen", "client-go"} {
			list := func() any {
				list := &corev1.PodList{}
				var err error
				if client == "kgen" {
					err = k.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").DoInto(ctx, list)
				} else {
					err = c.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").Do(ctx).Into(list)
				}
				if err != nil || len(list.Items) != bigListSize {
					b.Fatal(err, len(list.Items))
				}
				return list
			}
			b.Run(enc+"/"+client, func(b *testing.B) {
				var peaks, lists uint64
				for range peakHeapRuns {
					peak, retained := peakHeap(list)
					peaks += peak
					lists += retained
				}
				b.ReportAllocs()
				for b.Loop() {
					list()
				}
				b.ReportMetric(float64(peaks)/peakHeapRuns/1e6, "peak-heap-MB")
				b.ReportMetric(float64(lists)/peakHeapRuns/1e6, "list-MB")
			})
		}
	}
}

// drain counts events until the watch ends.
func drain(b *testing.B, w watch.Interface) {
	n := 0
	for ev := range w.ResultChan() {
		if ev.Type != watch.Modified {
			b.Fatalf("event %s: %v", ev.Type, ev.Object)
		}
		n++
	}
	if n != watchEventsPerRun {
		b.Fatalf("got %d events", n)
	}
}

// BenchmarkRESTWatchDecode measures watch event decode throughput (events/s) through each client.
func BenchmarkRESTWatchDecode(b *testing.B) {
	srv := podServer(b, listSize)
	k, c := clients(b, srv)
	ctx := context.Background()
	opts := &metav1.ListOptions{Watch: true}
	for _, proto := range []bool{false, true} {
		enc := map[bool]string{false: "json", true: "protobuf"}[proto]
		b.Run(enc+"/kgen", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w, err := k.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").VersionedParams(opts, restParameterCodec).Watch(ctx)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, w)
			}
			b.ReportMetric(float64(b.N*watchEventsPerRun)/b.Elapsed().Seconds(), "events/s")
		})
		b.Run(enc+"/client-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w, err := c.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").VersionedParams(opts, restParameterCodec).Watch(ctx)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, w)
			}
			b.ReportMetric(float64(b.N*watchEventsPerRun)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// interleave runs kgenOp and clientGoOp alternately (swapping their order each iteration) and reports
// their mean times and ratio, so load on a shared machine affects both sides alike.
func interleave(b *testing.B, kgenOp, clientGoOp func()) {
	var kgen, clientGo time.Duration
	timed := func(op func()) time.Duration {
		start := time.Now()
		op()
		return time.Since(start)
	}
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			kgen += timed(kgenOp)
			clientGo += timed(clientGoOp)
		} else {
			clientGo += timed(clientGoOp)
			kgen += timed(kgenOp)
		}
		i++
	}
	b.ReportMetric(float64(kgen.Microseconds())/float64(i)/1000, "kgen-ms/op")
	b.ReportMetric(float64(clientGo.Microseconds())/float64(i)/1000, "client-go-ms/op")
	b.ReportMetric(float64(kgen)/float64(clientGo), "kgen/client-go")
}

// BenchmarkRESTInterleaved measures the list and watch cases with both clients interleaved and reports
// the time ratio kgen/client-go (below 1 means kgen is faster). Lists are decoded as the typed
// clients decode them: kgen with DoInto, client-go with Do(ctx).Into.
func BenchmarkRESTInterleaved(b *testing.B) {
	srv := podServer(b, listSize)
	k, c := clients(b, srv)
	k10k, c10k := clients(b, podServer(b, bigListSize))
	ctx := context.Background()
	opts := &metav1.ListOptions{Watch: true}
	for _, proto := range []bool{false, true} {
		enc := map[bool]string{false: "json", true: "protobuf"}[proto]
		for _, size := range []struct {
			name string
			k    *rest.RESTClient
			cc   *cgrest.RESTClient
		}{{"list5k", k, c}, {"list10k", k10k, c10k}} {
			b.Run(size.name+"/"+enc, func(b *testing.B) {
				interleave(b, func() {
					if err := size.k.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").DoInto(ctx, &corev1.PodList{}); err != nil {
						b.Fatal(err)
					}
				}, func() {
					if err := size.cc.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").Do(ctx).Into(&corev1.PodList{}); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
		b.Run("watch1k/"+enc, func(b *testing.B) {
			interleave(b, func() {
				w, err := k.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").VersionedParams(opts, restParameterCodec).Watch(ctx)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, w)
			}, func() {
				w, err := c.Get().UseProtobufAsDefaultIfPreferred(proto).Namespace("bench").Resource("pods").VersionedParams(opts, restParameterCodec).Watch(ctx)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, w)
			})
		})
	}
}
