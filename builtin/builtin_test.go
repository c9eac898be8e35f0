package builtin_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/builtin/kubernetes/fake"
	"github.com/kgen-dev/kgen/runtime/leaderelection"
	"github.com/kgen-dev/kgen/runtime/leaderelection/resourcelock"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{}, &env))
}

// newNamespace creates a namespace of its own for one test.
func newNamespace(t *testing.T, cs kubernetes.Interface) string {
	t.Helper()
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "builtin-" + rand.String(6)}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// eventually polls cond until it holds; state, if given, describes what was seen instead.
func eventually(t *testing.T, what string, cond func() bool, state ...func() string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			for _, s := range state {
				what += ": " + s()
			}
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestClientsetListersAndInformersServeTheBuiltinAPI(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns := newNamespace(t, cs)
	configMaps := cs.CoreV1().ConfigMaps(ns)
	cm, err := configMaps.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"app": "x"}},
		Data:       map[string]string{"k": "v"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data["k"] = "w"
	if _, err := configMaps.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	list, err := configMaps.List(ctx, metav1.ListOptions{LabelSelector: "app=x"})
	if err != nil || len(list.Items) != 1 || list.Items[0].Data["k"] != "w" {
		t.Fatalf("list: %+v, %v", list, err)
	}
	deployment, err := cs.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "d"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "d"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "d"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil || deployment.Generation != 1 {
		t.Fatalf("deployment: %+v, %v", deployment, err)
	}

	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	configMapLister := factory.Core().V1().ConfigMaps().Lister()
	deploymentLister := factory.Apps().V1().Deployments().Lister()
	factory.Start(ctx.Done())
	defer func() { cancel(); factory.Shutdown() }()
	for typ, synced := range factory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			t.Fatalf("%v did not sync", typ)
		}
	}
	if d, err := deploymentLister.Deployments(ns).Get("d"); err != nil || d.UID != deployment.UID {
		t.Fatalf("deployment lister: %v, %v", d, err)
	}
	if _, err := configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := configMaps.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var names []string
	eventually(t, "the lister sees b and no longer a", func() bool {
		got, _ := configMapLister.ConfigMaps(ns).List(labels.Everything())
		names = names[:0]
		for _, c := range got {
			names = append(names, c.Name)
		}
		slices.Sort(names)
		// The namespace's kube-root-ca.crt ConfigMap is published by a controller this server does not run.
		return slices.Equal(names, []string{"b"})
	}, func() string { return fmt.Sprint("the lister holds ", names) })
	if _, err := configMapLister.ConfigMaps(ns).Get("a"); !apierrors.IsNotFound(err) {
		t.Fatalf("lister Get of a deleted ConfigMap: %v", err)
	}

	groups, err := cs.Discovery().ServerGroups()
	if err != nil || !slices.ContainsFunc(groups.Groups, func(g metav1.APIGroup) bool { return g.Name == "coordination.k8s.io" }) {
		t.Fatalf("discovery: %v, %v", groups, err)
	}
}

func TestLeaderElectionRunsOnTheBuiltinLeaseClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs := kubernetes.NewForConfigOrDie(env.Config())
	ns := newNamespace(t, cs)
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, ns, "controller", cs.CoordinationV1().Leases(ns),
		resourcelock.ResourceLockConfig{Identity: "replica-1"})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	go leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock, LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { close(started) },
			OnStoppedLeading: func() {},
		},
	})
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("did not start leading")
	}
	lease, err := cs.CoordinationV1().Leases(ns).Get(ctx, "controller", metav1.GetOptions{})
	if err != nil || *lease.Spec.HolderIdentity != "replica-1" {
		t.Fatalf("lease: %+v, %v", lease, err)
	}
}

func TestFakeClientsetFeedsInformers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs := fake.NewSimpleClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p1"}})
	factory := informers.NewSharedInformerFactory(cs, 0)
	pods := factory.Core().V1().Pods().Lister()
	factory.Start(ctx.Done())
	defer func() { cancel(); factory.Shutdown() }()
	factory.WaitForCacheSync(ctx.Done())
	if _, err := pods.Pods("ns").Get("p1"); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Pods("ns").Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p2"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lister sees p2", func() bool {
		_, err := pods.Pods("ns").Get("p2")
		return err == nil
	})
	resources, err := cs.Discovery().ServerResourcesForGroupVersion("v1")
	if err != nil || !slices.ContainsFunc(resources.APIResources, func(r metav1.APIResource) bool { return r.Name == "pods" }) {
		t.Fatalf("fake discovery: %v, %v", resources, err)
	}
}
