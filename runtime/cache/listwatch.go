package cache

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// Lister lists a collection of objects.
type Lister interface {
	// List returns a list object (for example *v1.PodList) for the options.
	List(options metav1.ListOptions) (runtime.Object, error)
}

// ListerWithContext is a Lister whose calls honour a context.
type ListerWithContext interface {
	ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)
}

// Watcher starts watches on a collection.
type Watcher interface {
	// Watch starts a watch for the options.
	Watch(options metav1.ListOptions) (watch.Interface, error)
}

// WatcherWithContext is a Watcher whose calls honour a context.
type WatcherWithContext interface {
	WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
}

// ListerWatcher lists and watches one collection: what a Reflector consumes.
type ListerWatcher interface {
	Lister
	Watcher
}

// ListerWatcherWithContext is a ListerWatcher whose calls honour a context.
type ListerWatcherWithContext interface {
	ListerWithContext
	WatcherWithContext
}

// ToListerWatcherWithContext returns lw itself when it already takes contexts, or an adapter that
// ignores them.
func ToListerWatcherWithContext(lw ListerWatcher) ListerWatcherWithContext {
	if c, ok := lw.(ListerWatcherWithContext); ok {
		return c
	}
	return contextIgnoringListerWatcher{lw}
}

type contextIgnoringListerWatcher struct{ lw ListerWatcher }

func (c contextIgnoringListerWatcher) ListWithContext(_ context.Context, o metav1.ListOptions) (runtime.Object, error) {
	return c.lw.List(o)
}

func (c contextIgnoringListerWatcher) WatchWithContext(_ context.Context, o metav1.ListOptions) (watch.Interface, error) {
	return c.lw.Watch(o)
}

// ListFunc lists a collection.
type ListFunc func(options metav1.ListOptions) (runtime.Object, error)

// ListWithContextFunc lists a collection, honouring ctx.
type ListWithContextFunc func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)

// WatchFunc watches a collection.
type WatchFunc func(options metav1.ListOptions) (watch.Interface, error)

// WatchFuncWithContext watches a collection, honouring ctx.
type WatchFuncWithContext func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)

// ListWatch is a ListerWatcher made of functions. The context-taking functions win when both kinds
// are set.
type ListWatch struct {
	ListFunc             ListFunc
	WatchFunc            WatchFunc
	ListWithContextFunc  ListWithContextFunc
	WatchFuncWithContext WatchFuncWithContext
	// DisableChunking makes reflectors list in one request instead of pages.
	DisableChunking bool
}

var errNoListFunc = errors.New("ListWatch has no list function")
var errNoWatchFunc = errors.New("ListWatch has no watch function")

// List lists with a background context.
func (lw *ListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), options)
}

// ListWithContext lists, honouring ctx.
func (lw *ListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	switch {
	case lw.ListWithContextFunc != nil:
		return lw.ListWithContextFunc(ctx, options)
	case lw.ListFunc != nil:
		return lw.ListFunc(options)
	}
	return nil, errNoListFunc
}

// Watch watches with a background context.
func (lw *ListWatch) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), options)
}

// WatchWithContext watches, honouring ctx.
func (lw *ListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	switch {
	case lw.WatchFuncWithContext != nil:
		return lw.WatchFuncWithContext(ctx, options)
	case lw.WatchFunc != nil:
		return lw.WatchFunc(options)
	}
	return nil, errNoWatchFunc
}

// watchListSemanticsOptOut is implemented by ListerWatchers (and clients, typically fakes) that cannot
// serve streaming lists.
type watchListSemanticsOptOut interface {
	IsWatchListSemanticsUnSupported() bool
}

// ToListWatcherWithWatchListSemantics wraps lw so that reflectors know whether client (for example a
// fake clientset) opted out of streaming lists through IsWatchListSemanticsUnSupported.
func ToListWatcherWithWatchListSemantics(lw *ListWatch, client any) ListerWatcher {
	optOut, ok := client.(watchListSemanticsOptOut)
	return &semanticsListWatch{ListWatch: lw, unsupported: ok && optOut.IsWatchListSemanticsUnSupported()}
}

type semanticsListWatch struct {
	*ListWatch
	unsupported bool
}

// IsWatchListSemanticsUnSupported reports whether the wrapped client opted out of streaming lists.
func (lw *semanticsListWatch) IsWatchListSemanticsUnSupported() bool { return lw.unsupported }

// watchListUnsupported reports whether lw opted out of streaming lists.
func watchListUnsupported(lw any) bool {
	optOut, ok := lw.(watchListSemanticsOptOut)
	return ok && optOut.IsWatchListSemanticsUnSupported()
}
