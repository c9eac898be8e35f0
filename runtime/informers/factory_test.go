package informers_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/informers"
	"github.com/kgen-dev/kgen/runtime/shardselector"
)

// podSource lists fixed pods and records the options of each call.
type podSource struct {
	pods  []corev1.Pod
	opts  chan metav1.ListOptions
	watch *watch.FakeWatcher
}

func newPodSource(pods ...corev1.Pod) *podSource {
	return &podSource{pods: pods, opts: make(chan metav1.ListOptions, 100), watch: watch.NewFake()}
}

func (s *podSource) list(ctx context.Context, opts metav1.ListOptions) (*corev1.PodList, error) {
	s.opts <- opts
	return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: s.pods}, nil
}

func (s *podSource) watchFn(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	s.opts <- opts
	return s.watch, nil
}

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// listWatchClient stands for a clientset that cannot serve streaming lists, like a fake one; informers
// built for it list and then watch.
type listWatchClient struct{}

func (listWatchClient) IsWatchListSemanticsUnSupported() bool { return true }

func pod(name string) corev1.Pod {
	return corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"a": "b"}}}
}

func TestFactorySharesAndStartsInformers(t *testing.T) {
	src := newPodSource(pod("p1"))
	var resyncs []time.Duration
	f := informers.NewFactory(time.Minute,
		informers.WithCustomResyncConfig(map[metav1.Object]time.Duration{&corev1.Pod{}: time.Hour}),
		informers.WithTransform(func(obj any) (any, error) {
			p := obj.(*corev1.Pod)
			p.Labels = nil
			return p, nil
		}),
		informers.WithNamespace("ns"),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "tweaked" }),
	)
	if f.Namespace() != "ns" || f.TweakListOptions() == nil {
		t.Fatalf("namespace %q tweak %v", f.Namespace(), f.TweakListOptions())
	}
	newInformer := func(resync time.Duration) cache.SharedIndexInformer {
		resyncs = append(resyncs, resync)
		return informers.NewTypedInformer(listWatchClient{}, &corev1.Pod{}, podsGVR,
			informers.InformerOptions{ResyncPeriod: resync, TweakListOptions: f.TweakListOptions()}, src.list, src.watchFn)
	}
	first := f.InformerFor(&corev1.Pod{}, newInformer)
	if second := f.InformerFor(&corev1.Pod{}, newInformer); second != first {
		t.Fatal("InformerFor created a second informer for the same type")
	}
	if len(resyncs) != 1 || resyncs[0] != time.Hour {
		t.Fatalf("resync periods = %v; want the custom hour once", resyncs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	f.Start(ctx.Done())
	f.StartWithContext(ctx) // idempotent
	synced := f.WaitForCacheSync(ctx.Done())
	if !reflect.DeepEqual(synced, map[reflect.Type]bool{reflect.TypeOf(&corev1.Pod{}): true}) {
		t.Fatalf("WaitForCacheSync = %v", synced)
	}
	if opts := <-src.opts; opts.LabelSelector != "tweaked" {
		t.Fatalf("list options %+v; want the tweak applied", opts)
	}
	obj, exists, err := first.GetIndexer().GetByKey("ns/p1")
	if err != nil || !exists || obj.(*corev1.Pod).Labels != nil {
		t.Fatalf("cached p1 = %v, %v, %v; want it transformed (labels stripped)", obj, exists, err)
	}
	cancel()
	f.Shutdown()
	f.Start(context.Background().Done()) // no-op after Shutdown
}

func TestWaitForCacheSyncWithContextReportsTimeout(t *testing.T) {
	f := informers.NewFactory(0)
	blocked := make(chan struct{})
	t.Cleanup(func() { close(blocked) })
	slowList := func(ctx context.Context, opts metav1.ListOptions) (*corev1.PodList, error) {
		select {
		case <-blocked:
		case <-ctx.Done():
		}
		return nil, ctx.Err()
	}
	f.InformerFor(&corev1.Pod{}, func(resync time.Duration) cache.SharedIndexInformer {
		return informers.NewTypedInformer(listWatchClient{}, &corev1.Pod{}, podsGVR, informers.InformerOptions{}, slowList, newPodSource().watchFn)
	})
	runCtx, stop := context.WithCancel(context.Background())
	defer func() { stop(); f.Shutdown() }()
	f.StartWithContext(runCtx)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res := f.WaitForCacheSyncWithContext(ctx)
	if res.Err == nil || res.AsError() == nil || res.Synced[reflect.TypeOf(&corev1.Pod{})] {
		t.Fatalf("result = %+v; want a timeout with the pod informer unsynced", res)
	}
}

func TestListWatchForAppliesTweak(t *testing.T) {
	src := newPodSource(pod("p1"))
	lw := informers.ListWatchFor(src.list, src.watchFn, func(o *metav1.ListOptions) { o.FieldSelector = "x=y" })
	if _, err := lw.ListWithContext(context.Background(), metav1.ListOptions{LabelSelector: "l"}); err != nil {
		t.Fatal(err)
	}
	if opts := <-src.opts; opts.FieldSelector != "x=y" || opts.LabelSelector != "l" {
		t.Fatalf("list options = %+v", opts)
	}
	if _, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if opts := <-src.opts; opts.FieldSelector != "x=y" {
		t.Fatalf("watch options = %+v", opts)
	}
	if _, err := informers.ListWatchFor(src.list, src.watchFn, nil).ListWithContext(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestShutdownStopsInformersWhoseStopChannelStaysOpen(t *testing.T) {
	src := newPodSource(pod("p1"))
	f := informers.NewFactory(0)
	informer := f.InformerFor(&corev1.Pod{}, func(resync time.Duration) cache.SharedIndexInformer {
		return informers.NewTypedInformer(listWatchClient{}, &corev1.Pod{}, podsGVR, informers.InformerOptions{}, src.list, src.watchFn)
	})
	f.Start(make(chan struct{})) // never closed
	f.WaitForCacheSync(make(chan struct{}))
	done := make(chan struct{})
	go func() {
		f.Shutdown()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown waited for a stop channel nobody closes")
	}
	if !informer.IsStopped() {
		t.Fatal("the informer still runs after Shutdown")
	}
}

func TestWithInformerNameNamesTheFactory(t *testing.T) {
	name, err := cache.NewInformerName("factory-test")
	if err != nil {
		t.Fatal(err)
	}
	defer name.Release()
	if f := informers.NewFactory(0, informers.WithInformerName(name)); f.InformerName() != name {
		t.Fatalf("InformerName = %v", f.InformerName())
	}
	if informers.NewFactory(0).InformerName() != nil {
		t.Fatal("a factory without a name has one")
	}
}

func managedPod(name string) corev1.Pod {
	p := pod(name)
	p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}, {Manager: "kubelet", Subresource: "status"}}
	return p
}

// A factory's informers drop managedFields unless the factory or the informer's own options keep them.
func TestFactoryManagedFields(t *testing.T) {
	cases := []struct {
		name          string
		factoryKeeps  bool
		informerKeeps bool
		want          int
	}{
		{"default", false, false, 0},
		{"factory keeps", true, false, 2},
		{"informer keeps", false, true, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := newPodSource(managedPod("p1"))
			f := informers.NewFactory(0, informers.WithKeepManagedFields(c.factoryKeeps))
			informer := f.InformerFor(&corev1.Pod{}, func(time.Duration) cache.SharedIndexInformer {
				return informers.NewTypedInformer(listWatchClient{}, &corev1.Pod{}, podsGVR,
					informers.InformerOptions{KeepManagedFields: c.informerKeeps}, src.list, src.watchFn)
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer func() { cancel(); f.Shutdown() }()
			f.StartWithContext(ctx)
			if res := f.WaitForCacheSyncWithContext(ctx); res.Err != nil {
				t.Fatal(res.Err)
			}
			obj, _, _ := informer.GetIndexer().GetByKey("ns/p1")
			if got := len(obj.(*corev1.Pod).ManagedFields); got != c.want {
				t.Errorf("cached with %d managedFields entries; want %d", got, c.want)
			}
		})
	}
}

// A factory's informers make equal parts of cached objects share one copy unless the factory or the
// informer's own options turn it off.
func TestFactorySharing(t *testing.T) {
	cases := []struct {
		name                          string
		factoryShares, informerShares bool
		wantShared                    bool
	}{
		{"default", true, true, true},
		{"factory does not share", false, true, false},
		{"informer does not share", true, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			labelled := func(name string) corev1.Pod {
				p := pod(name)
				p.Labels = map[string]string{"app": "web"}
				return p
			}
			src := newPodSource(labelled("p1"), labelled("p2"))
			f := informers.NewFactory(0, informers.WithDisableSharing(!c.factoryShares))
			informer := f.InformerFor(&corev1.Pod{}, func(time.Duration) cache.SharedIndexInformer {
				return informers.NewTypedInformer(listWatchClient{}, &corev1.Pod{}, podsGVR,
					informers.InformerOptions{DisableSharing: !c.informerShares}, src.list, src.watchFn)
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer func() { cancel(); f.Shutdown() }()
			f.StartWithContext(ctx)
			if res := f.WaitForCacheSyncWithContext(ctx); res.Err != nil {
				t.Fatal(res.Err)
			}
			p1, _, _ := informer.GetIndexer().GetByKey("ns/p1")
			p2, _, _ := informer.GetIndexer().GetByKey("ns/p2")
			l1, l2 := p1.(*corev1.Pod).Labels, p2.(*corev1.Pod).Labels
			if shared := reflect.ValueOf(l1).UnsafePointer() == reflect.ValueOf(l2).UnsafePointer(); shared != c.wantShared {
				t.Errorf("equal label maps shared %v; want %v", shared, c.wantShared)
			}
		})
	}
}

// WithShardSelector gives every informer of the factory the selector: its lists carry it, and it
// caches only the objects the selector selects, whether or not the source honoured it.
func TestFactoryWithShardSelector(t *testing.T) {
	pods := []corev1.Pod{pod("p0"), pod("p1"), pod("p2"), pod("p3")}
	for i := range pods {
		pods[i].Namespace = fmt.Sprintf("ns-%x", uint64(i)*0x9e3779b97f4a7c15)
	}
	sel, err := shardselector.NewShardRangeSelector(shardselector.NamespaceField, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range pods {
		if ok, _ := sel.Matches(&p); ok {
			want = append(want, p.Namespace+"/"+p.Name)
		}
	}
	if len(want) == 0 || len(want) == len(pods) {
		t.Fatalf("the shard holds %d of %d pods; the test needs both kinds", len(want), len(pods))
	}
	src := newPodSource(pods...)
	f := informers.NewFactory(0, informers.WithShardSelector(sel))
	informer := f.InformerFor(&corev1.Pod{}, func(time.Duration) cache.SharedIndexInformer {
		return informers.NewTypedInformer(listWatchClient{}, &corev1.Pod{}, podsGVR, informers.InformerOptions{}, src.list, src.watchFn)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); f.Shutdown() }()
	f.StartWithContext(ctx)
	if res := f.WaitForCacheSyncWithContext(ctx); res.Err != nil {
		t.Fatal(res.Err)
	}
	if opts := <-src.opts; opts.ShardSelector != sel.String() {
		t.Errorf("the list's shard selector is %q, want %q", opts.ShardSelector, sel.String())
	}
	got := informer.GetStore().ListKeys()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("cached %v, want the shard's %v", got, want)
	}
}
