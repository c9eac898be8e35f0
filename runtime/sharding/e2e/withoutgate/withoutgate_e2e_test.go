package withoutgate_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/sharding"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

// TestProbesSeeThroughAnIgnoredSelector: typed lists carry no shard info, a metadata-only list of a
// non-empty collection returns the object its selector leaves out, and SupportsServerMode says no.
func TestProbesSeeThroughAnIgnoredSelector(t *testing.T) {
	ctx := context.Background()
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns := "withoutgate"
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	supported, err := sharding.ServerShardingSupported(ctx, sharding.UIDField, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return cs.CoreV1().ConfigMaps(ns).List(ctx, opts)
	})
	if err != sharding.ErrUnprovable || supported {
		t.Fatalf("an empty collection without the gate: supported = %v, %v; want ErrUnprovable", supported, err)
	}
	for i := range 3 {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}}
		if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	meta, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	configMaps := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	supported, err = sharding.ServerShardingSupported(ctx, sharding.UIDField, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return meta.Resource(configMaps).Namespace(ns).List(ctx, opts)
	})
	if err != nil || supported {
		t.Fatalf("a server without the ShardedListAndWatch gate: supported = %v, %v", supported, err)
	}
	cfg := sharding.Config{Ring: "r", Identity: "a", Namespace: ns, Leases: cs.CoordinationV1().Leases(ns), Metadata: meta,
		ObjectNamespace: ns, Resources: []sharding.Resource{{Resource: configMaps, Kind: "ConfigMap"}}}
	if ok, err := sharding.SupportsServerMode(ctx, cfg); ok || err != nil {
		t.Fatalf("SupportsServerMode without the gate = %v, %v", ok, err)
	}
	// An empty collection falls back on the ring's Leases, which prove nothing either.
	cfg.ObjectNamespace = "default"
	if ok, err := sharding.SupportsServerMode(ctx, cfg); ok || err != nil {
		t.Fatalf("SupportsServerMode on an empty collection without the gate = %v, %v", ok, err)
	}
}
