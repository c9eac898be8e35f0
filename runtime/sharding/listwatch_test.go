package sharding

import (
	"context"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// selectorRecorder is a ListerWatcher of nothing that records the label selector of each request.
type selectorRecorder struct {
	mu        sync.Mutex
	selectors []string
}

func (s *selectorRecorder) informer() cache.SharedIndexInformer {
	record := func(opts metav1.ListOptions) {
		s.mu.Lock()
		s.selectors = append(s.selectors, opts.LabelSelector)
		s.mu.Unlock()
	}
	return cache.NewSharedIndexInformerWithOptions(&cache.ListWatch{
		ListWithContextFunc: func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			record(opts)
			return &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"resourceVersion": "1"}}}, nil
		},
		WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			record(opts)
			return watch.NewFake(), nil
		},
	}, &unstructured.Unstructured{}, cache.SharedIndexInformerOptions{DisableWatchList: true})
}

func (s *selectorRecorder) runUntilSynced(t *testing.T, inf cache.SharedIndexInformer) []string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("informer did not sync")
	}
	cancel()
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.selectors...)
}

// TestShardWiresInformers: Shard makes an informer of a sharded kind select this replica's share,
// and ShardControlled does the same for a controlled kind, except in ServerMode over UIDs, where
// controlled objects hash apart from their owners and their informer must see every object.
func TestShardWiresInformers(t *testing.T) {
	h := newHarness(t)
	r := h.replica("a")
	renew(r) // a label-mode informer lists once the replica is a member
	for _, shard := range []func(cache.SharedInformer) error{r.Shard, r.ShardControlled} {
		rec := &selectorRecorder{}
		inf := rec.informer()
		if err := shard(inf); err != nil {
			t.Fatal(err)
		}
		got := rec.runUntilSynced(t, inf)
		if len(got) == 0 || got[0] != r.LabelSelector() {
			t.Fatalf("label mode requests selected %q, want %q", got, r.LabelSelector())
		}
		if err := shard(inf); err == nil {
			t.Fatal("sharding a started informer was accepted")
		}
	}
	s := h.serverReplica("r", "a")
	rec := &selectorRecorder{}
	inf := rec.informer()
	if err := s.ShardControlled(inf); err != nil {
		t.Fatal(err)
	}
	if got := rec.runUntilSynced(t, inf); len(got) == 0 || got[0] != "" {
		t.Fatalf("controlled informer in ServerMode over UIDs selected %q, want everything", got)
	}
}

// TestLabelInformerWaitsForMembership: in LabelMode a list or watch waits while the replica is not a
// member, as after an API server outage longer than the renew deadline, and goes ahead the moment
// a renewal (re)joins the ring, not after the reflector's retry delay.
func TestLabelInformerWaitsForMembership(t *testing.T) {
	h := newHarness(t)
	r := h.replica("a")
	requests := make(chan string, 4)
	lw := r.ListerWatcher(&cache.ListWatch{
		ListWithContextFunc: func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			requests <- "list " + opts.LabelSelector
			return &unstructured.UnstructuredList{}, nil
		},
		WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			requests <- "watch " + opts.LabelSelector
			return watch.NewFake(), nil
		},
	}).(cache.ListerWatcherWithContext)
	done := make(chan error, 1)
	go func() {
		_, err := lw.ListWithContext(context.Background(), metav1.ListOptions{})
		done <- err
	}()
	renew(r)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := <-requests; got != "list "+r.LabelSelector() {
		t.Fatalf("request %q", got)
	}
	// Lapsed: a watch waits for the next successful renewal, and a cancelled one gives up.
	h.clock.Step(testRenew)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := lw.WatchWithContext(ctx, metav1.ListOptions{}); err != context.Canceled {
		t.Fatalf("a cancelled watch of a lapsed replica returned %v", err)
	}
	if len(requests) != 0 {
		t.Fatalf("a lapsed replica sent %q", <-requests)
	}
	go func() {
		w, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{})
		if err == nil {
			w.Stop()
		}
		done <- err
	}()
	renew(r)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := <-requests; got != "watch "+r.LabelSelector() {
		t.Fatalf("request %q", got)
	}
}
