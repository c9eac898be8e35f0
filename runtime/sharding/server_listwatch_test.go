package sharding

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// uidOwnedBy returns a UID whose ServerHash p gives member.
func uidOwnedBy(t *testing.T, p *Partition, member string) types.UID {
	t.Helper()
	for i := range 10000 {
		if uid := fmt.Sprintf("uid-%d", i); p.Owner(ServerHash(uid)) == member {
			return types.UID(uid)
		}
	}
	t.Fatalf("no UID for %s", member)
	return ""
}

// TestServerListWatchDropsObjectsOutsideItsShare: in ServerMode, lists and watches send the
// replica's share as the shard selector; when the server ignores it, the objects outside the share
// are dropped and counted out, with one error logged, while an object without metadata is kept for
// the informer to report.
func TestServerListWatchDropsObjectsOutsideItsShare(t *testing.T) {
	var logMu sync.Mutex
	var errorLines []string
	klog.SetLogger(funcr.New(func(prefix, args string) {
		if strings.Contains(args, `"error"=`) {
			logMu.Lock()
			errorLines = append(errorLines, args)
			logMu.Unlock()
		}
	}, funcr.Options{}))
	defer klog.ClearLogger()

	h := newHarness(t)
	a := h.serverReplica("crontabs", "a")
	b := h.serverReplica("crontabs", "b")
	renew(a)
	renew(b)
	waitA, waitB := startAdopt(t, a), startAdopt(t, b)
	if err := waitA(); err != nil {
		t.Fatal(err)
	}
	if err := waitB(); err != nil {
		t.Fatal(err)
	}
	ranges, _ := claimsOf(a).share()
	both := NewPartition([]string{"a", "b"})
	if len(ranges) == 0 || ranges[0] != both.Ranges("a")[0] {
		t.Fatalf("a adopted %v, want its half of the partition of a and b", ranges)
	}
	mine, theirs := uidOwnedBy(t, both, "a"), uidOwnedBy(t, both, "b")
	object := func(uid types.UID) *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: string(uid), UID: uid}}
	}

	var selectors []string
	events := watch.NewFake()
	lw := a.ListerWatcher(&cache.ListWatch{
		ListWithContextFunc: func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			selectors = append(selectors, opts.ShardSelector)
			return &metav1.List{Items: []runtime.RawExtension{{Object: object(mine)}, {Object: object(theirs)}, {Object: &metav1.Status{}}}}, nil
		},
		WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			selectors = append(selectors, opts.ShardSelector)
			return events, nil
		},
	}).(cache.ListerWatcherWithContext)
	counted := func() int {
		o := &a.mode.(*serverMode).objects
		o.mu.Lock()
		defer o.mu.Unlock()
		total := 0
		for _, n := range o.byInformer {
			total += n
		}
		return total
	}

	list, err := lw.ListWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	items := list.(*metav1.List).Items
	if len(items) != 2 || items[0].Object.(*metav1.PartialObjectMetadata).UID != mine {
		t.Fatalf("the list kept %v, want the object in the share and the one without metadata", items)
	}
	if counted() != 2 {
		t.Fatalf("counted %d objects after the list, want 2", counted())
	}

	w, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		events.Add(object(theirs))
		events.Add(object(mine))
	}()
	if e := <-w.ResultChan(); e.Type != watch.Added || e.Object.(*metav1.PartialObjectMetadata).UID != mine {
		t.Fatalf("the watch passed %v %v, want the object in the share", e.Type, e.Object)
	}
	if counted() != 3 {
		t.Fatalf("counted %d objects after the watch added one, want 3", counted())
	}
	w.Stop()
	for range w.ResultChan() { // closed once the forwarding, which logs through klog, ended
	}

	want := ShardSelector(UIDField, ranges)
	if len(selectors) != 2 || selectors[0] != want || selectors[1] != want {
		t.Fatalf("requests selected %q, want %q", selectors, want)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if len(errorLines) != 1 || !strings.Contains(errorLines[0], "ignores the selector") {
		t.Fatalf("logged errors %q, want one saying the server ignores the selector", errorLines)
	}
}
