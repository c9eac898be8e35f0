package e2e_test

import (
	"context"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// createConfigMaps creates a namespace named prefix plus a random suffix and configmaps in it through a
// typed REST client, and returns the namespace.
func createConfigMaps(t *testing.T, prefix string, names ...string) string {
	t.Helper()
	ns := prefix + "-" + utilrand.String(5)
	scheme := runtime.NewScheme()
	_ = corev1.AddToScheme(scheme)
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	cfg := env.Config()
	cfg.APIPath, cfg.GroupVersion = "/api", &corev1.SchemeGroupVersion
	cfg.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	c, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Post().Resource("namespaces").Body(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}).Do(ctx).Error(); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "m"}}, Data: map[string]string{"big": "payload-not-in-metadata"}}
		if err := c.Post().Namespace(ns).Resource("configmaps").Body(cm).Do(ctx).Error(); err != nil {
			t.Fatal(err)
		}
	}
	return ns
}

func TestE2EMetadataClient(t *testing.T) {
	ctx := context.Background()
	ns := createConfigMaps(t, "meta", "a", "b", "c")
	client, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	cms := client.Resource(configMaps).Namespace(ns)
	got, err := cms.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "a" || got.Labels["app"] != "m" || got.UID == "" {
		t.Fatalf("get %+v", got)
	}
	list, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "app=m"})
	if err != nil || len(list.Items) != 3 || list.ResourceVersion == "" {
		t.Fatalf("list %v %v", list, err)
	}
	patched, err := cms.Patch(ctx, "a", types.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}}}`), metav1.PatchOptions{})
	if err != nil || patched.Labels["patched"] != "yes" {
		t.Fatalf("patch %v %v", patched, err)
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := cms.Delete(ctx, "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-w.ResultChan():
		m, ok := ev.Object.(*metav1.PartialObjectMetadata)
		if ev.Type != watch.Modified && ev.Type != watch.Deleted || !ok {
			t.Fatalf("event %s %T", ev.Type, ev.Object)
		}
		if m.Name != "a" && m.Name != "b" {
			t.Fatalf("event for %s", m.Name)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no watch event")
	}
	if _, err := cms.Get(ctx, "b", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get after delete: %v", err)
	}
	if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=m"}); err != nil {
		t.Fatal(err)
	}
	if list, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "app=m"}); err != nil || len(list.Items) != 0 {
		t.Fatalf("after delete collection: %v %v", list, err)
	}
}
