package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	cggentype "k8s.io/client-go/gentype"
	cgrest "k8s.io/client-go/rest"
	cgtesting "k8s.io/client-go/testing"

	"github.com/kgen-dev/kgen/runtime/gentype"
	gentypefake "github.com/kgen-dev/kgen/runtime/gentype/fake"
	"github.com/kgen-dev/kgen/runtime/rest"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

var (
	gentypeScheme         = runtime.NewScheme()
	gentypeCodecs         = serializer.NewCodecFactory(gentypeScheme)
	gentypeParameterCodec = runtime.NewParameterCodec(gentypeScheme)
	configMapsResource    = corev1.SchemeGroupVersion.WithResource("configmaps")
	configMapKind         = corev1.SchemeGroupVersion.WithKind("ConfigMap")
)

func init() {
	metav1.AddToGroupVersion(gentypeScheme, metav1.SchemeGroupVersion)
	utilruntime.Must(corev1.AddToScheme(gentypeScheme))
}

func newConfigMap() *corev1.ConfigMap         { return &corev1.ConfigMap{} }
func newConfigMapList() *corev1.ConfigMapList { return &corev1.ConfigMapList{} }
func copyConfigMapListMeta(dst, src *corev1.ConfigMapList) {
	dst.ListMeta = src.ListMeta
}
func configMapItems(l *corev1.ConfigMapList) []*corev1.ConfigMap {
	return gentypefake.ToPointerSlice(l.Items)
}
func setConfigMapItems(l *corev1.ConfigMapList, items []*corev1.ConfigMap) {
	l.Items = gentypefake.FromPointerSlice(items)
}

// labelledConfigMaps returns n ConfigMaps in namespace "bench", every other one labelled app=web.
func labelledConfigMaps(n int) []*corev1.ConfigMap {
	out := make([]*corev1.ConfigMap, n)
	for i := range out {
		app := "db"
		if i%2 == 0 {
			app = "web"
		}
		out[i] = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%04d", i), Namespace: "bench", Labels: map[string]string{"app": app}},
			Data:       map[string]string{"key": "value"},
		}
	}
	return out
}

type configMapLister interface {
	List(ctx context.Context, opts metav1.ListOptions) (*corev1.ConfigMapList, error)
}

// BenchmarkGentypeFakeList lists 1000 ConfigMaps through a fake typed client wired to an object
// tracker the way a generated fake clientset wires it, keeping the 500 that match a label selector.
func BenchmarkGentypeFakeList(b *testing.B) {
	objects := labelledConfigMaps(1000)
	run := func(b *testing.B, client configMapLister) {
		ctx := context.Background()
		opts := metav1.ListOptions{LabelSelector: "app=web"}
		b.ReportAllocs()
		for b.Loop() {
			list, err := client.List(ctx, opts)
			if err != nil || len(list.Items) != 500 {
				b.Fatalf("List returned %d items, %v", len(list.Items), err)
			}
		}
	}
	b.Run("kgen", func(b *testing.B) {
		tracker := ktesting.NewObjectTracker(gentypeScheme, gentypeCodecs.UniversalDecoder())
		for _, obj := range objects {
			utilruntime.Must(tracker.Add(obj.DeepCopy()))
		}
		fake := &ktesting.Fake{}
		fake.AddReactor("*", "*", ktesting.ObjectReaction(tracker))
		run(b, gentypefake.NewFakeClientWithList(fake, "bench", configMapsResource, configMapKind,
			newConfigMap, newConfigMapList, copyConfigMapListMeta, configMapItems, setConfigMapItems))
	})
	b.Run("client-go", func(b *testing.B) {
		tracker := cgtesting.NewObjectTracker(gentypeScheme, gentypeCodecs.UniversalDecoder())
		for _, obj := range objects {
			utilruntime.Must(tracker.Add(obj.DeepCopy()))
		}
		fake := &cgtesting.Fake{}
		fake.AddReactor("*", "*", cgtesting.ObjectReaction(tracker))
		run(b, cggentype.NewFakeClientWithList(fake, "bench", configMapsResource, configMapKind,
			newConfigMap, newConfigMapList, copyConfigMapListMeta, configMapItems, setConfigMapItems))
	})
}

type configMapGetter interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.ConfigMap, error)
}

// BenchmarkGentypeGet gets one ConfigMap through the typed client from an HTTP server that
// answers with a fixed JSON body, measuring the client side of a request.
func BenchmarkGentypeGet(b *testing.B) {
	body := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"bench",` +
		`"resourceVersion":"1","labels":{"app":"web"}},"data":{"key":"value"}}`)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer server.Close()

	run := func(b *testing.B, client configMapGetter) {
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			cm, err := client.Get(ctx, "cm", metav1.GetOptions{})
			if err != nil || cm.Data["key"] != "value" {
				b.Fatalf("Get returned %v, %v", cm, err)
			}
		}
	}
	b.Run("kgen", func(b *testing.B) {
		cfg := &rest.Config{Host: server.URL, APIPath: "/api", QPS: -1}
		cfg.GroupVersion = &corev1.SchemeGroupVersion
		cfg.NegotiatedSerializer = gentypeCodecs.WithoutConversion()
		rc, err := rest.RESTClientFor(cfg)
		if err != nil {
			b.Fatal(err)
		}
		run(b, gentype.NewClient("configmaps", rc, gentypeParameterCodec, "bench", newConfigMap))
	})
	b.Run("client-go", func(b *testing.B) {
		cfg := &cgrest.Config{Host: server.URL, APIPath: "/api", QPS: -1}
		cfg.GroupVersion = &corev1.SchemeGroupVersion
		cfg.NegotiatedSerializer = gentypeCodecs.WithoutConversion()
		rc, err := cgrest.RESTClientFor(cfg)
		if err != nil {
			b.Fatal(err)
		}
		run(b, cggentype.NewClient("configmaps", rc, gentypeParameterCodec, "bench", newConfigMap))
	})
}
