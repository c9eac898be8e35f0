package e2e_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/ptr"

	"github.com/kgen-dev/kgen/builtin/informers"
	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/builtin/kubernetes/scheme"
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
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, ns, "controller", cs.CoreV1(), cs.CoordinationV1(),
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

func TestHandWrittenExpansionsAgainstKubeAPIServer(t *testing.T) {
	ctx := context.Background()
	cs := kubernetes.NewForConfigOrDie(env.Config())
	ns := newNamespace(t, cs)
	pods := cs.CoreV1().Pods(ns)
	for _, name := range []string{"bound", "evicted-v1", "evicted-policy"} {
		if _, err := pods.Create(ctx, newPod(name), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	// Bind assigns a node, as a scheduler does.
	err := pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "bound"},
		Target: corev1.ObjectReference{Kind: "Node", Name: "node-1"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := pods.Get(ctx, "bound", metav1.GetOptions{}); err != nil || p.Spec.NodeName != "node-1" {
		t.Fatalf("bound pod: %v, %v", p.Spec.NodeName, err)
	}

	// Evictions delete unscheduled pods at once, through either client.
	if err := pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "evicted-v1", Namespace: ns}}); err != nil {
		t.Fatal(err)
	}
	if err := cs.PolicyV1().Evictions(ns).Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "evicted-policy", Namespace: ns}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"evicted-v1", "evicted-policy"} {
		if _, err := pods.Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Fatalf("evicted pod %s: %v", name, err)
		}
	}

	// Logs and proxies need a kubelet or endpoints this server lacks: the server's refusal shows the
	// requests reached the right subresources.
	if _, err := pods.GetLogs("bound", &corev1.PodLogOptions{Container: "c"}).DoRaw(ctx); err == nil || !strings.Contains(err.Error(), "node-1") {
		t.Fatalf("logs of a pod on a node without kubelet: %v", err)
	}
	if _, err := cs.CoreV1().Services(ns).ProxyGet("http", "missing", "80", "/healthz", nil).DoRaw(ctx); !apierrors.IsNotFound(err) {
		t.Fatalf("proxy to a missing service: %v", err)
	}

	// Node status patches.
	if _, err := cs.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	node, err := cs.CoreV1().Nodes().PatchStatus(ctx, "node-1", []byte(`{"status":{"capacity":{"pods":"10"}}}`))
	if err != nil || !node.Status.Capacity.Pods().Equal(resource.MustParse("10")) {
		t.Fatalf("patched node: %v, %v", node.Status.Capacity, err)
	}

	// Events in their own namespace, found again by Search.
	bound, err := pods.Get(ctx, "bound", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	event := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "bound.1", Namespace: ns},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: "bound", APIVersion: "v1", UID: bound.UID},
		Reason:         "Bound", Message: "bound to node-1", Type: corev1.EventTypeNormal}
	if _, err := cs.CoreV1().Events("").CreateWithEventNamespace(event); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Events("other").CreateWithEventNamespace(event); err == nil {
		t.Fatal("created an event outside the client's namespace")
	}
	found, err := cs.CoreV1().Events(ns).Search(scheme.Scheme, bound)
	if err != nil || len(found.Items) != 1 || found.Items[0].Reason != "Bound" {
		t.Fatalf("search: %+v, %v", found, err)
	}

	// A terminating namespace goes once its finalizers are cleared.
	if err := cs.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	terminating, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err != nil || len(terminating.Spec.Finalizers) == 0 {
		t.Fatalf("terminating namespace: %+v, %v", terminating, err)
	}
	terminating.Spec.Finalizers = nil
	if _, err := cs.CoreV1().Namespaces().Finalize(ctx, terminating, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the namespace is gone", func() bool {
		_, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}

func newPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
}
