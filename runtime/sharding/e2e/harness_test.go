package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/builtin/kubernetes"
	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/dynamic"
	"github.com/kgen-dev/kgen/runtime/dynamic/dynamicinformer"
	"github.com/kgen-dev/kgen/runtime/metadata"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/runtime/sharding"
	"github.com/kgen-dev/kgen/runtime/workqueue"
)

const itemCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: items.sharding.kgen.dev
spec:
  group: sharding.kgen.dev
  scope: Namespaced
  names: {plural: items, singular: item, kind: Item, listKind: ItemList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

var (
	items    = schema.GroupVersionResource{Group: "sharding.kgen.dev", Version: "v1", Resource: "items"}
	itemsRes = sharding.Resource{Resource: items, Kind: "Item"}
	itemKind = schema.GroupKind{Group: items.Group, Kind: "Item"}
)

// Short but realistic timings: a dead replica's objects move about four seconds after its last renewal.
const (
	leaseDuration = 3 * time.Second
	renewDeadline = 2 * time.Second
	retryPeriod   = 500 * time.Millisecond
	workers       = 4
)

// recorder is the invariant checker: it records every reconcile's start and end per replica and
// object and counts starts while another replica is inside a reconcile of the same object.
type recorder struct {
	mu         sync.Mutex
	active     map[string]map[string]int // object → replica → reconciles in progress
	overlaps   []string
	reconciles map[string]int // by replica
}

func newRecorder() *recorder {
	return &recorder{active: map[string]map[string]int{}, reconciles: map[string]int{}}
}

func (r *recorder) start(replica, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a := r.active[key]
	if a == nil {
		a = map[string]int{}
		r.active[key] = a
	}
	for other, n := range a {
		if other != replica && n > 0 {
			r.overlaps = append(r.overlaps, fmt.Sprintf("%s: %s started while %s was reconciling it", key, replica, other))
		}
	}
	a[replica]++
	r.reconciles[replica]++
}

func (r *recorder) end(replica, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.active[key][replica]--
}

func (r *recorder) check(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.overlaps) > 0 {
		t.Errorf("%d overlapping reconciles, first: %v", len(r.overlaps), r.overlaps[:min(5, len(r.overlaps))])
	}
	t.Logf("reconciles per replica: %v", r.reconciles)
}

// reconcilesBy returns how many reconciles replica started.
func (r *recorder) reconcilesBy(replica string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reconciles[replica]
}

// fault stands between a replica's clients and the API server: dead fails every request (a killed
// process), blocked holds requests until unblocked (a paused process).
type fault struct {
	mu      sync.Mutex
	dead    bool
	blocked chan struct{}
}

var errKilled = errors.New("replica killed")

// faultTransport is one client's transport behind a replica's fault.
type faultTransport struct {
	*fault
	next http.RoundTripper
}

func (t faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	f := t.fault
	f.mu.Lock()
	dead, blocked := f.dead, f.blocked
	f.mu.Unlock()
	if blocked != nil {
		select {
		case <-blocked:
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
		f.mu.Lock()
		dead = f.dead
		f.mu.Unlock()
	}
	if dead {
		return nil, errKilled
	}
	return t.next.RoundTrip(req)
}

// fleet is the replicas of one ring over the items of one namespace.
type fleet struct {
	t        *testing.T
	ring, ns string
	client   *dynamic.DynamicClient // the test's own
	rec      *recorder
	// view is the test's own cache of every item: waiting for convergence reads it instead of
	// listing the items over and over, which would load the API server the replicas share.
	view      cache.SharedIndexInformer
	viewMu    sync.Mutex
	viewRV    uint64        // highest resourceVersion the view's handlers saw
	writtenRV uint64        // highest resourceVersion of the test's own writes
	mode      sharding.Mode // LabelMode unless a test sets it before starting replicas
	lat       *latencies
	mu        sync.Mutex
	replicas  map[*replica]bool
	nextIndex int
	created   int
}

type replica struct {
	id     string
	ring   string
	f      *fleet
	fault  *fault
	shard  *sharding.Replica
	inf    cache.SharedIndexInformer
	client dynamic.ResourceInterface
	queue  workqueue.TypedRateLimitingInterface[string]
	gate   sync.RWMutex // workers hold it shared per item; pause holds it exclusively
	cancel context.CancelFunc
	done   chan struct{}
}

func newFleet(t *testing.T, prefix string) *fleet {
	t.Helper()
	ctx := context.Background()
	if err := env.InstallCRDs(ctx, []byte(itemCRD)); err != nil {
		t.Fatal(err)
	}
	ns := prefix + "-" + utilrand.String(5)
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	client, err := dynamic.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	f := &fleet{t: t, ring: ns, ns: ns, client: client, rec: newRecorder(), replicas: map[*replica]bool{}, lat: newLatencies(ns)}
	t.Cleanup(f.stopAll)
	f.view = dynamicinformer.NewFilteredDynamicInformer(client, items, ns, 0, cache.Indexers{}, nil).Informer()
	saw := func(obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok {
			f.noteRV(&f.viewRV, u.GetResourceVersion())
			// A status write counts when it lands, also if its response was lost (a cancelled
			// context, a server going down): no reconcile writes the same value again.
			if observed, found, _ := unstructured.NestedInt64(u.Object, "status", "observed"); found {
				f.lat.reconciled(u.GetName(), observed)
			}
		}
	}
	_, _ = f.view.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: saw, UpdateFunc: func(_, obj any) { saw(obj) }})
	viewCtx, stopView := context.WithCancel(context.Background())
	t.Cleanup(stopView)
	go f.view.RunWithContext(viewCtx)
	if !cache.WaitForCacheSync(viewCtx.Done(), f.view.HasSynced) {
		t.Fatal("the test's cache of the items did not sync")
	}
	return f
}

// noteRV raises *max to resourceVersion rv.
func (f *fleet) noteRV(max *uint64, rv string) {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		f.t.Errorf("resourceVersion %q is not a number", rv)
		return
	}
	f.viewMu.Lock()
	*max = maxUint(*max, n)
	f.viewMu.Unlock()
}

func maxUint(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// create makes n more items with spec.value 1.
func (f *fleet) create(n int) {
	f.t.Helper()
	ctx := context.Background()
	first := f.created
	f.created += n
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 16)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			u := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "sharding.kgen.dev/v1", "kind": "Item",
				"metadata": map[string]any{"name": fmt.Sprintf("item-%05d", first+i)},
				"spec":     map[string]any{"value": int64(1)},
			}}
			created, err := f.client.Resource(items).Namespace(f.ns).Create(ctx, u, metav1.CreateOptions{})
			if err != nil {
				errs <- err
				return
			}
			f.noteRV(&f.writtenRV, created.GetResourceVersion())
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		f.t.Fatal(err)
	}
}

func (f *fleet) start(id string) *replica { return f.startRing(id, f.ring) }

// startRing starts a replica with its own clients, informer, queue and workers.
func (f *fleet) startRing(id, ring string) *replica {
	f.t.Helper()
	if id == "" {
		f.mu.Lock()
		id = fmt.Sprintf("replica-%d", f.nextIndex)
		f.nextIndex++
		f.mu.Unlock()
	}
	rep := &replica{id: id, ring: ring, f: f, done: make(chan struct{}), fault: &fault{}}
	cfg := rest.CopyConfig(env.Config())
	cfg.QPS, cfg.Burst = 1000, 2000
	cfg.Wrap(sharding.WrapTransport)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return faultTransport{fault: rep.fault, next: rt} })
	meta, err := metadata.NewForConfig(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	leases, err := sharding.NewLeaseClient(cfg, f.ns) // renewals never wait behind the controller's requests
	if err != nil {
		f.t.Fatal(err)
	}
	rep.shard, err = sharding.New(sharding.Config{
		Ring: ring, Identity: id, Namespace: f.ns, Leases: leases, Metadata: meta,
		ObjectNamespace: f.ns, Resources: []sharding.Resource{itemsRes},
		LeaseDuration: leaseDuration, RenewDeadline: renewDeadline, RetryPeriod: retryPeriod, Mode: f.mode,
	})
	if err != nil {
		f.t.Fatal(err)
	}
	rep.client = dyn.Resource(items).Namespace(f.ns)
	rep.inf = cache.NewSharedIndexInformer(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return rep.client.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return rep.client.Watch(ctx, opts)
		},
	}, &unstructured.Unstructured{}, 0, cache.Indexers{})
	if err := rep.shard.Shard(rep.inf); err != nil {
		f.t.Fatal(err)
	}
	rep.queue = workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.NewTypedItemExponentialFailureRateLimiter[string](10*time.Millisecond, time.Second),
		workqueue.TypedRateLimitingQueueConfig[string]{})
	enqueue := func(what string, obj any) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			f.lat.trace(key, rep.id, "informer "+what+traceValue(obj))
			rep.queue.Add(key)
		}
	}
	_, _ = rep.inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { enqueue("added", obj) },
		UpdateFunc: func(_, obj any) { enqueue("updated", obj) },
		DeleteFunc: func(obj any) { enqueue("deleted", obj) },
	})
	ctx, cancel := context.WithCancel(context.Background())
	rep.cancel = cancel
	reconcile := rep.shard.Reconciler(itemsRes, rep.inf.GetIndexer().GetByKey, tracedQueue{rep}, rep.reconcile)
	var wg sync.WaitGroup
	wg.Add(2 + workers)
	go func() { defer wg.Done(); _ = rep.shard.Run(ctx) }()
	go func() { defer wg.Done(); rep.inf.RunWithContext(ctx) }()
	for range workers {
		go func() {
			defer wg.Done()
			for {
				key, shutdown := rep.queue.Get()
				if shutdown {
					return
				}
				rep.gate.RLock()
				f.lat.trace(key, rep.id, fmt.Sprintf("guard called (member %v)", rep.shard.IsMember()))
				err := reconcile(ctx, key)
				rep.gate.RUnlock()
				if err != nil {
					f.lat.trace(key, rep.id, "guard failed: "+err.Error())
				}
				if err != nil && ctx.Err() == nil {
					rep.queue.AddRateLimited(key)
				} else {
					rep.queue.Forget(key)
				}
				rep.queue.Done(key)
			}
		}()
	}
	go func() {
		<-ctx.Done()
		rep.queue.ShutDown()
	}()
	go func() { wg.Wait(); close(rep.done) }()
	f.mu.Lock()
	f.replicas[rep] = true
	f.mu.Unlock()
	return rep
}

// tracedQueue is the queue a replica's guard parks keys in, noting each requeue.
type tracedQueue struct{ rep *replica }

func (q tracedQueue) Add(key string) {
	q.rep.f.lat.trace(key, q.rep.id, "requeued by the guard")
	q.rep.queue.Add(key)
}

// traceValue returns ", spec N" for an item, for the trace.
func traceValue(obj any) string {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		v, _, _ := unstructured.NestedInt64(u.Object, "spec", "value")
		return fmt.Sprintf(", spec %d", v)
	}
	return ""
}

// reconcile copies spec.value to status.observed, with this replica's name in status.by.
func (rep *replica) reconcile(ctx context.Context, key string) error {
	rep.f.lat.trace(key, rep.id, "reconcile runs")
	rep.f.rec.start(rep.id, key)
	defer rep.f.rec.end(rep.id, key)
	item, exists, err := rep.inf.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return err
	}
	u := item.(*unstructured.Unstructured).DeepCopy()
	want, _, _ := unstructured.NestedInt64(u.Object, "spec", "value")
	got, found, _ := unstructured.NestedInt64(u.Object, "status", "observed")
	if found && got == want {
		return nil
	}
	_ = unstructured.SetNestedField(u.Object, want, "status", "observed")
	_ = unstructured.SetNestedField(u.Object, rep.id, "status", "by")
	_, err = rep.client.UpdateStatus(ctx, u, metav1.UpdateOptions{})
	if err != nil {
		rep.f.lat.trace(key, rep.id, "status write failed: "+err.Error())
	}
	if apierrors.IsConflict(err) {
		return nil // the informer brings the newer object
	}
	if err == nil {
		rep.f.lat.reconciled(u.GetName(), want)
	}
	return err
}

// latencies measures change-to-reconcile: from a successful write of spec.value to the status
// write of a reconcile that saw that value or a later one.
type latencies struct {
	mu       sync.Mutex
	ns       string
	pending  map[string]change // by item name: the oldest write not reconciled yet
	observed map[string]int64  // by item name: the highest value a status write carried
	samples  []time.Duration
	slowest  []slowChange            // the changes that took longest, for the log
	events   []string                // the chaos events with their times, for the log
	traces   map[string][]traceEntry // by item key: what happened to it, for the slowest changes
}

// traceEntry is one step of an item's way from a write to its reconcile.
type traceEntry struct {
	at            time.Time
	replica, what string
}

// trace notes what happened to the item with key (namespace/name) on replica.
func (l *latencies) trace(key, replica, what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.traces[key] = append(l.traces[key], traceEntry{at: time.Now(), replica: replica, what: what})
}

type slowChange struct {
	name    string
	written time.Time
	took    time.Duration
}

// event notes a chaos event at the current time.
func (l *latencies) event(what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, time.Now().Format("15:04:05.000")+" "+what)
}

// report returns the slowest changes and the events, to tell what delayed them.
func (l *latencies) report() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	slices.SortFunc(l.slowest, func(a, b slowChange) int { return int(b.took - a.took) })
	var b strings.Builder
	for _, c := range l.slowest[:min(8, len(l.slowest))] {
		fmt.Fprintf(&b, "  %s written %s took %v\n", c.name, c.written.Format("15:04:05.000"), c.took.Round(time.Millisecond))
		var steps []traceEntry
		for _, e := range l.traces[l.ns+"/"+c.name] {
			if !e.at.Before(c.written) && !e.at.After(c.written.Add(c.took)) {
				steps = append(steps, e)
			}
		}
		if len(steps) > 24 { // the first and last steps tell where it waited
			steps = append(steps[:12:12], steps[len(steps)-12:]...)
		}
		for _, e := range steps {
			fmt.Fprintf(&b, "      +%v %s: %s\n", e.at.Sub(c.written).Round(time.Millisecond), e.replica, e.what)
		}
	}
	b.WriteString("  events: " + strings.Join(l.events, ", "))
	return b.String()
}

type change struct {
	value int64
	at    time.Time
}

func newLatencies(ns string) *latencies {
	return &latencies{pending: map[string]change{}, observed: map[string]int64{}, traces: map[string][]traceEntry{}, ns: ns}
}

// written records that name's spec.value became value now.
func (l *latencies) written(name string, value int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.observed[name] >= value {
		l.samples = append(l.samples, 0) // reconciled before the writer's call returned
		return
	}
	if _, ok := l.pending[name]; !ok {
		l.pending[name] = change{value: value, at: time.Now()}
	}
}

// reconciled records that a status write of name for value landed (seen by a reconcile or the test's view).
func (l *latencies) reconciled(name string, value int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.observed[name] = max(l.observed[name], value)
	if c, ok := l.pending[name]; ok && value >= c.value {
		took := time.Since(c.at)
		l.samples = append(l.samples, took)
		if took > 3*time.Second {
			l.slowest = append(l.slowest, slowChange{name: name, written: c.at, took: took})
		}
		delete(l.pending, name)
	}
}

// summary returns the count, p50, p99 and maximum of the samples so far.
func (l *latencies) summary() (n int, p50, p99, max time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := slices.Clone(l.samples)
	if len(s) == 0 {
		return 0, 0, 0, 0
	}
	slices.Sort(s)
	return len(s), s[len(s)/2], s[(len(s)*99)/100], s[len(s)-1]
}

// churn raises spec.value of a random item every interval until ctx ends, ignoring failures (the
// API server may be restarting), and records each successful write in f.lat.
func (f *fleet) churn(ctx context.Context, interval time.Duration) {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	client := f.client.Resource(items).Namespace(f.ns)
	for ctx.Err() == nil {
		name := fmt.Sprintf("item-%05d", rng.IntN(f.created))
		if u, err := client.Get(ctx, name, metav1.GetOptions{}); err == nil {
			v, _, _ := unstructured.NestedInt64(u.Object, "spec", "value")
			_ = unstructured.SetNestedField(u.Object, v+1, "spec", "value")
			if updated, err := client.Update(ctx, u, metav1.UpdateOptions{}); err == nil {
				f.noteRV(&f.writtenRV, updated.GetResourceVersion())
				f.lat.written(name, v+1)
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(interval):
		}
	}
}

// kill stops a replica like a crashed process: its requests fail at once and it never releases its Lease.
func (rep *replica) kill() {
	rep.fault.mu.Lock()
	rep.fault.dead = true
	rep.fault.mu.Unlock()
	rep.stop()
}

// stop stops a replica gracefully: it finishes its reconciles and releases its Lease.
func (rep *replica) stop() {
	rep.cancel()
	<-rep.done
	rep.f.mu.Lock()
	delete(rep.f.replicas, rep)
	rep.f.mu.Unlock()
}

// pause freezes a replica between reconciles: no reconcile starts and every request waits.
func (rep *replica) pause() {
	rep.gate.Lock()
	rep.fault.mu.Lock()
	rep.fault.blocked = make(chan struct{})
	rep.fault.mu.Unlock()
}

func (rep *replica) resume() {
	rep.fault.mu.Lock()
	close(rep.fault.blocked)
	rep.fault.blocked = nil
	rep.fault.mu.Unlock()
	rep.gate.Unlock()
}

func (f *fleet) stopAll() {
	f.mu.Lock()
	reps := make([]*replica, 0, len(f.replicas))
	for r := range f.replicas {
		reps = append(reps, r)
	}
	f.mu.Unlock()
	for _, r := range reps {
		r.stop()
	}
}

func (f *fleet) live() []*replica {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*replica, 0, len(f.replicas))
	for r := range f.replicas {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// list returns the items as the API server has them.
func (f *fleet) list() []unstructured.Unstructured {
	f.t.Helper()
	list, err := f.client.Resource(items).Namespace(f.ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return list.Items
}

// converged reports what keeps the items from their desired state: each is reconciled, and labelled
// with its owner on ring (when ring is not nil) without a drain request. It reads the test's cache
// once that has seen the test's own last write.
func (f *fleet) converged(ring *sharding.Ring) string {
	f.viewMu.Lock()
	behind := f.viewRV < f.writtenRV
	f.viewMu.Unlock()
	if behind {
		return "the test's cache has not seen its last write yet"
	}
	var cached []*unstructured.Unstructured
	for _, obj := range f.view.GetStore().List() {
		cached = append(cached, obj.(*unstructured.Unstructured))
	}
	return f.convergedItems(ring, cached)
}

// convergedItems is converged over the given items.
func (f *fleet) convergedItems(ring *sharding.Ring, cached []*unstructured.Unstructured) string {
	shard, drain := sharding.ShardLabel(f.ring), sharding.DrainLabel(f.ring)
	placed := func(u *unstructured.Unstructured) bool {
		l := u.GetLabels()
		if f.mode == sharding.ServerMode {
			return l[shard] == "" && l[drain] == "" // the server-side mode never writes labels
		}
		return l[drain] == "" && l[shard] != "" && (ring == nil || l[shard] == ring.Owner(sharding.HashKey(itemKind, u, nil)))
	}
	bad := 0
	var first string
	for _, u := range cached {
		want1, _, _ := unstructured.NestedInt64(u.Object, "spec", "value")
		got, found, _ := unstructured.NestedInt64(u.Object, "status", "observed")
		l := u.GetLabels()
		if ok := found && got == want1 && placed(u); !ok {
			bad++
			if first == "" {
				first = fmt.Sprintf("%s: spec %d status %d/%v labels %v", u.GetName(), want1, got, found, l)
			}
		}
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d items not converged, e.g. %s", bad, len(cached), first)
}

// waitConverged waits until every item is reconciled and labelled with the replica the ring of the
// fleet's live replicas places it on.
func (f *fleet) waitConverged(timeout time.Duration) time.Duration {
	f.t.Helper()
	return f.waitConvergedBy(timeout, 20*time.Millisecond, f.converged)
}

// waitConvergedOnServer is waitConverged reading the items from the server every 50ms rather than
// from the test's cache: after an API server restart the test's own informer resumes only after
// its retry delay, which says nothing about the replicas.
func (f *fleet) waitConvergedOnServer(timeout time.Duration) time.Duration {
	f.t.Helper()
	return f.waitConvergedBy(timeout, 50*time.Millisecond, func(ring *sharding.Ring) string {
		list, err := f.client.Resource(items).Namespace(f.ns).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return err.Error()
		}
		items := make([]*unstructured.Unstructured, len(list.Items))
		for i := range list.Items {
			items[i] = &list.Items[i]
		}
		return f.convergedItems(ring, items)
	})
}

func (f *fleet) waitConvergedBy(timeout, every time.Duration, converged func(*sharding.Ring) string) time.Duration {
	f.t.Helper()
	start := time.Now()
	var ids []string
	for _, r := range f.live() {
		if r.ring == f.ring {
			ids = append(ids, r.id)
		}
	}
	ring := sharding.NewRing(ids, 0)
	var why string
	for time.Since(start) < timeout {
		if why = converged(ring); why == "" {
			return time.Since(start)
		}
		time.Sleep(every)
	}
	f.t.Fatalf("not converged after %v: %s", timeout, why)
	return 0
}

// bump raises spec.value of the named items (all when names is nil).
func (f *fleet) bump(names []string) {
	f.t.Helper()
	ctx := context.Background()
	if names == nil {
		for _, u := range f.list() {
			names = append(names, u.GetName())
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for _, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			for {
				u, err := f.client.Resource(items).Namespace(f.ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					f.t.Error(err)
					return
				}
				v, _, _ := unstructured.NestedInt64(u.Object, "spec", "value")
				_ = unstructured.SetNestedField(u.Object, v+1, "spec", "value")
				updated, err := f.client.Resource(items).Namespace(f.ns).Update(ctx, u, metav1.UpdateOptions{})
				if err == nil {
					f.noteRV(&f.writtenRV, updated.GetResourceVersion())
					f.lat.written(name, v+1)
				}
				if !apierrors.IsConflict(err) {
					if err != nil {
						f.t.Error(err)
					}
					return
				}
			}
		}()
	}
	wg.Wait()
}

// ownedBy returns the names of the items labelled with replica id or, in the server-side mode, that
// the partition of the live replicas gives it.
func (f *fleet) ownedBy(id string) []string {
	var ids []string
	for _, r := range f.live() {
		ids = append(ids, r.id)
	}
	partition := sharding.NewPartition(ids)
	var out []string
	for _, u := range f.list() {
		if f.mode == sharding.ServerMode && partition.Owner(sharding.ServerHash(string(u.GetUID()))) == id ||
			f.mode == sharding.LabelMode && u.GetLabels()[sharding.ShardLabel(f.ring)] == id {
			out = append(out, u.GetName())
		}
	}
	return out
}

// cacheSize returns how many items a replica's informer holds.
func (rep *replica) cacheSize() int { return len(rep.inf.GetStore().ListKeys()) }

// coordinator returns the replica holding the ring's coordinator Lease.
func (f *fleet) coordinator() *replica {
	f.t.Helper()
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		f.t.Fatal(err)
	}
	l, err := cs.CoordinationV1().Leases(f.ns).Get(context.Background(), f.ring, metav1.GetOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	holder := ""
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	for _, r := range f.live() {
		if strings.HasPrefix(holder, r.id+"_") {
			return r
		}
	}
	f.t.Fatalf("coordinator %q is not a live replica", holder)
	return nil
}

// waitLeaseRenewals waits until the member Lease of id (once created) changed n times and returns n.
func waitLeaseRenewals(t *testing.T, f *fleet, id string, n int) int {
	t.Helper()
	cs, err := kubernetes.NewForConfig(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	seen, last := 0, ""
	deadline := time.Now().Add(time.Minute)
	for seen < n {
		if time.Now().After(deadline) {
			t.Fatalf("Lease of %s renewed only %d times", id, seen)
		}
		l, err := cs.CoordinationV1().Leases(f.ns).Get(context.Background(), f.ring+"."+id, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			time.Sleep(50 * time.Millisecond) // not created yet
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.ResourceVersion != last {
			if last != "" {
				seen++
			}
			last = l.ResourceVersion
		}
		time.Sleep(50 * time.Millisecond)
	}
	return seen
}

// checkAddedShare checks that a replica added to a ring of three took about a quarter of the before
// items, within took of being started.
func checkAddedShare(t *testing.T, f *fleet, added *replica, before int, took time.Duration) {
	t.Helper()
	share := float64(len(f.ownedBy(added.id))) / float64(before)
	t.Logf("added %s: it took %.1f%% of the items in %v", added.id, 100*share, took.Round(time.Millisecond))
	if share < 0.15 || share > 0.35 {
		t.Errorf("an added fourth replica took %.1f%% of the items, want about 25%%", 100*share)
	}
	if took > 10*time.Second {
		t.Errorf("the added replica took %v to take and reconcile its share", took)
	}
}
