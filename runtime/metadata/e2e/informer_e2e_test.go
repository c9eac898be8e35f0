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

// TestE2EMetadataInformerFactoryOptions: a factory's namespace, list options, transform and managedFields
// policy reach every informer it makes; by default cached objects have no managedFields.
func TestE2EMetadataInformerFactoryOptions(t *testing.T) {
	ns := createConfigMaps(t, "metaopts", "one")
	createConfigMaps(t, "metaother", "elsewhere")
	client, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		factory := metadatainformer.NewSharedInformerFactoryWithOptions(client, 0,
			metadatainformer.WithNamespace(ns),
			metadatainformer.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "app=m" }),
			metadatainformer.WithKeepManagedFields(keep),
			metadatainformer.WithTransform(func(obj any) (any, error) {
				obj.(*metav1.PartialObjectMetadata).Annotations = map[string]string{"transformed": "yes"}
				return obj, nil
			}))
		informer := factory.ForResource(configMaps)
		stop := make(chan struct{})
		factory.Start(stop)
		if synced := factory.WaitForCacheSync(stop); !synced[configMaps] {
			t.Fatalf("not synced: %v", synced)
		}
		objs, err := informer.Lister().List(labels.Everything())
		close(stop)
		factory.Shutdown()
		if err != nil || len(objs) != 1 {
			t.Fatalf("keep %v: cached %d objects (%v), want the one of namespace %s", keep, len(objs), err, ns)
		}
		m := objs[0].(*metav1.PartialObjectMetadata)
		if m.Namespace != ns || m.Annotations["transformed"] != "yes" || (len(m.ManagedFields) > 0) != keep {
			t.Errorf("keep %v: cached %s/%s, annotations %v, %d managedFields", keep, m.Namespace, m.Name, m.Annotations, len(m.ManagedFields))
		}
	}
}
