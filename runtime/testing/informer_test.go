package testing_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/cache"
	ktesting "github.com/kgen-dev/kgen/runtime/testing"
)

// optOut is a client that declines streaming lists, as client-go's fakes do.
type optOut struct{}

func (optOut) IsWatchListSemanticsUnSupported() bool { return true }

func configMapListWatch(c *client) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return c.Invokes(ktesting.NewListActionWithOptions(cmResource, cmKind, "", opts), &corev1.ConfigMapList{})
		},
		WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return c.InvokesWatch(ktesting.NewWatchActionWithOptions(cmResource, "", opts))
		},
	}
}

func TestInformerSyncsAndFollowsChanges(t *testing.T) {
	for name, lw := range map[string]func(*client) cache.ListerWatcher{
		"streaming list": func(c *client) cache.ListerWatcher { return configMapListWatch(c) },
		"list and watch": func(c *client) cache.ListerWatcher {
			return cache.ToListWatcherWithWatchListSemantics(configMapListWatch(c), optOut{})
		},
	} {
		streaming := name == "streaming list"
		t.Run(name, func(t *testing.T) {
			var seed []runtime.Object
			for i := 0; i < 50; i++ {
				seed = append(seed, cm("ns", fmt.Sprintf("seed-%02d", i), nil))
			}
			c := newClient(t, seed...)
			inf := cache.NewSharedIndexInformer(lw(c), &corev1.ConfigMap{}, 0, cache.Indexers{})
			var mu sync.Mutex
			adds, updates, deletes := map[string]bool{}, 0, 0
			_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc: func(obj any) {
					mu.Lock()
					defer mu.Unlock()
					adds[obj.(*corev1.ConfigMap).Name] = true
				},
				UpdateFunc: func(_, _ any) { mu.Lock(); updates++; mu.Unlock() },
				DeleteFunc: func(any) { mu.Lock(); deletes++; mu.Unlock() },
			})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()

			// Writers race the informer's start: nothing may be lost.
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					if _, err := c.createCM(cm("ns", fmt.Sprintf("live-%02d", i), nil)); err != nil {
						t.Error(err)
					}
				}
			}()
			go inf.RunWithContext(ctx)
			syncCtx, syncCancel := context.WithTimeout(ctx, 10*time.Second)
			defer syncCancel()
			if !cache.WaitForCacheSync(syncCtx.Done(), inf.HasSynced) {
				t.Fatal("informer did not sync")
			}
			wg.Wait()
			var first ktesting.Action
			for _, a := range c.Actions() {
				if a.GetVerb() == "list" || a.GetVerb() == "watch" {
					first = a
					break
				}
			}
			if wa, ok := first.(ktesting.WatchActionImpl); streaming != (ok && wa.ListOptions.SendInitialEvents != nil && *wa.ListOptions.SendInitialEvents) {
				t.Fatalf("first request %#v does not match the mode", first)
			}

			upd := must[*corev1.ConfigMap](t)(c.getCM("ns", "seed-00"))
			upd.Data = map[string]string{"k": "v"}
			must[*corev1.ConfigMap](t)(c.updateCM(upd))
			if err := c.deleteCM("ns", "seed-01", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}

			deadline := time.Now().Add(10 * time.Second)
			for {
				mu.Lock()
				done := len(adds) == 100 && updates >= 1 && deletes == 1
				got := fmt.Sprintf("adds=%d updates=%d deletes=%d", len(adds), updates, deletes)
				mu.Unlock()
				if done {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("informer missed events: %s", got)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if n := len(inf.GetStore().List()); n != 99 {
				t.Fatalf("store has %d objects, want 99", n)
			}
			item, exists, err := inf.GetStore().GetByKey("ns/seed-00")
			if err != nil || !exists || item.(*corev1.ConfigMap).Data["k"] != "v" {
				t.Fatalf("store copy of seed-00: %v %v %v", item, exists, err)
			}
		})
	}
}
