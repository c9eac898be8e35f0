package app_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/sharding"
	"github.com/kgen-dev/kgen/testenv"

	stablev1 "example.com/crd/api/stable/v1"
	"example.com/crd/app"
	"example.com/crd/generated/clientset/versioned"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{CRDs: []any{"../config/crd"}, APIServerArgs: []string{"--feature-gates=ShardedListAndWatch=true"}}, &env))
}

// runReplicas runs two controller processes' worth of app.Run with --shard-ring and shardMode until
// the test ends.
func runReplicas(t *testing.T, ring, namespace, shardMode string) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	for _, id := range []string{"replica-a", "replica-b"} {
		go func() {
			done <- app.Run(ctx, env.Config(), app.Options{ShardRing: ring, ShardMode: shardMode, Identity: id, LeaderElectionNamespace: namespace})
		}()
	}
	t.Cleanup(func() {
		cancel()
		for range 2 {
			if err := <-done; err != nil {
				t.Error(err)
			}
		}
	})
}

// TestShardRing runs two replicas with --shard-ring: every CronTab gets its CronJob, both replicas
// take a share, and a CronJob lands on the replica of its CronTab.
func TestShardRing(t *testing.T) {
	ctx := context.Background()
	runReplicas(t, "crontabs", "default", "labels")
	crd, err := versioned.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	kube, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	for i := range n {
		tab := &stablev1.CronTab{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("tab-%02d", i), Namespace: "default"},
			Spec: stablev1.CronTabSpec{CronSpec: "*/5 * * * *", Image: "job:1"}}
		if _, err := crd.StableV1().CronTabs("default").Create(ctx, tab, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	label := sharding.ShardLabel("crontabs")
	deadline := time.Now().Add(time.Minute)
	for {
		owners := map[string]int{}
		ready := 0
		for i := range n {
			name := fmt.Sprintf("tab-%02d", i)
			tab, err := crd.StableV1().CronTabs("default").Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			job, err := kube.BatchV1().CronJobs("default").Get(ctx, name, metav1.GetOptions{})
			if err == nil && tab.Status.CronJobName == name && tab.Labels[label] != "" && job.Labels[label] == tab.Labels[label] {
				ready++
				owners[tab.Labels[label]]++
			}
		}
		if ready == n && len(owners) == 2 {
			t.Logf("CronTabs per replica: %v", owners)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d CronTabs reconciled with their CronJob on the same replica; per replica %v", ready, n, owners)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestShardRingServerSide runs two replicas with --shard-mode auto on a server with ShardedListAndWatch:
// they pick the server's sharding, split the hash space between them, and reconcile every CronTab
// without writing a shard label.
func TestShardRingServerSide(t *testing.T) {
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns := "server-side"
	if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crd, err := versioned.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	for i := range n { // before the replicas start, so that the probe has CronTabs to leave out
		tab := &stablev1.CronTab{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("tab-%02d", i), Namespace: ns},
			Spec: stablev1.CronTabSpec{CronSpec: "*/5 * * * *", Image: "job:1"}}
		if _, err := crd.StableV1().CronTabs(ns).Create(ctx, tab, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	runReplicas(t, "crontabs-server", ns, "auto")
	deadline := time.Now().Add(time.Minute)
	for {
		ready := 0
		for i := range n {
			name := fmt.Sprintf("tab-%02d", i)
			tab, err := crd.StableV1().CronTabs(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Labels) > 0 {
				t.Fatalf("the server-side mode labelled %s: %v", name, tab.Labels)
			}
			if _, err := kube.BatchV1().CronJobs(ns).Get(ctx, name, metav1.GetOptions{}); err == nil && tab.Status.CronJobName == name {
				ready++
			}
		}
		claims := map[string]string{}
		for _, id := range []string{"replica-a", "replica-b"} {
			if l, err := kube.CoordinationV1().Leases(ns).Get(ctx, "crontabs-server."+id, metav1.GetOptions{}); err == nil {
				claims[id] = l.Annotations[sharding.ClaimAnnotation]
			}
		}
		if ready == n && claims["replica-a"] == "replica-a,replica-b" && claims["replica-b"] == "replica-a,replica-b" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d CronTabs reconciled; claims %v", ready, n, claims)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
