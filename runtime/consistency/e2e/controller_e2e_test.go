package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/consistency/consistentread"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/dynamic/dynamicinformer"
)

// iterations is how many create-list, update-get and delete-get rounds each controller run makes.
const iterations = 1000

// staleReads counts the reads that acted on a cache older than the controller's own last write.
type staleReads struct {
	list   int // a List right after a create missed the created object
	get    int // a Get right after an update returned an older version
	delete int // a Get right after a delete still found the object
}

func (s staleReads) total() int { return s.list + s.get + s.delete }

// reads is how a controller run reads its cache: through the informer's plain lister or through a
// consistentread.Lister that waits for the run's writes.
type reads[T runtime.Object] struct {
	list func(ctx context.Context) ([]T, error)
	get  func(ctx context.Context, name string) (T, error)
}

// writes is what a controller run writes, through a typed or a dynamic client.
type writes struct {
	create func(ctx context.Context, name string) (rv string, err error)
	update func(ctx context.Context, name string, n int) (rv string, err error)
	delete func(ctx context.Context, name string) error
}

// runController creates an object and lists at once, updates an object and gets it at once, and
// deletes the object created in the round before and gets it at once, n times, and counts the
// reads that missed the write just made. A read that fails fails the test.
func runController[T runtime.Object](t *testing.T, ctx context.Context, n int, w writes, r reads[T], meta func(T) metav1.Object) staleReads {
	t.Helper()
	var stale staleReads
	if _, err := w.create(ctx, "counter"); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := fmt.Sprintf("object-%d", i)
		if _, err := w.create(ctx, name); err != nil {
			t.Fatal(err)
		}
		list, err := r.list(ctx)
		if err != nil {
			t.Fatalf("round %d: list: %v", i, err)
		}
		if !slices.ContainsFunc(list, func(o T) bool { return meta(o).GetName() == name }) {
			stale.list++
		}

		rv, err := w.update(ctx, "counter", i)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.get(ctx, "counter")
		if err != nil {
			t.Fatalf("round %d: get: %v", i, err)
		}
		if olderThan(meta(got).GetResourceVersion(), rv) {
			stale.get++
		}

		if i > 0 {
			previous := fmt.Sprintf("object-%d", i-1)
			if err := w.delete(ctx, previous); err != nil {
				t.Fatal(err)
			}
			switch _, err := r.get(ctx, previous); {
			case err == nil:
				stale.delete++
			case !apierrors.IsNotFound(err):
				t.Fatalf("round %d: get of a deleted object: %v", i, err)
			}
		}
	}
	return stale
}

// olderThan reports whether resourceVersion a is older than b (both integers, as the server's are).
func olderThan(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	return errA != nil || errB != nil || x < y
}

func typedWrites(client kubernetes.Interface, ns string) writes {
	cms := client.CoreV1().ConfigMaps(ns)
	return writes{
		create: func(ctx context.Context, name string) (string, error) {
			cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
			if err != nil {
				return "", err
			}
			return cm.ResourceVersion, nil
		},
		update: func(ctx context.Context, name string, n int) (string, error) {
			cm, err := cms.Update(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name},
				Data: map[string]string{"n": strconv.Itoa(n)}}, metav1.UpdateOptions{})
			if err != nil {
				return "", err
			}
			return cm.ResourceVersion, nil
		},
		delete: func(ctx context.Context, name string) error { return cms.Delete(ctx, name, metav1.DeleteOptions{}) },
	}
}

func TestControllerReadsItsWrites(t *testing.T) {
	client := kubernetes.NewForConfigOrDie(env.Config())
	for _, ryw := range []bool{false, true} {
		t.Run(fmt.Sprintf("read-your-writes=%v", ryw), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ns := namespace(t, client)
			factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
			configMapInformer := factory.Core().V1().ConfigMaps()
			informer := configMapInformer.Informer()
			factory.Start(ctx.Done())
			defer func() {
				cancel()
				factory.Shutdown()
			}()
			factory.WaitForCacheSync(ctx.Done())

			var r reads[*corev1.ConfigMap]
			if ryw {
				rec := consistency.NewRecorder()
				ctx = consistency.WithRecorder(ctx, rec)
				lister := consistentread.NewLister[*corev1.ConfigMap](consistentread.New(rec, configMaps, informer)).Namespace(ns)
				r.list = func(ctx context.Context) ([]*corev1.ConfigMap, error) { return lister.List(ctx, labels.Everything()) }
				r.get = lister.Get
			} else {
				lister := configMapInformer.Lister().ConfigMaps(ns)
				r.list = func(context.Context) ([]*corev1.ConfigMap, error) { return lister.List(labels.Everything()) }
				r.get = func(_ context.Context, name string) (*corev1.ConfigMap, error) { return lister.Get(name) }
			}
			start := time.Now()
			stale := runController(t, ctx, iterations, typedWrites(client, ns), r,
				func(cm *corev1.ConfigMap) metav1.Object { return cm })
			t.Logf("%d rounds in %s: stale reads after create/list %d, update/get %d, delete/get %d (of %d, %d, %d)",
				iterations, time.Since(start).Round(time.Millisecond), stale.list, stale.get, stale.delete,
				iterations, iterations, iterations-1)
			if ryw && stale.total() != 0 {
				t.Fatalf("with read-your-writes the controller read a stale cache %d times: %+v", stale.total(), stale)
			}
		})
	}
}

func TestDynamicControllerReadsItsWrites(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ns := namespace(t, kubernetes.NewForConfigOrDie(env.Config()))
	dyn := dynamic.NewForConfigOrDie(env.Config())
	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, ns, nil)
	informer := factory.ForResource(configMapsGVR).Informer()
	factory.Start(ctx.Done())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.WaitForCacheSync(ctx.Done())

	rec := consistency.NewRecorder()
	ctx = consistency.WithRecorder(ctx, rec)
	lister := consistentread.NewLister[*unstructured.Unstructured](consistentread.New(rec, configMaps, informer)).Namespace(ns)
	client := dyn.Resource(configMapsGVR).Namespace(ns)
	configMap := func(name string, data map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": data,
		}}
	}
	w := writes{
		create: func(ctx context.Context, name string) (string, error) {
			u, err := client.Create(ctx, configMap(name, nil), metav1.CreateOptions{})
			if err != nil {
				return "", err
			}
			return u.GetResourceVersion(), nil
		},
		update: func(ctx context.Context, name string, n int) (string, error) {
			u, err := client.Update(ctx, configMap(name, map[string]any{"n": strconv.Itoa(n)}), metav1.UpdateOptions{})
			if err != nil {
				return "", err
			}
			return u.GetResourceVersion(), nil
		},
		delete: func(ctx context.Context, name string) error { return client.Delete(ctx, name, metav1.DeleteOptions{}) },
	}
	r := reads[*unstructured.Unstructured]{
		list: func(ctx context.Context) ([]*unstructured.Unstructured, error) {
			return lister.List(ctx, labels.Everything())
		},
		get: lister.Get,
	}
	const rounds = 200
	stale := runController(t, ctx, rounds, w, r, func(u *unstructured.Unstructured) metav1.Object { return u })
	if stale.total() != 0 {
		t.Fatalf("with read-your-writes the dynamic controller read a stale cache %d times: %+v", stale.total(), stale)
	}
}
