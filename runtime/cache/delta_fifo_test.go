package cache

import (
	"errors"
	"slices"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// popDeltas pops one item and returns its deltas.
func popDeltas(t *testing.T, f *DeltaFIFO) Deltas {
	t.Helper()
	var got Deltas
	if _, err := f.Pop(func(obj any, _ bool) error {
		got = obj.(Deltas)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

func deltaTypes(d Deltas) []DeltaType {
	var out []DeltaType
	for _, x := range d {
		out = append(out, x.Type)
	}
	return out
}

func TestDeltaFIFOGroupsDeltasPerObjectInOrder(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Add(pod("ns", "b", "1", nil))
	_ = f.Update(pod("ns", "a", "2", nil))
	_ = f.Delete(pod("ns", "a", "3", nil))
	d := popDeltas(t, f)
	if !slices.Equal(deltaTypes(d), []DeltaType{Added, Updated, Deleted}) {
		t.Errorf("deltas of a = %v", deltaTypes(d))
	}
	if d.Oldest().Object.(*corev1.Pod).ResourceVersion != "1" || d.Newest().Object.(*corev1.Pod).ResourceVersion != "3" {
		t.Error("Oldest/Newest wrong")
	}
	if d := popDeltas(t, f); d.Newest().Object.(*corev1.Pod).Name != "b" {
		t.Error("b not second")
	}
	if (Deltas{}).Oldest() != nil || (Deltas{}).Newest() != nil {
		t.Error("empty Deltas has an oldest or newest")
	}
}

func TestDeltaFIFOCollapsesConsecutiveDeletions(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(pod("ns", "a", "1", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	_ = f.Delete(pod("ns", "a", "2", nil))
	_ = f.Delete(DeletedFinalStateUnknown{Key: "ns/a"})
	_ = f.Delete(pod("ns", "a", "3", nil))
	d := popDeltas(t, f)
	if len(d) != 1 || d[0].Type != Deleted {
		t.Fatalf("deltas = %v", deltaTypes(d))
	}
	if d[0].Object.(*corev1.Pod).ResourceVersion != "3" {
		t.Errorf("kept %v; want the newest real object", d[0].Object)
	}
}

func TestDeltaFIFOIgnoresDeleteOfUnknownObject(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: NewStore(MetaNamespaceKeyFunc)})
	_ = f.Delete(pod("ns", "ghost", "1", nil))
	if keys := f.ListKeys(); len(keys) != 0 {
		t.Errorf("queued %v", keys)
	}
}

func TestDeltaFIFOReplaceDetectsDeletions(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(pod("ns", "kept", "1", nil))
	_ = known.Add(pod("ns", "gone", "1", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	_ = f.Add(pod("ns", "queued-gone", "1", nil))
	if err := f.Replace([]any{pod("ns", "kept", "2", nil), pod("ns", "new", "1", nil)}, "5"); err != nil {
		t.Fatal(err)
	}
	got := map[string][]DeltaType{}
	tombs := map[string]any{}
	for range 4 {
		d := popDeltas(t, f)
		key, _ := f.KeyOf(d)
		got[key] = deltaTypes(d)
		if tomb, ok := d.Newest().Object.(DeletedFinalStateUnknown); ok {
			tombs[key] = tomb.Obj
		}
	}
	want := map[string][]DeltaType{
		"ns/kept": {Replaced}, "ns/new": {Replaced},
		"ns/gone": {Deleted}, "ns/queued-gone": {Added, Deleted},
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("%s: %v, want %v", k, got[k], w)
		}
	}
	if tombs["ns/gone"].(*corev1.Pod).ResourceVersion != "1" {
		t.Errorf("tombstone of a known object should carry its last state, got %v", tombs["ns/gone"])
	}
	if tombs["ns/queued-gone"].(*corev1.Pod).Name != "queued-gone" {
		t.Errorf("tombstone of a queued object should carry its newest state, got %v", tombs["ns/queued-gone"])
	}

	// Without EmitDeltaTypeReplaced, Replace emits Sync.
	f = NewDeltaFIFO(MetaNamespaceKeyFunc, nil)
	_ = f.Replace([]any{pod("ns", "a", "1", nil)}, "1")
	if d := popDeltas(t, f); !slices.Equal(deltaTypes(d), []DeltaType{Sync}) {
		t.Errorf("deltas = %v, want [Sync]", deltaTypes(d))
	}
}

func TestDeltaFIFOHasSyncedAfterFirstReplacePopped(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	if f.HasSynced() {
		t.Fatal("synced before anything happened")
	}
	_ = f.Replace([]any{pod("ns", "a", "1", nil), pod("ns", "b", "1", nil)}, "1")
	_ = f.Add(pod("ns", "c", "1", nil))
	var initial []bool
	for range 3 {
		if f.HasSynced() && len(initial) < 2 {
			t.Fatal("synced before the initial list was popped")
		}
		_, _ = f.Pop(func(_ any, isInInitialList bool) error {
			initial = append(initial, isInInitialList)
			return nil
		})
		if len(initial) == 2 && !f.HasSynced() {
			t.Fatal("not synced after the initial list was popped")
		}
	}
	if !slices.Equal(initial, []bool{true, true, false}) {
		t.Errorf("isInInitialList = %v", initial)
	}
	if !IsDone(f.HasSyncedChecker()) {
		t.Error("HasSyncedChecker not done")
	}
}

func TestDeltaFIFORequeue(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	_ = f.Add(pod("ns", "a", "1", nil))
	boom := errors.New("boom")
	_, err := f.Pop(func(any, bool) error { return ErrRequeue{Err: boom} })
	if !errors.Is(err, boom) {
		t.Errorf("Pop error = %v", err)
	}
	if d := popDeltas(t, f); !slices.Equal(deltaTypes(d), []DeltaType{Added}) {
		t.Errorf("requeued deltas = %v", deltaTypes(d))
	}
	if err := f.AddIfNotPresent(pod("ns", "a", "1", nil)); err == nil {
		t.Error("AddIfNotPresent accepted a non-Deltas object")
	}
}

// waitReporter is a DeltaFIFO's lock as its condition variable sees it: only sync.Cond.Wait unlocks it
// through this view, so each Unlock reports a waiter.
type waitReporter struct {
	*sync.Mutex
	waiting chan<- struct{}
}

func (l waitReporter) Unlock() {
	l.Mutex.Unlock()
	select {
	case l.waiting <- struct{}{}:
	default:
	}
}

func TestDeltaFIFOCloseUnblocksPop(t *testing.T) {
	checkLeaks(t)
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	waiting := make(chan struct{}, 1)
	f.cond.L = waitReporter{&f.lock, waiting}
	errc := make(chan error)
	go func() {
		_, err := f.Pop(func(any, bool) error { return nil })
		errc <- err
	}()
	<-waiting // Pop is blocked on the empty queue
	f.Close()
	if err := <-errc; !errors.Is(err, ErrFIFOClosed) {
		t.Errorf("Pop after Close = %v", err)
	}
	if !f.IsClosed() {
		t.Error("IsClosed false")
	}
}

func TestDeltaFIFOTransformAppliedOnce(t *testing.T) {
	calls := 0
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{Transformer: func(obj any) (any, error) {
		calls++
		return obj, nil
	}})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Update(pod("ns", "a", "2", nil))
	_ = f.Replace([]any{pod("ns", "a", "3", nil)}, "3")
	_ = f.Delete(DeletedFinalStateUnknown{Key: "ns/a"})
	if calls != 3 {
		t.Errorf("transform called %d times, want 3 (not for tombstones)", calls)
	}
	if f.Transformer() == nil {
		t.Error("Transformer() nil")
	}
}

func TestDeltaFIFOResync(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(pod("ns", "a", "1", nil))
	_ = known.Add(pod("ns", "b", "1", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	_ = f.Update(pod("ns", "b", "2", nil))
	if err := f.Resync(); err != nil {
		t.Fatal(err)
	}
	a, _, _ := f.GetByKey("ns/a")
	b, _, _ := f.Get(pod("ns", "b", "", nil))
	if !slices.Equal(deltaTypes(a.(Deltas)), []DeltaType{Sync}) || !slices.Equal(deltaTypes(b.(Deltas)), []DeltaType{Updated}) {
		t.Errorf("a = %v, b = %v; a pending object is not resynced", deltaTypes(a.(Deltas)), deltaTypes(b.(Deltas)))
	}
	if len(f.List()) != 2 {
		t.Errorf("List = %v", f.List())
	}
}
