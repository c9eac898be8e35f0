package e2e_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/metadata/metadatainformer"
)

func TestE2EMetadataInformer(t *testing.T) {
	ns := createConfigMaps(t, "metainf", "one", "two")
	client, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	factory := metadatainformer.NewFilteredSharedInformerFactory(client, 0, ns, nil)
	informer := factory.ForResource(configMaps)
	stop := make(chan struct{})
	factory.Start(stop)
	defer func() {
		close(stop)
		factory.Shutdown()
	}()
	if synced := factory.WaitForCacheSync(stop); !synced[configMaps] {
		t.Fatalf("not synced: %v", synced)
	}
	objs, err := informer.Lister().ByNamespace(ns).List(labels.SelectorFromSet(labels.Set{"app": "m"}))
	if err != nil || len(objs) != 2 {
		t.Fatalf("lister: %d %v", len(objs), err)
	}
	for _, o := range objs {
		if _, ok := o.(*metav1.PartialObjectMetadata); !ok {
			t.Fatalf("cached %T, want *metav1.PartialObjectMetadata", o)
		}
	}
	if err := client.Resource(configMaps).Namespace(ns).Delete(context.Background(), "one", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := informer.Lister().ByNamespace(ns).Get("one"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("deletion never reached the cache")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
