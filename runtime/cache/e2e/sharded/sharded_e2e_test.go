package sharded_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/dynamic/dynamicinformer"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/metadata/metadatainformer"
	"github.com/kgen-dev/kgen/runtime/shardselector"
	"github.com/kgen-dev/kgen/testenv"
)

// gateOn runs with the ShardedListAndWatch feature gate, which kube-apiserver 1.37 keeps off by
// default.
var gateOn *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{APIServerArgs: []string{"--feature-gates=ShardedListAndWatch=true"}}, &gateOn))
}

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

const shards = 3

// With the gate the server filters lists and watches: no informer receives another shard's object.
func TestShardSelectorWithTheGate(t *testing.T) {
	for _, w := range runShards(t, gateOn) {
		if w.foreign > 0 {
			t.Errorf("%s: the server sent %d objects of other shards", w.name, w.foreign)
		}
	}
}

// Without the gate the server ignores the selector and sends every object; the informers filter.
func TestShardSelectorWithoutTheGate(t *testing.T) {
	env, err := testenv.Start(context.Background(), testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Error(err)
		}
	})
	for _, w := range runShards(t, env) {
		if w.foreign == 0 {
			t.Errorf("%s: the server sent no object of another shard; it filtered without the gate", w.name)
		}
		if w.echoed {
			t.Errorf("%s: a list echoed shardInfo without the gate", w.name)
		}
	}
}

// runShards creates ConfigMaps, runs a typed, a dynamic and a metadata factory's informer and a
// list-and-watch informer for each of the shards, changes the objects and checks that each informer
// caches exactly its shard's objects, before and after the changes. It returns what the server sent
// each informer.
func runShards(t *testing.T, env *testenv.Environment) []*wire {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := env.Config()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	md, err := metadata.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ns := "sharded"
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	create := func(first, n int) {
		t.Helper()
		parallel(t, first, n, func(i int) error {
			_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%03d", i)}}, metav1.CreateOptions{})
			return err
		})
	}
	create(0, 150)

	type shardInformer struct {
		shard    int
		informer cache.SharedIndexInformer
		wire     *wire
	}
	var all []shardInformer
	var factories []interface {
		Start(<-chan struct{})
		Shutdown()
	}
	for i := range shards {
		sel, err := shardselector.NewShardRangeSelector(shardselector.UIDField, i, shards)
		if err != nil {
			t.Fatal(err)
		}
		typed := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns), informers.WithShardSelector(sel))
		dynFactory := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(dyn, 0, dynamicinformer.WithNamespace(ns), dynamicinformer.WithShardSelector(sel))
		metaFactory := metadatainformer.NewSharedInformerFactoryWithOptions(md, 0, metadatainformer.WithNamespace(ns), metadatainformer.WithShardSelector(sel))
		listed := cache.NewSharedIndexInformerWithOptions(&cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				return cs.CoreV1().ConfigMaps(ns).List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				return cs.CoreV1().ConfigMaps(ns).Watch(ctx, opts)
			},
		}, &corev1.ConfigMap{}, cache.SharedIndexInformerOptions{ShardSelector: sel, DisableWatchList: true})
		for name, informer := range map[string]cache.SharedIndexInformer{
			"typed factory":    typed.Core().V1().ConfigMaps().Informer(),
			"dynamic factory":  dynFactory.ForResource(configMaps).Informer(),
			"metadata factory": metaFactory.ForResource(configMaps).Informer(),
			"list and watch":   listed,
		} {
			w := &wire{name: fmt.Sprintf("shard %d, %s", i, name), shard: sel}
			if err := informer.WrapListerWatcher(w.observe); err != nil {
				t.Fatal(err)
			}
			all = append(all, shardInformer{i, informer, w})
		}
		factories = append(factories, typed, dynFactory, metaFactory)
		go listed.RunWithContext(ctx)
	}
	for _, f := range factories {
		f.Start(ctx.Done())
	}
	defer func() {
		cancel() // the dynamic and metadata factories' Shutdown waits for their stop channel
		for _, f := range factories {
			f.Shutdown()
		}
	}()

	// converged waits until every informer caches exactly its shard of what the server holds.
	converged := func(stage string) {
		t.Helper()
		list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := make([][]string, shards)
		for i := range shards {
			sel, _ := shardselector.NewShardRangeSelector(shardselector.UIDField, i, shards)
			for _, cm := range list.Items {
				if ok, _ := sel.Matches(&cm); ok {
					want[i] = append(want[i], ns+"/"+cm.Name)
				}
			}
			slices.Sort(want[i])
		}
		deadline := time.Now().Add(time.Minute)
		for _, s := range all {
			for {
				got := s.informer.GetStore().ListKeys()
				slices.Sort(got)
				if slices.Equal(got, want[s.shard]) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: %s: caches %d objects %v, its shard is %d objects %v", stage, s.wire.name, len(got), got, len(want[s.shard]), want[s.shard])
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		t.Logf("%s: shards of %d, %d and %d of %d ConfigMaps cached", stage, len(want[0]), len(want[1]), len(want[2]), len(list.Items))
	}
	converged("after the initial list")
	create(150, 60)
	parallel(t, 0, 30, func(i int) error {
		return cs.CoreV1().ConfigMaps(ns).Delete(ctx, fmt.Sprintf("cm-%03d", i*3), metav1.DeleteOptions{})
	})
	converged("after 60 creations and 30 deletions")

	out := make([]*wire, 0, len(all))
	for _, s := range all {
		s.wire.mu.Lock()
		t.Logf("%s: the server sent %d objects, %d of other shards; lists echoed shardInfo: %v", s.wire.name, s.wire.sent, s.wire.foreign, s.wire.echoed)
		s.wire.mu.Unlock()
		out = append(out, s.wire)
	}
	return out
}

// parallel runs do(i) for i in [first, first+n) on eight goroutines.
func parallel(t *testing.T, first, n int, do func(i int) error) {
	t.Helper()
	next := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range next {
				if err := do(i); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for i := first; i < first+n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// wire counts what the server sends an informer, below its shard selector's filtering: objects
// listed or watched, those of other shards, and whether a list echoed shardInfo.
type wire struct {
	name  string
	shard sharding.Selector

	mu            sync.Mutex
	sent, foreign int
	echoed        bool
}

func (w *wire) note(obj runtime.Object) {
	ok, err := w.shard.Matches(obj)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent++
	if err != nil || !ok {
		w.foreign++
	}
}

// observe wraps an informer's ListerWatcher to count what passes through it.
func (w *wire) observe(lw cache.ListerWatcher) cache.ListerWatcher {
	inner := cache.ToListerWatcherWithContext(lw)
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			list, err := inner.ListWithContext(ctx, opts)
			if err != nil {
				return nil, err
			}
			if l, ok := list.(metav1.ListMetaAccessor); ok && l.GetListMeta() != nil {
				if sharded, ok := l.GetListMeta().(metav1.ShardedListInterface); ok && sharded.GetShardInfo() != nil {
					w.mu.Lock()
					w.echoed = true
					w.mu.Unlock()
				}
			}
			return list, meta.EachListItem(list, func(obj runtime.Object) error {
				w.note(obj)
				return nil
			})
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			in, err := inner.WatchWithContext(ctx, opts)
			if err != nil {
				return nil, err
			}
			out := &countingWatch{in: in, result: make(chan watch.Event), done: make(chan struct{})}
			go out.forward(w)
			return out, nil
		},
	}
}

// countingWatch passes a watch's events on, counting the objects of additions, updates and
// deletions.
type countingWatch struct {
	in     watch.Interface
	result chan watch.Event
	done   chan struct{}
	once   sync.Once
}

func (c *countingWatch) forward(w *wire) {
	defer close(c.result)
	for {
		select {
		case <-c.done:
			return
		case e, ok := <-c.in.ResultChan():
			if !ok {
				return
			}
			switch e.Type {
			case watch.Added, watch.Modified, watch.Deleted:
				w.note(e.Object)
			}
			select {
			case c.result <- e:
			case <-c.done:
				return
			}
		}
	}
}

func (c *countingWatch) ResultChan() <-chan watch.Event { return c.result }

func (c *countingWatch) Stop() {
	c.once.Do(func() {
		close(c.done)
		c.in.Stop()
	})
}
