package dynamicinformer

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/dynamic"
)

// stubClient serves one widget per namespace it is asked for and records list options and namespaces.
type stubClient struct {
	mu         sync.Mutex
	lists      int
	namespaces []string
	selectors  []string
	watcher    *watch.FakeWatcher
	hang       bool // lists wait for their context to end
}

func (s *stubClient) Resource(gvr schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	return &stubResource{client: s}
}

type stubResource struct {
	dynamic.NamespaceableResourceInterface
	client    *stubClient
	namespace string
}

func (r *stubResource) Namespace(ns string) dynamic.ResourceInterface {
	return &stubResource{client: r.client, namespace: ns}
}

func (r *stubResource) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	if r.client.hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	r.client.mu.Lock()
	defer r.client.mu.Unlock()
	r.client.lists++
	r.client.namespaces = append(r.client.namespaces, r.namespace)
	r.client.selectors = append(r.client.selectors, opts.LabelSelector)
	w := &unstructured.Unstructured{}
	w.SetAPIVersion("example.com/v1")
	w.SetKind("Widget")
	w.SetNamespace(r.namespace)
	w.SetName("w1")
	w.SetResourceVersion("1")
	list := &unstructured.UnstructuredList{Items: []unstructured.Unstructured{*w}}
	list.SetResourceVersion("1")
	return list, nil
}

// Watch refuses streaming lists (as an old server would), so the reflector lists and then watches.
func (r *stubResource) Watch(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if opts.SendInitialEvents != nil {
		return nil, apierrors.NewBadRequest("streaming lists are not supported")
	}
	return r.client.watcher, nil
}

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func TestFactorySharesFiltersAndShutsDown(t *testing.T) {
	client := &stubClient{watcher: watch.NewFakeWithChanSize(10, false)}
	f := NewFilteredDynamicSharedInformerFactory(client, 0, "ns1", func(o *metav1.ListOptions) { o.LabelSelector = "app=x" })
	informer := f.ForResource(widgets)
	if f.ForResource(widgets) != informer {
		t.Fatal("ForResource must return the shared informer")
	}
	stop := make(chan struct{})
	f.Start(stop)
	f.Start(stop)
	if synced := f.WaitForCacheSync(stop); !synced[widgets] {
		t.Fatalf("not synced: %v", synced)
	}
	obj, err := informer.Lister().ByNamespace("ns1").Get("w1")
	if err != nil || obj.(*unstructured.Unstructured).GetName() != "w1" {
		t.Fatalf("lister: %v %v", obj, err)
	}
	added := &unstructured.Unstructured{}
	added.SetAPIVersion("example.com/v1")
	added.SetKind("Widget")
	added.SetNamespace("ns1")
	added.SetName("w2")
	added.SetResourceVersion("2")
	client.watcher.Add(added)
	deadline := time.Now().Add(10 * time.Second)
	for {
		all, _ := informer.Lister().List(labels.Everything())
		if len(all) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("watch event not cached, have %d objects", len(all))
		}
		time.Sleep(10 * time.Millisecond)
	}
	client.mu.Lock()
	if client.lists != 1 || client.namespaces[0] != "ns1" || client.selectors[0] != "app=x" {
		t.Fatalf("lists=%d namespaces=%v selectors=%v (started twice, or filters not applied)", client.lists, client.namespaces, client.selectors)
	}
	client.mu.Unlock()

	close(stop)
	done := make(chan struct{})
	go func() {
		f.Shutdown()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown did not return after stop")
	}
	if !informer.Informer().IsStopped() {
		t.Fatal("informer still running after Shutdown")
	}
	lateGVR := schema.GroupVersionResource{Resource: "late"}
	late := f.ForResource(lateGVR)
	f.Start(make(chan struct{}))
	// Start runs informers before it returns, and WaitForCacheSync reports every informer it ran.
	if _, started := f.WaitForCacheSync(stop)[lateGVR]; started {
		t.Fatal("Start after Shutdown ran an informer")
	}
	client.mu.Lock()
	defer client.mu.Unlock()
	if client.lists != 1 || late.Informer().HasSynced() {
		t.Fatal("Start after Shutdown must not run informers")
	}
}

// TestFactoryWithContext: StartWithContext runs informers until the context ends, and
// WaitForCacheSyncWithContext reports which synced and, when the context ended first, why.
func TestFactoryWithContext(t *testing.T) {
	client := &stubClient{watcher: watch.NewFakeWithChanSize(10, false)}
	f := NewDynamicSharedInformerFactory(client, 0)
	informer := f.ForResource(widgets).Informer()
	ctx, cancel := context.WithCancel(context.Background())
	f.StartWithContext(ctx)
	res := f.WaitForCacheSyncWithContext(ctx)
	if res.Err != nil || !res.Synced[widgets] || res.AsError() != nil {
		t.Fatalf("WaitForCacheSyncWithContext = %+v", res)
	}
	cancel()
	f.Shutdown()
	if !informer.IsStopped() {
		t.Fatal("informer still running after its context ended")
	}

	// An informer that never syncs: the result names it and carries the context's cause.
	never := NewSharedInformerFactoryFor(func(schema.GroupVersionResource) GenericInformer {
		return NewFilteredDynamicInformer(&stubClient{watcher: watch.NewFake(), hang: true}, widgets, "", 0, nil, nil)
	})
	never.ForResource(widgets)
	runCtx, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	never.StartWithContext(runCtx)
	cause := errors.New("gave up waiting")
	waitCtx, stopWait := context.WithCancelCause(context.Background())
	stopWait(cause)
	res = never.WaitForCacheSyncWithContext(waitCtx)
	stopRun()
	never.Shutdown()
	if !errors.Is(res.Err, cause) || res.Synced[widgets] {
		t.Fatalf("WaitForCacheSyncWithContext after the context ended = %+v", res)
	}
	if err := res.AsError(); !errors.Is(err, cause) || !strings.Contains(err.Error(), widgets.String()) {
		t.Fatalf("AsError = %v", err)
	}
}
