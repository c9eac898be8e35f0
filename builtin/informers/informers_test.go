package informers_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kgen-dev/kgen/builtin/informers"
	informersappsv1 "github.com/kgen-dev/kgen/builtin/informers/apps/v1"
	informerscorev1 "github.com/kgen-dev/kgen/builtin/informers/core/v1"
	"github.com/kgen-dev/kgen/builtin/informers/internalinterfaces"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	listersappsv1 "github.com/kgen-dev/kgen/builtin/listers/apps/v1"
	"github.com/kgen-dev/kgen/runtime/cache"
)

func deployment(namespace, name string) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: map[string]string{"app": name}}}
}

// TestFactoryInformersShareOneInformer checks a generated per-type informer of a factory: its informer,
// typed view and lister are one shared informer built with the factory's namespace, tweak and the
// namespace index.
func TestFactoryInformersShareOneInformer(t *testing.T) {
	cs := fake.NewSimpleClientset(deployment("a", "d1"), deployment("b", "d2"), deployment("a", "other"))
	factory := informers.NewSharedInformerFactoryWithOptions(cs, time.Hour, informers.WithNamespace("a"),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "app=d1" }))
	deployments := factory.Apps().V1().Deployments()
	informer := deployments.Informer()
	if factory.Apps().V1().Deployments().Informer() != informer {
		t.Fatal("the factory built a second deployment informer")
	}
	if cache.SharedIndexInformer(deployments.TypedInformer()) != informer {
		t.Fatal("TypedInformer is not the shared informer's typed view")
	}
	if _, ok := informer.GetIndexer().GetIndexers()[cache.NamespaceIndex]; !ok {
		t.Fatal("the factory's informer has no namespace index")
	}

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer func() { cancel(); factory.Shutdown() }()
	factory.WaitForCacheSync(ctx.Done())

	got, err := deployments.Lister().List(labels.Everything())
	if err != nil || len(got) != 1 || got[0].Name != "d1" {
		t.Fatalf("lister lists %v, %v; want only d1 (namespace a, tweaked selector)", got, err)
	}
	typed, err := deployments.TypedInformer().GetTypedIndexer().ByTypedIndex(cache.NamespaceIndex, "a")
	if err != nil || len(typed) != 1 || typed[0].Name != "d1" {
		t.Fatalf("typed indexer gives %v, %v; want d1", typed, err)
	}
}

// TestClusterScopedFactoryInformerIgnoresTheNamespace checks the factory informer of a cluster-scoped type.
func TestClusterScopedFactoryInformerIgnoresTheNamespace(t *testing.T) {
	cs := fake.NewSimpleClientset(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "b"}})
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("a"))
	namespaces := factory.Core().V1().Namespaces().Lister()
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer func() { cancel(); factory.Shutdown() }()
	factory.WaitForCacheSync(ctx.Done())
	if got, err := namespaces.List(labels.Everything()); err != nil || len(got) != 2 {
		t.Fatalf("namespaces = %v, %v; want both", got, err)
	}
}

// untypedDeployments is a DeploymentInformer without a typed view.
type untypedDeployments struct{ informer cache.SharedIndexInformer }

func (u untypedDeployments) Informer() cache.SharedIndexInformer { return u.informer }
func (u untypedDeployments) Lister() listersappsv1.DeploymentLister {
	return listersappsv1.NewDeploymentLister(u.informer.GetIndexer())
}

func TestTypedViewsOfStandaloneInformers(t *testing.T) {
	cs := fake.NewSimpleClientset()
	plain := informersappsv1.NewDeploymentInformer(cs, "a", 0, cache.Indexers{})
	typed := informersappsv1.ToDeploymentIndexInformer(plain)
	if cache.SharedIndexInformer(typed) != plain {
		t.Fatal("ToDeploymentIndexInformer wrapped an informer that is typed already")
	}
	viaTyped := informersappsv1.NewTypedDeploymentInformer(cs, "a", 0, informersappsv1.DeploymentIndexers{})
	if viaTyped.GetIndexer() == nil {
		t.Fatal("NewTypedDeploymentInformer built no cache")
	}

	factory := informers.NewSharedInformerFactory(cs, 0)
	shared := factory.Apps().V1().Deployments()
	var asUntyped informersappsv1.DeploymentInformer = shared
	view := informersappsv1.ToTypedDeploymentInformer(asUntyped)
	if view.Informer() != shared.Informer() || cache.SharedIndexInformer(view.TypedInformer()) != shared.Informer() {
		t.Fatal("ToTypedDeploymentInformer does not view the same shared informer")
	}

	untyped := untypedDeployments{plain}
	view = informersappsv1.ToTypedDeploymentInformer(untyped)
	if view.Informer() != plain || cache.SharedIndexInformer(view.TypedInformer()) != plain {
		t.Fatal("the typed view of an untyped informer is not its shared informer's")
	}
	if _, err := view.Lister().Deployments("a").Get("nope"); err == nil {
		t.Fatal("the view's lister found a deployment in an empty cache")
	}
}

// TestFactoryOptionsAndCustomInformers checks the generated options configure the factory they return
// (resync per type, transform, informer name) and that informers users write themselves go through
// InformerFor as internalinterfaces.NewInformerFunc values or plain functions.
func TestFactoryOptionsAndCustomInformers(t *testing.T) {
	name, err := cache.NewInformerName("builtin-informers-options-test")
	if err != nil {
		t.Fatal(err)
	}
	defer name.Release()
	cs := fake.NewSimpleClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "c", Annotations: map[string]string{"big": "x"}}})
	factory := informers.NewSharedInformerFactoryWithOptions(cs, time.Hour,
		informers.WithCustomResyncConfig(map[metav1.Object]time.Duration{&corev1.ConfigMap{}: time.Minute}),
		informers.WithTransform(func(obj any) (any, error) {
			if cm, ok := obj.(*corev1.ConfigMap); ok {
				cm.Annotations = nil
			}
			return obj, nil
		}),
		informers.WithInformerName(name))
	if factory.InformerName() != name {
		t.Errorf("InformerName() = %v; want the WithInformerName name", factory.InformerName())
	}

	resyncs := map[string]time.Duration{}
	var newConfigMaps internalinterfaces.NewInformerFunc = func(client kubernetes.Interface, resync time.Duration) cache.SharedIndexInformer {
		resyncs["configmaps"] = resync
		return informerscorev1.NewConfigMapInformer(client, "a", resync, cache.Indexers{})
	}
	newSecrets := func(client kubernetes.Interface, resync time.Duration) cache.SharedIndexInformer {
		resyncs["secrets"] = resync
		return informerscorev1.NewSecretInformer(client, "a", resync, cache.Indexers{})
	}
	configMaps := factory.InformerFor(&corev1.ConfigMap{}, newConfigMaps)
	factory.InformerFor(&corev1.Secret{}, newSecrets)
	if factory.InformerFor(&corev1.ConfigMap{}, newConfigMaps) != configMaps {
		t.Fatal("InformerFor built a second config map informer")
	}
	if resyncs["configmaps"] != time.Minute || resyncs["secrets"] != time.Hour || len(resyncs) != 2 {
		t.Errorf("informers built with resync periods %v; want configmaps 1m (custom), secrets 1h (default)", resyncs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer func() { cancel(); factory.Shutdown() }()
	factory.WaitForCacheSync(ctx.Done())
	cached, ok, err := configMaps.GetIndexer().GetByKey("a/c")
	if err != nil || !ok || cached.(*corev1.ConfigMap).Annotations != nil {
		t.Errorf("cached config map %v, %v, %v; want it transformed (no annotations)", cached, ok, err)
	}
}
