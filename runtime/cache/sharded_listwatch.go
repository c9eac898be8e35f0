package cache

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/sharding"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/runtime/shardselector"
)

// NewShardedListWatch returns a ListerWatcher that lists and watches through lw only the objects
// selector selects, as client-go 1.38's does. It sends the selector as every request's
// ShardSelector (KEP-5866's sharded list and watch). A list response that echoes the selector in its
// shardInfo was filtered by the server; one without shardInfo (a server without the
// ShardedListAndWatch feature gate, or one that filters without saying so) is filtered here. Watch
// events carry no shard info, so every Added, Modified and Deleted event of an object outside the
// selector is dropped; bookmarks and errors pass. A nil or empty selector returns lw itself.
//
// A request whose options already hold another shard selector fails, as does a list whose shardInfo
// names another selector: the informer would otherwise cache a share it did not ask for.
func NewShardedListWatch(lw ListerWatcher, selector sharding.Selector) ListerWatcher {
	if selector == nil || selector.Empty() {
		return lw
	}
	return &shardedListWatch{inner: lw, lw: ToListerWatcherWithContext(lw), selector: selector, wire: selector.String()}
}

// shardedListWatch is NewShardedListWatch's ListerWatcher.
type shardedListWatch struct {
	inner    ListerWatcher // what was wrapped, asked whether it serves streaming lists
	lw       ListerWatcherWithContext
	selector sharding.Selector
	wire     string // selector.String(), the ShardSelector sent
	fallback sync.Once
}

var _ ListerWatcherWithContext = &shardedListWatch{}

// List lists the selected objects with a background context.
func (s *shardedListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), options)
}

// Watch watches the selected objects with a background context.
func (s *shardedListWatch) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), options)
}

// ListWithContext lists the selected objects, filtering the response unless the server says it did.
func (s *shardedListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	if err := s.setSelector(&options); err != nil {
		return nil, err
	}
	list, err := s.lw.ListWithContext(ctx, options)
	if err != nil || isNil(list) {
		return list, err
	}
	if applied, echoed := shardselector.Echoed(list); echoed {
		if applied != s.wire {
			return nil, fmt.Errorf("the server applied shard selector %q to the list, not the %q sent", applied, s.wire)
		}
		return list, nil
	}
	s.noteFallback(ctx)
	if err := s.filterList(list); err != nil {
		return nil, err
	}
	return list, nil
}

// WatchWithContext watches the selected objects, dropping events of any other.
func (s *shardedListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	if err := s.setSelector(&options); err != nil {
		return nil, err
	}
	w, err := s.lw.WatchWithContext(ctx, options)
	if err != nil {
		return nil, err
	}
	return newFilteredWatch(w, func(e watch.Event) bool {
		switch e.Type {
		case watch.Bookmark, watch.Error:
			return true
		}
		selected, err := s.selector.Matches(e.Object)
		if err != nil {
			utilruntime.HandleErrorWithContext(ctx, err, "Dropping a watch event the shard selector cannot place", "selector", s.wire)
			return false
		}
		if !selected {
			s.noteFallback(ctx)
		}
		return selected
	}), nil
}

// IsWatchListSemanticsUnSupported reports whether the wrapped ListerWatcher opted out of streaming
// lists.
func (s *shardedListWatch) IsWatchListSemanticsUnSupported() bool {
	return watchListUnsupported(s.inner)
}

// setSelector puts the selector into options, unless they hold another one.
func (s *shardedListWatch) setSelector(options *metav1.ListOptions) error {
	if options.ShardSelector != "" && options.ShardSelector != s.wire {
		return fmt.Errorf("the request's shard selector %q conflicts with the informer's %q", options.ShardSelector, s.wire)
	}
	options.ShardSelector = s.wire
	return nil
}

// filterList keeps the list's items the selector selects. The list's remaining item count, which
// counted unselected items too, is dropped.
func (s *shardedListWatch) filterList(list runtime.Object) error {
	items, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	kept := items[:0]
	for _, item := range items {
		selected, err := s.selector.Matches(item)
		if err != nil {
			return fmt.Errorf("placing a listed object by shard selector %q: %w", s.wire, err)
		}
		if selected {
			kept = append(kept, item)
		}
	}
	if listMeta, err := meta.ListAccessor(list); err == nil {
		listMeta.SetRemainingItemCount(nil)
	}
	if len(kept) == len(items) {
		return nil
	}
	return meta.SetList(list, kept)
}

// noteFallback logs, once, that the server left filtering to the client.
func (s *shardedListWatch) noteFallback(ctx context.Context) {
	s.fallback.Do(func() {
		klog.FromContext(ctx).V(2).Info("The server did not apply the shard selector; filtering on the client", "selector", s.wire)
	})
}

// filteredWatch passes on the events of a watch that keep accepts. Unlike apimachinery's
// watch.Filter, its goroutine ends when the watch is stopped even if nobody reads the event it holds.
type filteredWatch struct {
	in     watch.Interface
	result chan watch.Event
	done   chan struct{}
	stop   sync.Once
}

func newFilteredWatch(in watch.Interface, keep func(watch.Event) bool) *filteredWatch {
	w := &filteredWatch{in: in, result: make(chan watch.Event), done: make(chan struct{})}
	go w.forward(keep)
	return w
}

func (w *filteredWatch) forward(keep func(watch.Event) bool) {
	defer close(w.result)
	for {
		select {
		case <-w.done:
			return
		case e, ok := <-w.in.ResultChan():
			if !ok {
				return
			}
			if !keep(e) {
				continue
			}
			select {
			case w.result <- e:
			case <-w.done:
				return
			}
		}
	}
}

// ResultChan returns the kept events; it closes when the watch ends or is stopped.
func (w *filteredWatch) ResultChan() <-chan watch.Event { return w.result }

// Stop stops the underlying watch and the forwarding.
func (w *filteredWatch) Stop() {
	w.stop.Do(func() {
		close(w.done)
		w.in.Stop()
	})
}
