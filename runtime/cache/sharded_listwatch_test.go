package cache

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/runtime/shardselector"
)

// uidShards returns the selectors of n shards by UID.
func uidShards(t *testing.T, n int) []sharding.Selector {
	t.Helper()
	out := make([]sharding.Selector, n)
	for i := range n {
		sel, err := shardselector.NewShardRangeSelector(shardselector.UIDField, i, n)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = sel
	}
	return out
}

// uidConfigMaps returns n ConfigMaps with random-looking UIDs, the same on every call. (FNV-1a's high
// bits, which place an object, hardly depend on a string's last bytes: UIDs "uid-0" to "uid-89" all
// fall in one third of the hash space.)
func uidConfigMaps(n int) []corev1.ConfigMap {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]corev1.ConfigMap, n)
	for i := range out {
		uid := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.Uint32()>>16, r.Uint32()>>20, r.Uint32()>>20, r.Uint64()>>16)
		out[i] = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("cm-%d", i), UID: types.UID(uid)}}
	}
	return out
}

// listServer answers lists with items, echoing the request's shard selector as shardInfo when echo is
// set, and records the requests.
type listServer struct {
	items []corev1.ConfigMap
	echo  func(requested string) *metav1.ShardInfo

	mu       sync.Mutex
	requests []metav1.ListOptions
}

func (s *listServer) listWatch() *ListWatch {
	return &ListWatch{ListFunc: func(opts metav1.ListOptions) (runtime.Object, error) {
		s.mu.Lock()
		s.requests = append(s.requests, opts)
		s.mu.Unlock()
		list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: "7", RemainingItemCount: ptr.To[int64](0)}, Items: slices.Clone(s.items)}
		if s.echo != nil {
			list.ShardInfo = s.echo(opts.ShardSelector)
		}
		return list, nil
	}}
}

func names(t *testing.T, obj runtime.Object) []string {
	t.Helper()
	var out []string
	switch l := obj.(type) {
	case *corev1.ConfigMapList:
		for _, cm := range l.Items {
			out = append(out, cm.Name)
		}
	case *unstructured.UnstructuredList:
		for _, u := range l.Items {
			out = append(out, u.GetName())
		}
	default:
		t.Fatalf("unexpected list %T", obj)
	}
	return out
}

func TestNewShardedListWatchWithoutSelectorIsTheListWatch(t *testing.T) {
	lw := (&listServer{}).listWatch()
	for _, sel := range []sharding.Selector{nil, sharding.Everything(), sharding.NewSelector()} {
		if got := NewShardedListWatch(lw, sel); got != lw {
			t.Errorf("NewShardedListWatch(lw, %v) = %T, want lw itself", sel, got)
		}
	}
}

// Without shardInfo in the response, each shard's list keeps exactly its objects: the shards' lists
// partition the collection. The request carried the selector; the remaining item count, which the
// filtered list no longer matches, is dropped.
func TestShardedListFiltersWhenTheServerDoesNotEcho(t *testing.T) {
	server := &listServer{items: uidConfigMaps(90)}
	seen := map[string]int{}
	for i, sel := range uidShards(t, 3) {
		list, err := NewShardedListWatch(server.listWatch(), sel).List(metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			t.Fatal(err)
		}
		if got := server.requests[len(server.requests)-1]; got.ShardSelector != sel.String() || got.ResourceVersion != "0" {
			t.Errorf("shard %d: the request's options are %+v, want the shard selector %q added", i, got, sel.String())
		}
		if rc := list.(*corev1.ConfigMapList).RemainingItemCount; rc != nil {
			t.Errorf("shard %d: remaining item count %d kept", i, *rc)
		}
		for _, cm := range list.(*corev1.ConfigMapList).Items {
			if ok, _ := sel.Matches(&cm); !ok {
				t.Errorf("shard %d kept %s, outside its selector", i, cm.Name)
			}
			seen[cm.Name]++
		}
		if n := len(list.(*corev1.ConfigMapList).Items); n == 0 || n == 90 {
			t.Errorf("shard %d: %d of 90 objects; the test needs objects in every shard", i, n)
		}
	}
	for _, cm := range server.items {
		if seen[cm.Name] != 1 {
			t.Errorf("%s is in %d shards' lists", cm.Name, seen[cm.Name])
		}
	}
}

// A list whose shardInfo echoes the selector was filtered by the server and is taken as it is; one
// naming another selector is an error.
func TestShardedListTrustsTheEchoedSelector(t *testing.T) {
	sel := uidShards(t, 2)[0]
	server := &listServer{items: uidConfigMaps(20), echo: func(requested string) *metav1.ShardInfo {
		return &metav1.ShardInfo{Selector: requested}
	}}
	list, err := NewShardedListWatch(server.listWatch(), sel).List(metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(names(t, list)); got != 20 {
		t.Errorf("an echoed list was filtered again: %d of 20 items kept", got)
	}
	server.echo = func(string) *metav1.ShardInfo { return &metav1.ShardInfo{Selector: uidShards(t, 2)[1].String()} }
	if _, err := NewShardedListWatch(server.listWatch(), sel).List(metav1.ListOptions{}); err == nil || !strings.Contains(err.Error(), "applied shard selector") {
		t.Errorf("a list filtered by another selector: err %v", err)
	}
}

// A request that carries another shard selector already fails rather than caching a mixed share.
func TestShardedListWatchRefusesAConflictingSelector(t *testing.T) {
	shards := uidShards(t, 2)
	lw := NewShardedListWatch((&listServer{}).listWatch(), shards[0])
	if _, err := lw.List(metav1.ListOptions{ShardSelector: shards[1].String()}); err == nil {
		t.Error("a list with another shard selector succeeded")
	}
	if _, err := lw.Watch(metav1.ListOptions{ShardSelector: shards[1].String()}); err == nil {
		t.Error("a watch with another shard selector succeeded")
	}
	if _, err := lw.List(metav1.ListOptions{ShardSelector: shards[0].String()}); err != nil {
		t.Errorf("a list with the same shard selector: %v", err)
	}
}

// Unstructured lists (dynamic clients) carry shardInfo as metadata.shardInfo; without it they are
// filtered too.
func TestShardedListOfUnstructured(t *testing.T) {
	sel := uidShards(t, 2)[1]
	var echo bool
	lw := &ListWatch{ListFunc: func(opts metav1.ListOptions) (runtime.Object, error) {
		list := &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"resourceVersion": "3"}}}
		if echo {
			list.Object["metadata"].(map[string]any)["shardInfo"] = map[string]any{"selector": opts.ShardSelector}
		}
		for _, cm := range uidConfigMaps(40) {
			u := unstructured.Unstructured{}
			u.SetName(cm.Name)
			u.SetNamespace(cm.Namespace)
			u.SetUID(cm.UID)
			list.Items = append(list.Items, u)
		}
		return list, nil
	}}
	sharded := NewShardedListWatch(lw, sel)
	list, err := sharded.List(metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kept := names(t, list)
	for _, u := range list.(*unstructured.UnstructuredList).Items {
		if ok, _ := sel.Matches(&u); !ok {
			t.Errorf("kept %s, outside the selector", u.GetName())
		}
	}
	if len(kept) == 0 || len(kept) == 40 {
		t.Fatalf("kept %d of 40 unstructured items", len(kept))
	}
	echo = true
	if list, err = sharded.List(metav1.ListOptions{}); err != nil || len(names(t, list)) != 40 {
		t.Errorf("an echoed unstructured list: %v, %d of 40 items kept", err, len(names(t, list)))
	}
}

// Watch events of objects outside the selector are dropped, in order; bookmarks and errors pass, and
// an event the selector cannot place (no metadata) is dropped without ending the watch.
func TestShardedWatchDropsOtherShardsEvents(t *testing.T) {
	sel := uidShards(t, 2)[0]
	fake := watch.NewFakeWithChanSize(100, false)
	var requested metav1.ListOptions
	lw := NewShardedListWatch(&ListWatch{WatchFunc: func(opts metav1.ListOptions) (watch.Interface, error) {
		requested = opts
		return fake, nil
	}}, sel)
	w, err := lw.Watch(metav1.ListOptions{ResourceVersion: "5", AllowWatchBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if requested.ShardSelector != sel.String() || !requested.AllowWatchBookmarks {
		t.Errorf("the watch request's options are %+v", requested)
	}
	var want []string
	for i, cm := range uidConfigMaps(30) {
		fake.Add(&cm)
		if ok, _ := sel.Matches(&cm); ok {
			want = append(want, "ADDED "+cm.Name)
		}
		if i == 10 {
			fake.Action(watch.Bookmark, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "11"}})
			want = append(want, "BOOKMARK ")
			fake.Add(&metav1.Status{Message: "not an object with metadata"})
		}
	}
	fake.Error(&metav1.Status{Message: "gone"})
	want = append(want, "ERROR ")
	fake.Stop()
	var got []string
	for e := range w.ResultChan() {
		name := ""
		if cm, ok := e.Object.(*corev1.ConfigMap); ok {
			name = cm.Name
		}
		got = append(got, string(e.Type)+" "+name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n%v\nwant\n%v", got, want)
	}
}

// The wrapper keeps the wrapped ListerWatcher's opt-out of streaming lists.
func TestShardedListWatchKeepsWatchListSemantics(t *testing.T) {
	sel := uidShards(t, 2)[0]
	for _, client := range []any{nil, optOutClient{}} {
		lw := ToListWatcherWithWatchListSemantics(&ListWatch{}, client)
		if got, want := watchListUnsupported(NewShardedListWatch(lw, sel)), client != nil; got != want {
			t.Errorf("client %T: watch-list unsupported %v, want %v", client, got, want)
		}
	}
}

// nsShards returns the selectors of n shards by namespace.
func nsShards(t *testing.T, n int) []sharding.Selector {
	t.Helper()
	out := make([]sharding.Selector, n)
	for i := range n {
		sel, err := shardselector.NewShardRangeSelector(shardselector.NamespaceField, i, n)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = sel
	}
	return out
}

// recordingSource records the shard selectors of the requests reaching the source.
type recordingSource struct {
	*source
	mu        sync.Mutex
	selectors map[string]bool
}

func (r *recordingSource) note(opts metav1.ListOptions) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.selectors[opts.ShardSelector] = true
}

func (r *recordingSource) List(opts metav1.ListOptions) (runtime.Object, error) {
	r.note(opts)
	return r.source.List(opts)
}

func (r *recordingSource) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	r.note(opts)
	return r.source.Watch(opts)
}

// Informers with a shard selector (set as an option or with SetShardSelector, listing or streaming)
// over a source that ignores it cache exactly their shares, before and after changes.
func TestInformerCachesItsShard(t *testing.T) {
	checkLeaks(t)
	for _, streaming := range []bool{false, true} {
		t.Run(fmt.Sprintf("streaming=%v", streaming), func(t *testing.T) {
			src := newSource()
			defer src.stopAll()
			rec := &recordingSource{source: src, selectors: map[string]bool{}}
			namespaces := make([]string, 12)
			for i := range namespaces {
				namespaces[i] = fmt.Sprintf("%x-ns", i*0x9e3779b9)
			}
			for i := range 60 {
				src.apply(watch.Added, namespaces[i%12], fmt.Sprintf("cm-%d", i), "0")
			}
			shards := nsShards(t, 3)
			informers := make([]SharedIndexInformer, len(shards))
			for i, sel := range shards {
				options := SharedIndexInformerOptions{DisableWatchList: !streaming, Backoff: fastBackoff}
				if i == 0 {
					options.ShardSelector = sel
				}
				informers[i] = NewSharedIndexInformerWithOptions(rec, &corev1.ConfigMap{}, options)
				if i > 0 {
					if err := informers[i].SetShardSelector(sel); err != nil {
						t.Fatal(err)
					}
				}
				startInformer(t, informers[i])
			}
			check := func(total int) {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for {
					n := 0
					for _, inf := range informers {
						n += len(inf.GetStore().List())
					}
					if n == total || time.Now().After(deadline) {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
				for i, inf := range informers {
					src.mu.Lock()
					var want []string
					for key, obj := range src.objects {
						if ok, _ := shards[i].Matches(obj); ok {
							want = append(want, key)
						}
					}
					src.mu.Unlock()
					got := inf.GetStore().ListKeys()
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Errorf("shard %d caches %v, want %v", i, got, want)
					}
					if len(want) == 0 || len(want) == total {
						t.Errorf("shard %d holds %d of %d objects; the test needs objects in every shard", i, len(want), total)
					}
				}
			}
			check(60)
			for i := 60; i < 90; i++ {
				src.apply(watch.Added, namespaces[i%12], fmt.Sprintf("cm-%d", i), "0")
			}
			for i := range 15 {
				src.apply(watch.Deleted, namespaces[i%12], fmt.Sprintf("cm-%d", i), "")
			}
			check(75)
			rec.mu.Lock()
			defer rec.mu.Unlock()
			for _, sel := range shards {
				if !rec.selectors[sel.String()] {
					t.Errorf("no request carried %s", sel)
				}
			}
			if rec.selectors[""] {
				t.Error("a request carried no shard selector")
			}
		})
	}
}

func TestSetShardSelectorOnlyBeforeRun(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	informer := newTestInformer(src, 0)
	if err := informer.SetShardSelector(nsShards(t, 2)[0]); err != nil {
		t.Fatal(err)
	}
	startInformer(t, informer)
	eventually(t, "sync", informer.HasSynced)
	if err := informer.SetShardSelector(nsShards(t, 2)[1]); err == nil {
		t.Error("SetShardSelector succeeded after Run")
	}
}

// Stopping a sharded watch ends its goroutine although an event waits to be read.
func TestShardedWatchStopsWithAnUnreadEvent(t *testing.T) {
	checkLeaks(t)
	fake := watch.NewFakeWithChanSize(10, false)
	w, err := NewShardedListWatch(&ListWatch{WatchFunc: func(metav1.ListOptions) (watch.Interface, error) {
		return fake, nil
	}}, uidShards(t, 1)[0]).Watch(metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range uidConfigMaps(3) {
		fake.Add(&cm)
	}
	w.Stop()
	w.Stop()
}
