package e2e_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, testenv.Options{}, &env)) }

func configMapListWatch(client *rest.RESTClient, namespace string) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			list := &corev1.ConfigMapList{}
			err := client.Get().Namespace(namespace).Resource("configmaps").VersionedParams(&options, metav1.ParameterCodec).Do(ctx).Into(list)
			return list, err
		},
		WatchFuncWithContext: func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
			options.Watch = true
			return client.Get().Namespace(namespace).Resource("configmaps").VersionedParams(&options, metav1.ParameterCodec).Watch(ctx)
		},
	}
}

// e2eModel tracks what a handler was told: the objects it holds, every object it was ever given, and
// every deletion it saw.
type e2eModel struct {
	mu       sync.Mutex
	objects  map[string]string
	seen     map[string]bool
	deleted  map[string]bool
	problems []string
}

func (m *e2eModel) OnAdd(obj any, _ bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cm := obj.(*corev1.ConfigMap)
	if _, ok := m.objects[cm.Name]; ok {
		m.problems = append(m.problems, "duplicate add "+cm.Name)
	}
	m.objects[cm.Name] = cm.ResourceVersion
	m.seen[cm.Name] = true
}

func (m *e2eModel) OnUpdate(oldObj, newObj any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cm := newObj.(*corev1.ConfigMap)
	if m.objects[cm.Name] != oldObj.(*corev1.ConfigMap).ResourceVersion {
		m.problems = append(m.problems, "update from an unseen state "+cm.Name)
	}
	m.objects[cm.Name] = cm.ResourceVersion
}

func (m *e2eModel) OnDelete(obj any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	_, name, _ := cache.SplitMetaNamespaceKey(key)
	if _, ok := m.objects[name]; !ok {
		m.problems = append(m.problems, "delete of an unseen object "+name)
	}
	delete(m.objects, name)
	m.deleted[name] = true
}

// retry repeats op until it succeeds, treating the given error as success; the API server may be
// restarting.
func retry(ctx context.Context, op func() error, ok func(error) bool) error {
	for {
		err := op()
		if err == nil || ok(err) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func TestInformerAgainstAPIServer(t *testing.T) {
	for _, mode := range []struct {
		name             string
		disableWatchList bool
	}{{"streaming list", false}, {"list and watch", true}} {
		t.Run(mode.name, func(t *testing.T) { runAPIServerConvergence(t, mode.disableWatchList) })
	}
}

func runAPIServerConvergence(t *testing.T, disableWatchList bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	client := coreClient(t, "")
	namespace := "cache-e2e-" + strconv.FormatBool(disableWatchList)
	never := func(error) bool { return false }
	if err := retry(ctx, func() error {
		return client.Post().Resource("namespaces").Body(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}).Do(ctx).Error()
	}, apierrors.IsAlreadyExists); err != nil {
		t.Fatal(err)
	}

	informer := cache.NewSharedIndexInformerWithOptions(configMapListWatch(client, namespace), &corev1.ConfigMap{}, cache.SharedIndexInformerOptions{
		DisableWatchList: disableWatchList,
		Indexers:         cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
	})
	model := &e2eModel{objects: map[string]string{}, seen: map[string]bool{}, deleted: map[string]bool{}}
	if _, err := informer.AddEventHandler(model); err != nil {
		t.Fatal(err)
	}
	runCtx, stopInformer := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(runCtx)
	}()
	defer func() {
		stopInformer()
		<-done
	}()
	if !cache.WaitFor(ctx, "", informer.HasSyncedChecker()) {
		t.Fatal("informer did not sync")
	}

	const total = 1000
	names := make(chan int)
	var wg sync.WaitGroup
	var restartOnce sync.Once
	var restartErr error
	var progress sync.WaitGroup
	progress.Add(1)
	for range 8 {
		wg.Go(func() {
			for i := range names {
				name := "cm-" + strconv.Itoa(i)
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace}, Data: map[string]string{"v": "0"}}
				if err := retry(ctx, func() error {
					return client.Post().Namespace(namespace).Resource("configmaps").Body(cm).Do(ctx).Error()
				}, apierrors.IsAlreadyExists); err != nil {
					t.Error(err)
					return
				}
				if i%2 == 0 {
					cm.Data["v"] = "1"
					if err := retry(ctx, func() error {
						return client.Put().Namespace(namespace).Resource("configmaps").Name(name).Body(cm).Do(ctx).Error()
					}, never); err != nil {
						t.Error(err)
						return
					}
				}
				if i%3 == 0 {
					if err := retry(ctx, func() error {
						return client.Delete().Namespace(namespace).Resource("configmaps").Name(name).Do(ctx).Error()
					}, apierrors.IsNotFound); err != nil {
						t.Error(err)
						return
					}
				}
				if i == total/3 {
					progress.Done()
				}
			}
		})
	}
	// Restart the API server while the writers are busy.
	restarted := make(chan struct{})
	go func() {
		defer close(restarted)
		progress.Wait()
		restartOnce.Do(func() { restartErr = env.Restart(ctx) })
	}()
	for i := range total {
		names <- i
	}
	close(names)
	wg.Wait()
	<-restarted
	if restartErr != nil {
		t.Fatalf("restart: %v", restartErr)
	}

	// The server's final state is the truth.
	want := map[string]string{}
	list := &corev1.ConfigMapList{}
	if err := retry(ctx, func() error {
		return client.Get().Namespace(namespace).Resource("configmaps").Do(ctx).Into(list)
	}, never); err != nil {
		t.Fatal(err)
	}
	for _, cm := range list.Items {
		if cm.Name != "kube-root-ca.crt" {
			want[cm.Name] = cm.ResourceVersion
		}
	}
	if len(want) != total-(total+2)/3 {
		t.Fatalf("server holds %d ConfigMaps, want %d", len(want), total-(total+2)/3)
	}
	var lastDiff string
	converged := func() bool {
		got := map[string]string{}
		for _, obj := range informer.GetStore().List() {
			cm := obj.(*corev1.ConfigMap)
			if cm.Name != "kube-root-ca.crt" {
				got[cm.Name] = cm.ResourceVersion
			}
		}
		model.mu.Lock()
		defer model.mu.Unlock()
		for name, rv := range want {
			if got[name] != rv || model.objects[name] != rv {
				lastDiff = fmt.Sprintf("%s: server rv %s, cache %q, handler %q", name, rv, got[name], model.objects[name])
				return false
			}
		}
		// An object created and deleted while the watch was down is never seen; every object that was
		// seen and then deleted must be reported deleted.
		for i := 0; i < total; i += 3 {
			name := "cm-" + strconv.Itoa(i)
			if _, ok := got[name]; ok || (model.seen[name] && !model.deleted[name]) {
				lastDiff = fmt.Sprintf("%s: deleted on the server, cached %v, handler saw the delete %v", name, ok, model.deleted[name])
				return false
			}
		}
		return len(got) == len(want)
	}
	deadline := time.Now().Add(90 * time.Second)
	for !converged() {
		if time.Now().After(deadline) {
			t.Fatalf("cache did not converge: %s", lastDiff)
		}
		time.Sleep(50 * time.Millisecond)
	}
	model.mu.Lock()
	defer model.mu.Unlock()
	if len(model.problems) > 0 {
		t.Errorf("handler saw an inconsistent history: %v", model.problems[:min(5, len(model.problems))])
	}
}
