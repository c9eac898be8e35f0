package e2e_test

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilrand "k8s.io/apimachinery/pkg/util/rand"

	metav1apply "github.com/kgen-dev/kgen/runtime/applyconfigurations/meta/v1"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/discovery"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/dynamic/dynamicinformer"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/metadata/metadatainformer"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

const gizmoCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.extract.kgen.dev
spec:
  group: extract.kgen.dev
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo, listKind: GizmoList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              color: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
`

var (
	gizmos     = schema.GroupVersionResource{Group: "extract.kgen.dev", Version: "v1", Resource: "gizmos"}
	namespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

func gizmo(ns string, fields map[string]any) *unstructured.Unstructured {
	obj := map[string]any{"apiVersion": "extract.kgen.dev/v1", "kind": "Gizmo", "metadata": map[string]any{"name": "g", "namespace": ns}}
	for k, v := range fields {
		obj[k] = v
	}
	return &unstructured.Unstructured{Object: obj}
}

// setup installs the CRD, creates a namespace and applies one Gizmo with two managers: "ops" owns
// spec.replicas and, through the status subresource, status.phase; "dev" owns spec.color.
func setup(t *testing.T) (*dynamic.DynamicClient, string) {
	t.Helper()
	ctx := context.Background()
	if err := env.InstallCRDs(ctx, []byte(gizmoCRD)); err != nil {
		t.Fatal(err)
	}
	client, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns := "extract-" + utilrand.String(5)
	nsObj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
	if _, err := client.Resource(namespaces).Create(ctx, nsObj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	res := client.Resource(gizmos).Namespace(ns)
	for _, a := range []struct {
		manager string
		obj     *unstructured.Unstructured
		status  bool
	}{
		{"ops", gizmo(ns, map[string]any{"spec": map[string]any{"replicas": int64(3)}}), false},
		{"dev", gizmo(ns, map[string]any{"spec": map[string]any{"color": "blue"}}), false},
		{"ops", gizmo(ns, map[string]any{"status": map[string]any{"phase": "Ready"}}), true},
	} {
		var err error
		if a.status {
			_, err = res.ApplyStatus(ctx, "g", a.obj, metav1.ApplyOptions{FieldManager: a.manager})
		} else {
			_, err = res.Apply(ctx, "g", a.obj, metav1.ApplyOptions{FieldManager: a.manager})
		}
		if err != nil {
			t.Fatalf("apply as %s: %v", a.manager, err)
		}
	}
	return client, ns
}

func TestE2EUnstructuredExtractor(t *testing.T) {
	client, ns := setup(t)
	ctx := context.Background()
	obj, err := client.Resource(gizmos).Namespace(ns).Get(ctx, "g", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	// The server publishes a new CRD's schema in /openapi/v2 shortly after the CRD is served.
	var extractor metav1apply.UnstructuredExtractor
	var ops *unstructured.Unstructured
	deadline := time.Now().Add(time.Minute)
	for {
		if extractor, err = metav1apply.NewUnstructuredExtractor(dc); err != nil {
			t.Fatal(err)
		}
		ops, err = extractor.Extract(obj, "ops")
		if err == nil || !strings.Contains(err.Error(), "has no kind") || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	identity := func(fields map[string]any) map[string]any {
		return gizmo(ns, fields).Object
	}
	if want := identity(map[string]any{"spec": map[string]any{"replicas": int64(3)}}); !reflect.DeepEqual(ops.Object, want) {
		t.Errorf("Extract(ops) = %v; want %v", ops.Object, want)
	}
	dev, err := extractor.Extract(obj, "dev")
	if want := identity(map[string]any{"spec": map[string]any{"color": "blue"}}); err != nil || !reflect.DeepEqual(dev.Object, want) {
		t.Errorf("Extract(dev) = %v, %v; want %v", dev, err, want)
	}
	status, err := extractor.ExtractStatus(obj, "ops")
	if want := identity(map[string]any{"status": map[string]any{"phase": "Ready"}}); err != nil || !reflect.DeepEqual(status.Object, want) {
		t.Errorf("ExtractStatus(ops) = %v, %v; want %v", status, err, want)
	}

	// What ops extracted, changed and applied back leaves dev's field alone.
	_ = unstructured.SetNestedField(ops.Object, int64(5), "spec", "replicas")
	applied, err := client.Resource(gizmos).Namespace(ns).Apply(ctx, "g", ops, metav1.ApplyOptions{FieldManager: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	if spec, _, _ := unstructured.NestedMap(applied.Object, "spec"); !reflect.DeepEqual(spec, map[string]any{"replicas": int64(5), "color": "blue"}) {
		t.Errorf("spec after applying the extraction = %v", spec)
	}
}

// Dynamic and metadata informers cache objects without managedFields unless told to keep them, so an
// extraction must start from an object read from the server.
func TestE2EInformersDropManagedFields(t *testing.T) {
	client, ns := setup(t)
	mdClient, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		informers := map[string]cache.SharedIndexInformer{
			"dynamic":  dynamicinformer.NewFilteredDynamicInformer(client, gizmos, ns, 0, cache.Indexers{}, nil).Informer(),
			"metadata": metadatainformer.NewFilteredMetadataInformer(mdClient, gizmos, ns, 0, cache.Indexers{}, nil).Informer(),
		}
		for name, informer := range informers {
			if err := informer.SetKeepManagedFields(keep); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				informer.RunWithContext(ctx)
			}()
			synced := cache.WaitFor(ctx, name, informer.HasSyncedChecker())
			obj, ok, _ := informer.GetStore().GetByKey(ns + "/g")
			cancel()
			<-done
			if !synced || !ok {
				t.Fatalf("%s informer: synced %v, cached %v", name, synced, ok)
			}
			managed := obj.(metav1.Object).GetManagedFields()
			if (len(managed) == 3) != keep || (!keep && managed != nil) {
				t.Errorf("%s informer, keep=%v: cached managedFields %v", name, keep, managed)
			}
		}
	}
}
