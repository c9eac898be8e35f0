package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	kcache "github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/consistency/consistentread"
	"github.com/kgen-dev/kgen/runtime/gentype"
	"github.com/kgen-dev/kgen/runtime/listers"
	"github.com/kgen-dev/kgen/runtime/rest"
)

var configMapsGroupResource = schema.GroupResource{Resource: "configmaps"}

// BenchmarkReadYourWritesWrite updates one ConfigMap through the typed client against an HTTP server
// that answers with a fixed JSON body, measuring the client side of a write: "off" without a
// recorder in the context, "on" recording the write.
func BenchmarkReadYourWritesWrite(b *testing.B) {
	body := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"bench","uid":"u1",` +
		`"resourceVersion":"17","labels":{"app":"web"}},"data":{"key":"value"}}`)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer server.Close()
	cfg := &rest.Config{Host: server.URL, APIPath: "/api", QPS: -1}
	cfg.GroupVersion = &corev1.SchemeGroupVersion
	cfg.NegotiatedSerializer = gentypeCodecs.WithoutConversion()
	rc, err := rest.RESTClientFor(cfg)
	if err != nil {
		b.Fatal(err)
	}
	client := gentype.NewClient("configmaps", rc, gentypeParameterCodec, "bench", newConfigMap)
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "bench"}, Data: map[string]string{"key": "value"}}
	run := func(b *testing.B, ctx context.Context) {
		b.ReportAllocs()
		for b.Loop() {
			cm, err := client.Update(ctx, obj, metav1.UpdateOptions{})
			if err != nil || cm.ResourceVersion != "17" {
				b.Fatalf("Update returned %v, %v", cm, err)
			}
		}
	}
	b.Run("off", func(b *testing.B) { run(b, context.Background()) })
	b.Run("on", func(b *testing.B) {
		rec := consistency.NewRecorder()
		run(b, consistency.WithRecorder(context.Background(), rec))
		if _, ok := rec.Resource(configMapsGroupResource).Last("bench/cm"); !ok {
			b.Fatal("the write was not recorded")
		}
	})
}

// staticListWatch lists items once at resourceVersion 1000 and then watches quietly.
type staticListWatch struct{ items []corev1.ConfigMap }

func (lw staticListWatch) List(metav1.ListOptions) (k8sruntime.Object, error) {
	return &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: "1000"}, Items: lw.items}, nil
}

func (staticListWatch) Watch(metav1.ListOptions) (watch.Interface, error) {
	return watch.NewFake(), nil
}

// BenchmarkReadYourWritesRead reads a synced informer cache of 1000 ConfigMaps: Get one by name and
// List the 500 labelled app=web, through a plain lister ("lister", what a generated lister does) and
// through a consistentread.Lister: "idle" when every recorded write is known to be in the cache (the
// steady state, and again as soon as a read finds the cache past the newest write), "after-write" when
// it cannot skip the checks (a newer write outside a sharded informer's share was recorded): each
// Get looks its object up among the writes and compares resourceVersions, each List checks every
// write; nothing waits, the cache holds the writes. "wait" rows time the consistent wait alone.
func BenchmarkReadYourWritesRead(b *testing.B) {
	objects := labelledConfigMaps(1000)
	items := make([]corev1.ConfigMap, len(objects))
	for i, o := range objects {
		items[i] = *o
		items[i].ResourceVersion = strconv.Itoa(i + 1)
	}
	informer := kcache.NewSharedIndexInformer(staticListWatch{items}, &corev1.ConfigMap{}, 0,
		kcache.Indexers{kcache.NamespaceIndex: kcache.MetaNamespaceIndexFunc})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go informer.RunWithContext(ctx)
	if !kcache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		b.Fatal("informer did not sync")
	}
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	plain := listers.NewNamespaced(listers.New[*corev1.ConfigMap](informer.GetIndexer(), configMapsGroupResource), "bench")

	get := func(b *testing.B, get func(name string) (*corev1.ConfigMap, error)) {
		b.ReportAllocs()
		for b.Loop() {
			if cm, err := get("cm-0500"); err != nil || cm.Name != "cm-0500" {
				b.Fatalf("Get returned %v, %v", cm, err)
			}
		}
	}
	list := func(b *testing.B, list func() ([]*corev1.ConfigMap, error)) {
		b.ReportAllocs()
		for b.Loop() {
			if l, err := list(); err != nil || len(l) != 500 {
				b.Fatalf("List returned %d, %v", len(l), err)
			}
		}
	}
	consistent := func(afterWrite bool) (consistentread.Lister[*corev1.ConfigMap], *consistentread.Reader) {
		rec := consistency.NewRecorder()
		rec.Record(configMapsGroupResource, items[499].DeepCopy()) // a write the cache holds
		reader := consistentread.New(rec, configMapsGroupResource, informer,
			consistentread.Covers(func(w consistency.Write) bool { return w.Name != "elsewhere" }))
		if err := reader.WaitForCacheSync(ctx); err != nil {
			b.Fatal(err)
		}
		if afterWrite {
			rec.Record(configMapsGroupResource, items[500].DeepCopy())
			// A newer write outside the informer's share keeps reads from skipping the per-write checks.
			rec.Record(configMapsGroupResource, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: "elsewhere", Namespace: "bench", ResourceVersion: "5000"},
			})
		}
		return consistentread.NewLister[*corev1.ConfigMap](reader).Namespace("bench"), reader
	}
	b.Run("get/lister", func(b *testing.B) { get(b, plain.Get) })
	for _, afterWrite := range []bool{false, true} {
		name := map[bool]string{false: "idle", true: "after-write"}[afterWrite]
		l, reader := consistent(afterWrite)
		b.Run("get/"+name, func(b *testing.B) {
			get(b, func(n string) (*corev1.ConfigMap, error) { return l.Get(ctx, n) })
		})
		// The wait alone: what a consistent Get adds to the lister's.
		b.Run("wait/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := reader.WaitForObject(ctx, "bench", "cm-0500"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("list/lister", func(b *testing.B) { list(b, func() ([]*corev1.ConfigMap, error) { return plain.List(web) }) })
	for _, afterWrite := range []bool{false, true} {
		name := map[bool]string{false: "idle", true: "after-write"}[afterWrite]
		l, _ := consistent(afterWrite)
		b.Run("list/"+name, func(b *testing.B) {
			list(b, func() ([]*corev1.ConfigMap, error) { return l.List(ctx, web) })
		})
	}
}
