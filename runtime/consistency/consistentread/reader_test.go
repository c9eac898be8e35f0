package consistentread_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kgen-dev/kgen/runtime/cache"
	"github.com/kgen-dev/kgen/runtime/consistency"
	"github.com/kgen-dev/kgen/runtime/consistency/consistentread"
	"github.com/kgen-dev/kgen/runtime/sharding"
)

var configMaps = schema.GroupResource{Resource: "configmaps"}

func object(ns, name, uid, rv string, lbls map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: name, UID: types.UID(uid), ResourceVersion: rv, Labels: lbls,
	}}
}

// source is a ListerWatcher that plays a server: it lists what it holds, filtered as a sharded or
// label-selected server would, and sends the events a test gives it on the first watch.
type source struct {
	mu      sync.Mutex
	listRV  string
	objects []*corev1.ConfigMap
	filter  func(*corev1.ConfigMap) bool
	events  *watch.FakeWatcher
}

func newSource(listRV string, objects ...*corev1.ConfigMap) *source {
	return &source{listRV: listRV, objects: objects, events: watch.NewFakeWithChanSize(100, false)}
}

func (s *source) List(metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: s.listRV}}
	for _, o := range s.objects {
		if s.filter == nil || s.filter(o) {
			list.Items = append(list.Items, *o.DeepCopy())
		}
	}
	return list, nil
}

func (s *source) Watch(metav1.ListOptions) (watch.Interface, error) { return s.events, nil }

func (s *source) IsWatchListSemanticsUnSupported() bool { return true }

// modify sends an update of o, unless the source's filter hides o.
func (s *source) modify(o *corev1.ConfigMap) {
	if s.filter == nil || s.filter(o) {
		s.events.Modify(o)
	}
}

// start runs an informer of src until the test ends and waits for it to sync.
func start(t *testing.T, src cache.ListerWatcher) cache.SharedIndexInformer {
	t.Helper()
	informer := cache.NewSharedIndexInformer(src, &corev1.ConfigMap{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("informer did not sync")
	}
	return informer
}

// waitAsync runs wait in a goroutine and returns its result channel.
func waitAsync(wait func() error) <-chan error {
	out := make(chan error, 1)
	go func() { out <- wait() }()
	return out
}

// canceled is a context that has ended: a wait with it returns at once, telling whether the cache
// already holds what it waits for.
func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestNoWritesNoWait(t *testing.T) {
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, newSource("5", object("ns", "a", "u1", "5", nil))))
	if err := r.WaitForObject(canceled(), "ns", "a"); err != nil {
		t.Fatalf("WaitForObject with nothing recorded: %v", err)
	}
	if err := r.WaitForCacheSync(canceled()); err != nil {
		t.Fatalf("WaitForCacheSync with nothing recorded: %v", err)
	}
}

func TestWaitForObjectUntilTheEventArrives(t *testing.T) {
	src := newSource("5", object("ns", "a", "u1", "5", nil))
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src))
	lister := consistentread.NewLister[*corev1.ConfigMap](r)

	written := object("ns", "a", "u1", "10", map[string]string{"v": "2"})
	rec.Record(configMaps, written)

	err := r.WaitForObject(canceled(), "ns", "a")
	var notObserved *consistentread.NotObservedError
	if !errors.As(err, &notObserved) || !errors.Is(err, context.Canceled) || notObserved.Write.ResourceVersion != "10" ||
		notObserved.CacheResourceVersion != "5" {
		t.Fatalf("WaitForObject before the event = %v; want a NotObservedError for version 10, cache at 5, context canceled", err)
	}
	if !strings.Contains(err.Error(), `configmaps "ns/a" written at resourceVersion 10 is not in the cache (cache at resourceVersion "5")`) {
		t.Errorf("error does not say what is missing: %v", err)
	}
	// Another object's read does not wait for this write.
	if err := r.WaitForObject(canceled(), "ns", "b"); err != nil {
		t.Fatalf("WaitForObject of an object not written: %v", err)
	}

	got := waitAsync(func() error {
		_, err := lister.Namespace("ns").Get(context.Background(), "a")
		return err
	})
	src.modify(written)
	if err := <-got; err != nil {
		t.Fatalf("Get after the event: %v", err)
	}
	cm, err := lister.Namespace("ns").Get(context.Background(), "a")
	if err != nil || cm.ResourceVersion != "10" {
		t.Fatalf("Get = %v, %v; want the written version 10", cm, err)
	}
	list, err := lister.List(context.Background(), labels.SelectorFromSet(labels.Set{"v": "2"}))
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v; want the written object", list, err)
	}
	if _, err := lister.Namespace("ns").Get(context.Background(), "missing"); !apierrors.IsNotFound(err) {
		t.Fatalf("Get of a missing object = %v, want NotFound", err)
	}
}

func TestWaitForCacheSyncWaitsForEveryWrite(t *testing.T) {
	src := newSource("5")
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src))
	lister := consistentread.NewLister[*corev1.ConfigMap](r)
	a, b := object("ns", "a", "ua", "10", nil), object("other", "b", "ub", "11", nil)
	rec.Record(configMaps, a)
	rec.Record(configMaps, b)

	src.events.Add(a)
	// a is in; b is not: a namespaced list of ns is served, the whole cache is not.
	if _, err := lister.Namespace("ns").List(context.Background(), labels.Everything()); err != nil {
		t.Fatalf("List of ns once its write is in: %v", err)
	}
	if err := r.WaitForCacheSync(canceled()); !consistentread.IsNotObserved(err) {
		t.Fatalf("WaitForCacheSync with b missing = %v, want NotObserved", err)
	}
	got := waitAsync(func() error { return r.WaitForCacheSync(context.Background()) })
	src.events.Add(b)
	if err := <-got; err != nil {
		t.Fatalf("WaitForCacheSync after both events: %v", err)
	}
	list, err := lister.List(canceled(), labels.Everything())
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %d objects, %v; want 2", len(list), err)
	}
}

func TestLaterVersionSatisfiesAWrite(t *testing.T) {
	// The cache lists past the write (another writer changed the object since): nothing to wait for.
	src := newSource("20", object("ns", "a", "u1", "15", nil))
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src))
	rec.Record(configMaps, object("ns", "a", "u1", "12", nil))
	if err := r.WaitForObject(canceled(), "ns", "a"); err != nil {
		t.Fatalf("WaitForObject with the cache past the write: %v", err)
	}
	// A bookmark past a write also shows the cache holds it.
	rec.Record(configMaps, object("ns", "b", "u2", "30", nil))
	got := waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "b") })
	src.events.Action(watch.Bookmark, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "31"}})
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject after a bookmark past the write: %v", err)
	}
}

func TestTimeout(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Now())
	src := newSource("5")
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src), consistentread.Timeout(3*time.Second), consistentread.WithClock(clock))
	rec.Record(configMaps, object("ns", "a", "u1", "10", nil))

	got := waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "a") })
	for !clock.HasWaiters() {
		time.Sleep(time.Millisecond) // until the wait has armed its timer
	}
	clock.Step(3 * time.Second)
	err := <-got
	var notObserved *consistentread.NotObservedError
	if !errors.As(err, &notObserved) || notObserved.Err != nil || notObserved.Waited != 3*time.Second {
		t.Fatalf("WaitForObject at the timeout = %#v; want a NotObservedError after 3s with no cause", err)
	}
	if want := `read-your-writes: configmaps "ns/a" written at resourceVersion 10 is not in the cache (cache at resourceVersion "5") after 3s: timed out`; err.Error() != want {
		t.Fatalf("error = %q\nwant    %q", err, want)
	}
}

func TestDeletes(t *testing.T) {
	src := newSource("5", object("ns", "gone", "u1", "4", nil), object("ns", "status", "u2", "5", nil))
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src))

	// The server answered with the deleted object: its version is the delete event's.
	rec.RecordDelete(configMaps, "ns", "gone", "", object("ns", "gone", "u1", "8", nil))
	if err := r.WaitForObject(canceled(), "ns", "gone"); !consistentread.IsNotObserved(err) {
		t.Fatalf("WaitForObject before the delete event = %v, want NotObserved", err)
	}
	got := waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "gone") })
	src.events.Delete(object("ns", "gone", "u1", "8", nil))
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject after the delete event: %v", err)
	}

	// The server answered with a Status: the object must be gone from the cache, by UID.
	rec.RecordDelete(configMaps, "ns", "status", "u2", nil)
	err := r.WaitForObject(canceled(), "ns", "status")
	if !consistentread.IsNotObserved(err) || !strings.Contains(err.Error(), `configmaps "ns/status" deleted (uid "u2") is still in the cache`) {
		t.Fatalf("WaitForObject before the delete event = %v", err)
	}
	got = waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "status") })
	src.events.Delete(object("ns", "status", "u2", "9", nil))
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject after the delete event: %v", err)
	}

	// Re-created by someone else under the same name: another UID in the cache is not the deleted one.
	rec.Record(configMaps, object("ns", "again", "u3", "10", nil))
	rec.RecordDelete(configMaps, "ns", "again", "", nil)
	got = waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "again") })
	// The create's event comes first: until it is in, the object's absence proves nothing.
	src.events.Add(object("ns", "again", "u3", "10", nil))
	src.events.Delete(object("ns", "again", "u3", "11", nil))
	src.events.Add(object("ns", "again", "u4", "12", nil))
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject after delete and re-create: %v", err)
	}
}

func TestDeleteAnsweredWithStatusWaitsForTheCreateFirst(t *testing.T) {
	src := newSource("5")
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src))
	rec.Record(configMaps, object("ns", "a", "u1", "10", nil))
	rec.RecordDelete(configMaps, "ns", "a", "", nil)
	// The cache never saw the object: its absence does not show the delete yet.
	if err := r.WaitForObject(canceled(), "ns", "a"); !consistentread.IsNotObserved(err) {
		t.Fatalf("WaitForObject before the create event = %v, want NotObserved", err)
	}
	src.events.Add(object("ns", "a", "u1", "10", nil))
	if err := r.WaitForObject(canceled(), "ns", "a"); !consistentread.IsNotObserved(err) {
		// The create's event alone shows the object, not its deletion.
		t.Fatalf("WaitForObject after the create event alone = %v, want NotObserved", err)
	}
	got := waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "a") })
	src.events.Delete(object("ns", "a", "u1", "11", nil))
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject after the delete event: %v", err)
	}
}

func TestOpaqueResourceVersions(t *testing.T) {
	src := newSource("x5", object("ns", "a", "u1", "x5", nil))
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src))
	rec.Record(configMaps, object("ns", "a", "u1", "x9", nil))
	if err := r.WaitForObject(canceled(), "ns", "a"); !consistentread.IsNotObserved(err) {
		t.Fatalf("WaitForObject before the event = %v, want NotObserved", err)
	}
	got := waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "a") })
	src.events.Modify(object("ns", "a", "u1", "x9", nil))
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject after the exact version arrived: %v", err)
	}
	// Once seen at exactly the written version, later versions keep the write satisfied.
	src.events.Modify(object("ns", "a", "u1", "y1", nil))
	if err := waitFor(t, r.Indexer(), func(cm *corev1.ConfigMap) bool { return cm.ResourceVersion == "y1" }); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitForObject(canceled(), "ns", "a"); err != nil {
		t.Fatalf("WaitForObject after a later version: %v", err)
	}
}

// waitFor waits until the informer's cache holds ns/a in the state ok accepts; it synchronises on
// the store's resourceVersion changes.
func waitFor(t *testing.T, indexer cache.Indexer, ok func(*corev1.ConfigMap) bool) error {
	t.Helper()
	notifier := indexer.(interface{ ResourceVersionChanged() <-chan struct{} })
	deadline := time.After(10 * time.Second)
	for {
		changed := notifier.ResourceVersionChanged()
		if obj, exists, _ := indexer.GetByKey("ns/a"); exists && ok(obj.(*corev1.ConfigMap)) {
			return nil
		}
		select {
		case <-changed:
		case <-deadline:
			return errors.New("the cache never reached the expected state")
		}
	}
}

func TestWaitsForTheInformerToSync(t *testing.T) {
	src := newSource("20", object("ns", "a", "u1", "20", nil))
	rec := consistency.NewRecorder()
	informer := cache.NewSharedIndexInformer(src, &corev1.ConfigMap{}, 0, cache.Indexers{})
	r := consistentread.New(rec, configMaps, informer)
	rec.Record(configMaps, object("ns", "a", "u1", "20", nil))
	err := r.WaitForCacheSync(canceled())
	if !consistentread.IsNotObserved(err) || !strings.Contains(err.Error(), "the informer has not synced") {
		t.Fatalf("WaitForCacheSync before the informer ran = %v", err)
	}
	got := waitAsync(func() error { return r.WaitForCacheSync(context.Background()) })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	if err := <-got; err != nil {
		t.Fatalf("WaitForCacheSync once the informer synced: %v", err)
	}
}

func TestStoppedInformer(t *testing.T) {
	src := newSource("5")
	informer := cache.NewSharedIndexInformer(src, &corev1.ConfigMap{}, 0, cache.Indexers{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
	cancel()
	<-done
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, informer)
	rec.Record(configMaps, object("ns", "a", "u1", "10", nil))
	err := r.WaitForObject(context.Background(), "ns", "a")
	if !consistentread.IsNotObserved(err) || !strings.HasSuffix(err.Error(), ": the informer stopped") {
		t.Fatalf("WaitForObject on a stopped informer = %v", err)
	}
}

// plainInformer hides the store's change notifications, as an Indexer not from runtime/cache would.
type plainInformer struct {
	cache.SharedIndexInformer
}

func (p plainInformer) GetIndexer() cache.Indexer {
	return struct{ cache.Indexer }{p.SharedIndexInformer.GetIndexer()}
}

func TestPollsStoresWithoutNotifications(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Now())
	src := newSource("5")
	rec := consistency.NewRecorder()
	informer := start(t, src)
	r := consistentread.New(rec, configMaps, plainInformer{informer}, consistentread.WithClock(clock))
	rec.Record(configMaps, object("ns", "a", "u1", "10", nil))
	got := waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "a") })
	src.events.Add(object("ns", "a", "u1", "10", nil))
	if err := waitFor(t, informer.GetIndexer(), func(*corev1.ConfigMap) bool { return true }); err != nil {
		t.Fatal(err)
	}
	// The wait looks again at each poll: step the clock until it does.
	for {
		select {
		case err := <-got:
			if err != nil {
				t.Fatalf("WaitForObject of a polled store: %v", err)
			}
			return
		default:
		}
		if clock.HasWaiters() {
			clock.Step(10 * time.Millisecond)
		}
		time.Sleep(time.Millisecond)
	}
}

// uidOwnedBy returns a UID the partition gives to member, as the API server's sharded watch does.
func uidOwnedBy(p *sharding.Partition, member string) types.UID {
	for i := 0; ; i++ {
		uid := fmt.Sprintf("uid-%d", i)
		if p.Owner(sharding.ServerHash(uid)) == member {
			return types.UID(uid)
		}
	}
}

func TestShardedInformer(t *testing.T) {
	partition := sharding.NewPartition([]string{"me", "other"})
	mine, theirs := uidOwnedBy(partition, "me"), uidOwnedBy(partition, "other")
	ownedByMe := func(uid types.UID) bool { return partition.Owner(sharding.ServerHash(string(uid))) == "me" }

	src := newSource("5")
	src.filter = func(o *corev1.ConfigMap) bool { return ownedByMe(o.UID) } // the server's shard selector
	informer := start(t, src)
	rec := consistency.NewRecorder()
	sharded := consistentread.New(rec, configMaps, informer,
		consistentread.Covers(func(w consistency.Write) bool { return ownedByMe(w.UID) }))
	unaware := consistentread.New(rec, configMaps, informer)

	outside := object("ns", "theirs", string(theirs), "10", nil)
	rec.Record(configMaps, outside)
	src.modify(outside) // never reaches this replica's informer
	if err := sharded.WaitForObject(canceled(), "ns", "theirs"); err != nil {
		t.Fatalf("WaitForObject of an object outside the share: %v", err)
	}
	if err := sharded.WaitForCacheSync(canceled()); err != nil {
		t.Fatalf("WaitForCacheSync with a write outside the share: %v", err)
	}
	// Without Covers the reader cannot tell: it waits, bounded by its timeout.
	if err := unaware.WaitForObject(canceled(), "ns", "theirs"); !consistentread.IsNotObserved(err) {
		t.Fatalf("WaitForObject without Covers = %v, want NotObserved", err)
	}

	inside := object("ns", "mine", string(mine), "11", nil)
	rec.Record(configMaps, inside)
	if err := sharded.WaitForCacheSync(canceled()); !consistentread.IsNotObserved(err) {
		t.Fatalf("WaitForCacheSync before the share's event = %v, want NotObserved", err)
	}
	got := waitAsync(func() error {
		_, err := consistentread.NewLister[*corev1.ConfigMap](sharded).List(context.Background(), labels.Everything())
		return err
	})
	src.modify(inside)
	if err := <-got; err != nil {
		t.Fatalf("List after the share's event: %v", err)
	}
	// The event of the share's object brought the cache past the other write too.
	if err := unaware.WaitForObject(canceled(), "ns", "theirs"); err != nil {
		t.Fatalf("WaitForObject without Covers once the cache passed the write: %v", err)
	}
}

func TestLabelShardedInformer(t *testing.T) {
	shardLabel := sharding.ShardLabel("ring")
	src := newSource("5")
	src.filter = func(o *corev1.ConfigMap) bool { return o.Labels[shardLabel] == "me" } // the label selector
	rec := consistency.NewRecorder()
	r := consistentread.New(rec, configMaps, start(t, src),
		consistentread.Covers(func(w consistency.Write) bool { return w.Labels[shardLabel] == "me" }))

	// Created without a shard label yet (the coordinator adds it): not this informer's to wait for.
	rec.Record(configMaps, object("ns", "new", "u1", "10", nil))
	if err := r.WaitForObject(canceled(), "ns", "new"); err != nil {
		t.Fatalf("WaitForObject of an unlabelled object: %v", err)
	}
	labelled := object("ns", "new", "u1", "12", map[string]string{shardLabel: "me"})
	rec.Record(configMaps, labelled)
	got := waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "new") })
	src.modify(labelled)
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject of a labelled object after its event: %v", err)
	}
	// Deleted with a Status answer: the delete keeps the labels of the write before it.
	rec.RecordDelete(configMaps, "ns", "new", "", nil)
	if err := r.WaitForObject(canceled(), "ns", "new"); !consistentread.IsNotObserved(err) {
		t.Fatalf("WaitForObject before the delete event = %v, want NotObserved", err)
	}
	got = waitAsync(func() error { return r.WaitForObject(context.Background(), "ns", "new") })
	src.events.Delete(object("ns", "new", "u1", "13", map[string]string{shardLabel: "me"}))
	if err := <-got; err != nil {
		t.Fatalf("WaitForObject after the delete event: %v", err)
	}
}
