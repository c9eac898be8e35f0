package sharding

import (
	"context"
	"sync"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apisharding "k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/cache"
)

// serverListWatch lists and watches the ranges this replica adopted.
type serverListWatch struct {
	m  *serverMode
	lw cache.ListerWatcherWithContext

	mu     sync.Mutex
	listed <-chan struct{} // the change channel current when the last list was made
	warned atomic.Bool
}

// count adds delta to the objects this informer holds, or with reset, starts counting over.
func (s *serverListWatch) count(delta int, reset bool) {
	o := &s.m.objects
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byInformer == nil {
		o.byInformer = map[*serverListWatch]int{}
		o.gauge = s.m.r.cfg.Metrics.NewShardObjectsMetric(s.m.r.cfg.Ring, s.m.r.cfg.Identity)
	}
	if reset {
		o.byInformer[s] = 0
	}
	o.byInformer[s] += delta
	total := 0
	for _, n := range o.byInformer {
		total += n
	}
	o.gauge.Set(float64(total))
}

// List lists with a background context.
func (s *serverListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

// Watch watches with a background context.
func (s *serverListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

// ListWithContext lists this replica's share.
func (s *serverListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	ranges, changed, err := s.share(ctx)
	if err != nil {
		return nil, err
	}
	selector := rangeSelector(s.m.r.cfg.ServerField, ranges)
	opts.ShardSelector = selector.String()
	obj, err := s.lw.ListWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return nil, err
	}
	kept := items[:0]
	for _, item := range items {
		if s.inShare(item, selector) {
			kept = append(kept, item)
		}
	}
	if len(kept) != len(items) {
		if err := meta.SetList(obj, kept); err != nil {
			return nil, err
		}
	}
	if opts.Continue == "" {
		s.mu.Lock()
		s.listed = changed
		s.mu.Unlock()
	}
	s.count(len(kept), opts.Continue == "")
	return obj, nil
}

// WatchWithContext watches this replica's share until it changes.
func (s *serverListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	ranges, changed, err := s.share(ctx)
	if err != nil {
		return nil, err
	}
	streaming := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	s.mu.Lock()
	stale := !streaming && s.listed != changed
	if streaming {
		s.listed = changed
	}
	s.mu.Unlock()
	if streaming {
		s.count(0, true)
	}
	if stale {
		// The share changed since the informer listed: objects it gained exist already and would
		// never show up in a watch; make the informer list again.
		return nil, shareChanged()
	}
	selector := rangeSelector(s.m.r.cfg.ServerField, ranges)
	opts.ShardSelector = selector.String()
	w, err := s.lw.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	out := &shareWatch{result: make(chan watch.Event), done: make(chan struct{})}
	go out.forward(w, changed, func(e watch.Event) bool {
		switch e.Type {
		case watch.Added, watch.Modified, watch.Deleted:
			if !s.inShare(e.Object, selector) {
				return false
			}
		}
		switch e.Type {
		case watch.Added:
			s.count(1, false)
		case watch.Deleted:
			s.count(-1, false)
		}
		return true
	})
	return out, nil
}

// share waits until the replica is a member with an adopted share and returns its ranges. Waiting
// for membership makes the informer resume with the renewal that ends a lapse, as after the API
// server was unreachable, rather than after the reflector's retry delay.
func (s *serverListWatch) share(ctx context.Context) ([]HashRange, <-chan struct{}, error) {
	if err := s.m.r.member.waitMember(ctx); err != nil {
		return nil, nil, err
	}
	for {
		ranges, changed := s.m.claims.share()
		if ranges != nil {
			return ranges, changed, nil
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-changed:
		}
	}
}

// inShare reports whether selector selects obj, and logs once when it does not: the server ignored
// the shard selector.
func (s *serverListWatch) inShare(obj runtime.Object, selector apisharding.Selector) bool {
	selected, err := selector.Matches(obj)
	if err != nil || selected {
		return true // an object without metadata is the informer's to report
	}
	if !s.warned.Swap(true) {
		o, _ := meta.Accessor(obj) // Matches read it
		klog.Background().Error(nil, "sharding: the API server sent an object outside this replica's shard selector; it ignores the selector (is the ShardedListAndWatch feature gate on?), so every replica receives every object; dropping those outside the share",
			"ring", s.m.r.cfg.Ring, "identity", s.m.r.cfg.Identity, "object", klog.KObj(o))
	}
	return false
}

// shareChanged is the error ending a watch whose share changed: an expired watch, which informers
// answer with an immediate relist.
func shareChanged() error {
	return apierrors.NewResourceExpired("sharding: this replica's share of the hash space changed")
}

// shareWatch forwards a watch until its share changes, then reports it expired.
type shareWatch struct {
	result chan watch.Event
	done   chan struct{}
	once   sync.Once
}

func (w *shareWatch) forward(in watch.Interface, changed <-chan struct{}, keep func(watch.Event) bool) {
	defer close(w.result)
	defer in.Stop()
	send := func(e watch.Event) bool {
		select {
		case w.result <- e:
			return true
		case <-w.done:
			return false
		}
	}
	for {
		select {
		case <-w.done:
			return
		case <-changed:
			status := shareChanged().(apierrors.APIStatus).Status()
			send(watch.Event{Type: watch.Error, Object: &status})
			return
		case e, ok := <-in.ResultChan():
			if !ok {
				return
			}
			if keep(e) && !send(e) {
				return
			}
		}
	}
}

// Stop ends the watch.
func (w *shareWatch) Stop() { w.once.Do(func() { close(w.done) }) }

// ResultChan returns the watch's events.
func (w *shareWatch) ResultChan() <-chan watch.Event { return w.result }
