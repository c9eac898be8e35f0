package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/kubeconfig"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/sharding"
	"github.com/kgen-dev/kgen/runtime/workqueue"
	"github.com/kgen-dev/kgen/testenv"
)

// shardReplicaEnv carries, to a copy of this test binary, the replica it runs for
// BenchmarkShardedReplicaHeap (see TestMain).
const shardReplicaEnv = "KGEN_BENCH_SHARD_REPLICA"

// shardReplicaSpec is the replica a child process runs; an empty Ring means one unsharded replica
// caching every object, as a leader-elected controller does.
type shardReplicaSpec struct {
	Kubeconfig, Namespace, Ring, Identity string
	ServerSide                            bool // the ring uses sharding.ServerMode
}

// shardReplicaReport is what a replica process measured of itself.
type shardReplicaReport struct {
	Identity    string `json:"-"`
	Coordinator bool   `json:"-"` // held the ring's coordinator Lease when synced
	Cached      int
	// PeakHeap is the highest size of the Go heap's objects, sampled every 5 ms from start to report.
	PeakHeap uint64
	// LiveHeap is the heap's objects after a forced collection once synced: the cache and the
	// controller's and ring's state.
	LiveHeap uint64
	// PeakRSSKB is the process's VmHWM: since it is read for the process's own address space,
	// which exec created, it does not include the parent's, as getrusage's maxrss would.
	PeakRSSKB int64
}

// shardHeapObjects is how many objects BenchmarkShardedReplicaHeap syncs: KGEN_BENCH_SHARD_OBJECTS if
// set, else 10,000, or 1,000 in the smoke run of make test (-benchtime 1x), to keep that short.
func shardHeapObjects() int {
	if n, err := strconv.Atoi(os.Getenv("KGEN_BENCH_SHARD_OBJECTS")); err == nil && n > 0 {
		return n
	}
	if f := flag.Lookup("test.benchtime"); f != nil && f.Value.String() == "1x" {
		return 1000
	}
	return 10000
}

// BenchmarkShardedReplicaHeap measures the proof point: the heap of each of three sharded
// replicas against one unsharded replica, syncing the same custom objects (each with a 1 KiB spec
// payload of its own) from a testenv kube-apiserver. Every replica runs in its own process (a copy of this test
// binary), so each figure is that process's alone: its peak Go heap (sampled every 5 ms from start
// until synced), its live heap after a forced GC once synced, and its peak RSS. The unsharded replica
// runs first and alone; then the three sharded replicas start together on fresh, unlabelled objects,
// so their figures include the coordinator labelling every object. The coordinator also caches every
// object's metadata, so the largest sharded replica is usually the coordinator. Last, three replicas
// in the server-side mode (sharding.ServerMode, on the API server's sharded list and watch) start
// together over the same objects: each lists its hash ranges at once, with no coordinator and no
// labels.
func BenchmarkShardedReplicaHeap(b *testing.B) {
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
	ctx := context.Background()
	env, err := testenv.Start(ctx, testenv.Options{CRDs: []any{[]byte(shardItemCRD)}, APIServerArgs: []string{"--feature-gates=ShardedListAndWatch=true"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = env.Stop() })
	n := shardHeapObjects()
	var one, sharded, server []shardReplicaReport
	for i := 0; i < b.N; i++ {
		shardedRuns++
		ns := fmt.Sprintf("heap-%d", shardedRuns)
		createHeapItems(ctx, b, env, ns, n)
		b.ResetTimer()
		one = runReplicaProcesses(ctx, b, env, ns, "", false, []string{"unsharded"}, n)
		sharded = runReplicaProcesses(ctx, b, env, ns, ns, false, []string{"replica-0", "replica-1", "replica-2"}, n)
		server = runReplicaProcesses(ctx, b, env, ns, ns+"-server", true, []string{"server-0", "server-1", "server-2"}, n)
		b.StopTimer()
	}
	mib := func(v uint64) float64 { return float64(v) / (1 << 20) }
	b.ReportMetric(float64(n), "objects")
	b.ReportMetric(mib(one[0].PeakHeap), "unsharded-peak-heap-MiB")
	b.ReportMetric(mib(one[0].LiveHeap), "unsharded-live-heap-MiB")
	b.ReportMetric(float64(one[0].PeakRSSKB)/1024, "unsharded-peak-RSS-MiB")
	var maxPeak, maxLive, memberPeak uint64
	var maxRSS int64
	for _, r := range sharded {
		if !r.Coordinator {
			memberPeak = max(memberPeak, r.PeakHeap)
		}
		role := "member"
		if r.Coordinator {
			role = "coordinator"
		}
		b.Logf("%s (%s) caches %d of %d objects: peak heap %.1f MiB, live heap %.1f MiB, peak RSS %.1f MiB",
			r.Identity, role, r.Cached, n, mib(r.PeakHeap), mib(r.LiveHeap), float64(r.PeakRSSKB)/1024)
		maxPeak, maxLive, maxRSS = max(maxPeak, r.PeakHeap), max(maxLive, r.LiveHeap), max(maxRSS, r.PeakRSSKB)
	}
	b.Logf("unsharded caches %d of %d objects: peak heap %.1f MiB, live heap %.1f MiB, peak RSS %.1f MiB",
		one[0].Cached, n, mib(one[0].PeakHeap), mib(one[0].LiveHeap), float64(one[0].PeakRSSKB)/1024)
	b.ReportMetric(mib(maxPeak), "sharded-max-peak-heap-MiB")
	b.ReportMetric(mib(maxLive), "sharded-max-live-heap-MiB")
	b.ReportMetric(float64(maxRSS)/1024, "sharded-max-peak-RSS-MiB")
	b.ReportMetric(float64(maxPeak)/float64(one[0].PeakHeap), "peak-heap-ratio")
	b.ReportMetric(float64(memberPeak)/float64(one[0].PeakHeap), "member-peak-heap-ratio") // without the coordinator
	b.ReportMetric(float64(maxLive)/float64(one[0].LiveHeap), "live-heap-ratio")
	var serverPeak, serverLive uint64
	for _, r := range server {
		b.Logf("%s (server-side) caches %d of %d objects: peak heap %.1f MiB, live heap %.1f MiB, peak RSS %.1f MiB",
			r.Identity, r.Cached, n, mib(r.PeakHeap), mib(r.LiveHeap), float64(r.PeakRSSKB)/1024)
		serverPeak, serverLive = max(serverPeak, r.PeakHeap), max(serverLive, r.LiveHeap)
	}
	b.ReportMetric(float64(serverPeak)/float64(one[0].PeakHeap), "server-side-peak-heap-ratio")
	b.ReportMetric(float64(serverLive)/float64(one[0].LiveHeap), "server-side-live-heap-ratio")
}

func createHeapItems(ctx context.Context, b *testing.B, env *testenv.Environment, ns string, n int) {
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		b.Fatal(err)
	}
	cfg := env.Config()
	cfg.QPS, cfg.Burst = 1000, 2000
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	client := dyn.Resource(shardItems).Namespace(ns)
	parallel(b, n, func(i int) error {
		// A payload of its own per object: informers share equal parts of cached objects, so equal
		// payloads would be cached once.
		payload := strings.Repeat(fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15), 64)
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "bench.kgen.dev/v1", "kind": "Item",
			"metadata": map[string]any{"name": fmt.Sprintf("item-%05d", i)},
			"spec":     map[string]any{"value": int64(0), "payload": payload}}}
		_, err := client.Create(ctx, u, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	})
}

// replicaProcess is one running replica process and what it last said.
type replicaProcess struct {
	id     string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	cached atomic.Int64
	report chan shardReplicaReport
}

// runReplicaProcesses starts one process per identity, waits until every object is cached by
// exactly the replica it is assigned to (all of them by the unsharded one), and returns the
// processes' reports.
func runReplicaProcesses(ctx context.Context, b *testing.B, env *testenv.Environment, ns, ring string, serverSide bool, ids []string, n int) []shardReplicaReport {
	procs := make([]*replicaProcess, len(ids))
	for i, id := range ids {
		spec, err := json.Marshal(shardReplicaSpec{Kubeconfig: env.KubeconfigPath(), Namespace: ns, Ring: ring, Identity: id, ServerSide: serverSide})
		if err != nil {
			b.Fatal(err)
		}
		p := &replicaProcess{id: id, cmd: exec.Command(os.Args[0]), report: make(chan shardReplicaReport, 1)}
		p.cmd.Env = append(os.Environ(), shardReplicaEnv+"="+string(spec))
		p.cmd.Stderr = os.Stderr
		if p.stdin, err = p.cmd.StdinPipe(); err != nil {
			b.Fatal(err)
		}
		stdout, err := p.cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := p.cmd.Start(); err != nil {
			b.Fatal(err)
		}
		go p.read(stdout)
		procs[i] = p
	}
	defer func() {
		for _, p := range procs {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	}()
	meta, err := metadata.NewForConfig(env.Config())
	if err != nil {
		b.Fatal(err)
	}
	client := meta.Resource(shardItems).Namespace(ns)
	deadline := time.Now().Add(10 * time.Minute)
	for !replicasSynced(ctx, b, client, ring, serverSide, procs, n) {
		if time.Now().After(deadline) {
			b.Fatalf("replicas %v did not sync %d objects", ids, n)
		}
		time.Sleep(500 * time.Millisecond) // each check lists every object's metadata
	}
	coordinator := ""
	if ring != "" && !serverSide {
		cs, err := kubernetes.NewForConfig(env.Config())
		if err != nil {
			b.Fatal(err)
		}
		if l, err := cs.CoordinationV1().Leases(ns).Get(ctx, ring, metav1.GetOptions{}); err == nil && l.Spec.HolderIdentity != nil {
			coordinator = *l.Spec.HolderIdentity
		}
	}
	reports := make([]shardReplicaReport, len(procs))
	for i, p := range procs {
		reports[i].Identity = p.id
		reports[i].Coordinator = strings.HasPrefix(coordinator, p.id+"_")
		p.stdin.Close() // asks for the report
		select {
		case r := <-p.report:
			reports[i].Cached, reports[i].PeakHeap, reports[i].LiveHeap, reports[i].PeakRSSKB = r.Cached, r.PeakHeap, r.LiveHeap, r.PeakRSSKB
		case <-time.After(time.Minute):
			b.Fatalf("%s did not report", p.id)
		}
	}
	return reports
}

// read records the cache sizes a replica process prints and its final report.
func (p *replicaProcess) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "cached "); ok {
			if v, err := strconv.ParseInt(rest, 10, 64); err == nil {
				p.cached.Store(v)
			}
		} else if rest, ok := strings.CutPrefix(line, "report "); ok {
			var r shardReplicaReport
			if json.Unmarshal([]byte(rest), &r) == nil {
				p.report <- r
			}
		}
	}
}

// replicasSynced reports whether each process caches exactly the objects assigned to it: every one
// for an unsharded replica; those labelled with its identity, with every object labelled and none
// being drained, in a ring; those whose UID's hash the partition of the replicas gives it, in the
// server-side mode.
func replicasSynced(ctx context.Context, b *testing.B, client metadata.ResourceInterface, ring string, serverSide bool, procs []*replicaProcess, n int) bool {
	if ring == "" {
		return procs[0].cached.Load() == int64(n)
	}
	list, err := client.List(ctx, metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, p := range procs {
		ids = append(ids, p.id)
	}
	partition := sharding.NewPartition(ids)
	owned := map[string]int64{}
	for _, o := range list.Items {
		if serverSide {
			owned[partition.Owner(sharding.ServerHash(string(o.UID)))]++
			continue
		}
		if o.Labels[sharding.DrainLabel(ring)] != "" || o.Labels[sharding.ShardLabel(ring)] == "" {
			return false
		}
		owned[o.Labels[sharding.ShardLabel(ring)]]++
	}
	if len(list.Items) != n {
		return false
	}
	for _, p := range procs {
		if p.cached.Load() != owned[p.id] {
			return false
		}
	}
	return true
}

// runShardReplica is the child process's side: it runs the replica spec describes until its standard
// input closes, printing its cache size every 100 ms, then prints its report.
func runShardReplica(specJSON string) int {
	// Quiet, errors included (klog copies those to standard error unless told otherwise): a replica
	// logs expected conflicts while the ring forms.
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("logtostderr", "false")
	_ = klogFlags.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	var spec shardReplicaSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	var peak atomic.Uint64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		ticker := time.NewTicker(5 * time.Millisecond)
		defer ticker.Stop()
		for {
			peak.Store(max(peak.Load(), heapObjectBytes()))
			select {
			case <-stopSampling:
				return
			case <-ticker.C:
			}
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inf, err := startHeapReplica(ctx, spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()
	ticker := time.NewTicker(100 * time.Millisecond)
	defer ticker.Stop()
	for done := false; !done; {
		select {
		case <-stdinClosed:
			done = true
		case <-ticker.C:
			fmt.Printf("cached %d\n", len(inf.GetStore().ListKeys()))
		}
	}
	close(stopSampling)
	<-sampled
	runtime.GC()
	report := shardReplicaReport{Cached: len(inf.GetStore().ListKeys()), PeakHeap: peak.Load(), LiveHeap: heapObjectBytes(), PeakRSSKB: peakRSSKB()}
	runtime.KeepAlive(inf)
	out, _ := json.Marshal(report)
	fmt.Printf("report %s\n", out)
	return 0
}

// startHeapReplica starts a controller's informer and workers, in a ring when spec names one.
func startHeapReplica(ctx context.Context, spec shardReplicaSpec) (cache.SharedIndexInformer, error) {
	cfg, err := kubeconfig.BuildConfigFromFlags("", spec.Kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 1000, 2000
	var replica *sharding.Replica
	res := sharding.Resource{Resource: shardItems, Kind: "Item"}
	if spec.Ring != "" {
		cfg.Wrap(sharding.WrapTransport)
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return nil, err
		}
		meta, err := metadata.NewForConfig(cfg)
		if err != nil {
			return nil, err
		}
		replica, err = sharding.New(sharding.Config{Ring: spec.Ring, Identity: spec.Identity, Namespace: spec.Namespace,
			Leases: cs.CoordinationV1().Leases(spec.Namespace), Metadata: meta, ObjectNamespace: spec.Namespace,
			Resources: []sharding.Resource{res}, LeaseDuration: 3 * time.Second, RenewDeadline: 2 * time.Second, RetryPeriod: 500 * time.Millisecond,
			Mode: map[bool]sharding.Mode{false: sharding.LabelMode, true: sharding.ServerMode}[spec.ServerSide]})
		if err != nil {
			return nil, err
		}
		go func() { _ = replica.Run(ctx) }()
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	items := dyn.Resource(shardItems).Namespace(spec.Namespace)
	var lw cache.ListerWatcher = &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (k8sruntime.Object, error) {
			return items.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return items.Watch(ctx, opts)
		},
	}
	if replica != nil {
		lw = replica.ListerWatcher(lw) // the label selector, or the server-side shard selector
	}
	inf := cache.NewSharedIndexInformer(lw, &unstructured.Unstructured{}, 0, cache.Indexers{})
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	enqueue := func(obj any) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			queue.Add(key)
		}
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, o any) { enqueue(o) }, DeleteFunc: enqueue})
	// The reconcile reads the object and copies it, as a controller does before changing it.
	reconcile := func(_ context.Context, key string) error {
		item, exists, err := inf.GetIndexer().GetByKey(key)
		if err == nil && exists {
			_ = item.(*unstructured.Unstructured).DeepCopy()
		}
		return err
	}
	if replica != nil {
		reconcile = replica.Reconciler(res, inf.GetIndexer().GetByKey, queue, reconcile)
	}
	go inf.RunWithContext(ctx)
	startWorkers(ctx, queue, reconcile)
	return inf, nil
}

// heapObjectBytes reads the size of the heap's objects (live and not yet collected) without
// stopping the world.
func heapObjectBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// peakRSSKB reads VmHWM from /proc/self/status; 0 where there is none.
func peakRSSKB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			v, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v
		}
	}
	return 0
}
