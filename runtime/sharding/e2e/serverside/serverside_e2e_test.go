package serverside_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/sharding"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{APIServerArgs: []string{"--feature-gates=ShardedListAndWatch=true"}}, &env))
}

const itemCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: items.serverside.kgen.dev
spec:
  group: serverside.kgen.dev
  scope: Namespaced
  names: {plural: items, singular: item, kind: Item, listKind: ItemList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

var (
	items      = schema.GroupVersionResource{Group: "serverside.kgen.dev", Version: "v1", Resource: "items"}
	configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

// TestCustomResourcesAreNotDetected pins what kube-apiserver 1.37.2 does with the gate on for custom
// resources, and for any metadata-only list: it filters by the shard selector but does not echo
// shardInfo, so a client cannot tell a filtered list from an ignored parameter and the probe says no.
func TestCustomResourcesAreNotDetected(t *testing.T) {
	ctx := context.Background()
	if err := env.InstallCRDs(ctx, []byte(itemCRD)); err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	supported, err := sharding.ServerShardingSupported(ctx, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return dyn.Resource(items).List(ctx, opts)
	})
	if err != nil {
		t.Fatal(err)
	}
	if supported {
		t.Error("custom resources now echo shardInfo: the server-side mode can be offered for them")
	}
	meta, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	supported, err = sharding.ServerShardingSupported(ctx, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return meta.Resource(configMaps).List(ctx, opts)
	})
	if err != nil {
		t.Fatal(err)
	}
	if supported {
		t.Error("metadata-only lists now echo shardInfo")
	}
}

// TestServerShardedListAndWatch lists and watches ConfigMaps, which the server shards and says so.
func TestServerShardedListAndWatch(t *testing.T) {
	ctx := context.Background()
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns := "serverside"
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	meta, err := metadata.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	client := meta.Resource(configMaps).Namespace(ns)
	create := func(first, n int) {
		var wg sync.WaitGroup
		for i := first; i < first+n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%04d", i)}}
				if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	create(0, 300)

	supported, err := sharding.ServerShardingSupported(ctx, func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return cs.CoreV1().ConfigMaps(ns).List(ctx, opts)
	})
	if err != nil || !supported {
		t.Fatalf("a server with ShardedListAndWatch on: supported = %v, %v", supported, err)
	}

	ring := sharding.NewRing([]string{"a", "b", "c"}, 8)
	seen := map[string]string{}
	for _, m := range ring.Members() {
		sel := sharding.ShardSelector(sharding.UIDField, ring.ServerRanges(m))
		list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{ShardSelector: sel})
		if err != nil {
			t.Fatal(err)
		}
		if list.ShardInfo == nil || list.ShardInfo.Selector == "" {
			t.Fatalf("%s: the list carries no shard info", m)
		}
		for _, o := range list.Items {
			if owner := ring.ServerOwner(sharding.ServerHash(string(o.UID))); owner != m {
				t.Errorf("%s was listed for %s but belongs to %s", o.Name, m, owner)
			}
			if prev, dup := seen[o.Name]; dup {
				t.Errorf("%s listed for %s and %s", o.Name, prev, m)
			}
			seen[o.Name] = m
		}
		t.Logf("member %s: %d ranges, %d of 300 items", m, len(ring.ServerRanges(m)), len(list.Items))
	}
	if len(seen) != 300 {
		t.Fatalf("the members' lists hold %d of 300 items", len(seen))
	}

	// A watch with a member's selector delivers only that member's new items.
	sel := sharding.ShardSelector(sharding.UIDField, ring.ServerRanges("a"))
	w, err := client.Watch(ctx, metav1.ListOptions{ShardSelector: sel, ResourceVersion: "0", AllowWatchBookmarks: false})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	create(300, 60)
	want := 0
	for _, o := range mustList(t, client).Items {
		if ring.ServerOwner(sharding.ServerHash(string(o.UID))) == "a" {
			want++
		}
	}
	got := 0
	timeout := time.After(30 * time.Second)
	for got < want {
		select {
		case ev := <-w.ResultChan():
			if ev.Type != watch.Added {
				continue
			}
			o := ev.Object.(*metav1.PartialObjectMetadata)
			if owner := ring.ServerOwner(sharding.ServerHash(string(o.UID))); owner != "a" {
				t.Fatalf("watch for a delivered %s, which belongs to %s", o.Name, owner)
			}
			got++
		case <-timeout:
			t.Fatalf("watch delivered %d of a's %d objects", got, want)
		}
	}
}

func mustList(t *testing.T, client metadata.ResourceInterface) *metav1.PartialObjectMetadataList {
	t.Helper()
	list, err := client.List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return list
}
