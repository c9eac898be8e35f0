package informers_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/informers"
)

// newInformerFunc stands for a generated internalinterfaces.NewInformerFunc.
type newInformerFunc func(listWatchClient, time.Duration) cache.SharedIndexInformer

// clientFactory stands for a generated factory: it hands its clientset to the informers it builds.
type clientFactory struct{ *informers.Factory }

func (f clientFactory) InformerFor(obj runtime.Object, newFunc newInformerFunc) cache.SharedIndexInformer {
	return f.Factory.InformerFor(obj, func(resync time.Duration) cache.SharedIndexInformer { return newFunc(listWatchClient{}, resync) })
}

// podLister stands for a generated lister.
type podLister struct{ indexer cache.Indexer }

// podInformer stands for a generated <Type>Informer implementation without a typed view.
type podInformer struct{ informer cache.SharedIndexInformer }

func (p podInformer) Informer() cache.SharedIndexInformer { return p.informer }
func (p podInformer) Lister() podLister                   { return podLister{p.informer.GetIndexer()} }

// typedPodInformer has a typed view of its own.
type typedPodInformer struct {
	podInformer
	typed cache.TypedSharedIndexInformer[*corev1.Pod]
}

func (p typedPodInformer) TypedInformer() cache.TypedSharedIndexInformer[*corev1.Pod] { return p.typed }

func newPodInformer(resync time.Duration) cache.SharedIndexInformer {
	return cache.NewSharedIndexInformer(nil, &corev1.Pod{}, resync, cache.Indexers{})
}

func TestNewSharedBuildsTheFactorysInformerOnce(t *testing.T) {
	name, err := cache.NewInformerName("shared-test")
	if err != nil {
		t.Fatal(err)
	}
	defer name.Release()
	f := clientFactory{informers.NewFactory(time.Minute, informers.WithInformerName(name))}
	var built []informers.InformerOptions
	newInformer := func(client listWatchClient, options informers.InformerOptions) cache.TypedSharedIndexInformer[*corev1.Pod] {
		built = append(built, options)
		return informers.TypedView[*corev1.Pod](newPodInformer(options.ResyncPeriod))
	}
	tweak := func(o *metav1.ListOptions) { o.LabelSelector = "tweaked" }
	shared := informers.NewShared(f, &corev1.Pod{}, tweak, newInformer, func(i cache.Indexer) podLister { return podLister{i} },
		informers.TypedView[*corev1.Pod])

	informer := shared.Informer()
	if shared.Informer() != informer || len(built) != 1 {
		t.Fatalf("built %d informers; want the factory's one", len(built))
	}
	opts := built[0]
	var listOpts metav1.ListOptions
	opts.TweakListOptions(&listOpts)
	if opts.ResyncPeriod != time.Minute || opts.InformerName != name || listOpts.LabelSelector != "tweaked" {
		t.Fatalf("options = %+v (tweaked %+v); want the factory's resync and name and the tweak", opts, listOpts)
	}
	if _, ok := opts.Indexers[cache.NamespaceIndex]; !ok || len(opts.Indexers) != 1 {
		t.Fatalf("indexers = %v; want the namespace index", opts.Indexers)
	}
	if shared.Lister().indexer != informer.GetIndexer() {
		t.Fatal("the lister does not read the shared informer's cache")
	}
	if shared.TypedInformer() != informers.TypedView[*corev1.Pod](informer) {
		t.Fatal("TypedInformer is not the typed view of the shared informer")
	}
}

func TestInNamespaceBindsTheNamespace(t *testing.T) {
	newInformer := func(client listWatchClient, namespace string, options informers.InformerOptions) string {
		return namespace + "/" + options.ResyncPeriod.String()
	}
	if got := informers.InNamespace(newInformer, "ns")(listWatchClient{}, informers.InformerOptions{ResyncPeriod: time.Second}); got != "ns/1s" {
		t.Fatalf("bound constructor returned %q", got)
	}
}

func TestWithTypedViewPrefersTheInformersOwn(t *testing.T) {
	plain := podInformer{newPodInformer(0)}
	view := informers.WithTypedView(plain, informers.TypedView[*corev1.Pod])
	if view.Informer() != plain.informer || view.Lister() != plain.Lister() {
		t.Fatal("the view does not delegate to the informer")
	}
	if view.TypedInformer() != informers.TypedView[*corev1.Pod](plain.informer) {
		t.Fatal("the view of an untyped informer is not the typed view of its shared informer")
	}

	own := cache.NewTypedSharedIndexInformer[*corev1.Pod](newPodInformer(0))
	typed := typedPodInformer{podInformer: plain, typed: own}
	if got := informers.WithTypedView(typed, informers.TypedView[*corev1.Pod]).TypedInformer(); got != own {
		t.Fatal("the view of a typed informer is not its own typed view")
	}
}

func TestTypedViewWrapsOnlyUntypedInformers(t *testing.T) {
	plain := newPodInformer(0)
	typed := informers.TypedView[*corev1.Pod](plain)
	if typed == nil || typed.GetIndexer() != plain.GetIndexer() {
		t.Fatal("the typed view does not wrap the informer")
	}
	if again := informers.TypedView[*corev1.Pod](typed); again != typed {
		t.Fatal("a typed informer was wrapped again")
	}
}
