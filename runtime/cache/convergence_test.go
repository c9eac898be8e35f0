package cache

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
)

// handlerModel replays a handler's notifications and records every inconsistency: an update or
// delete for an object it never saw added, an add for one it already has, or an update whose old
// object is not the last one it was given.
type handlerModel struct {
	mu       sync.Mutex
	objects  map[string]string // key → resourceVersion
	problems []string
}

func newHandlerModel() *handlerModel { return &handlerModel{objects: map[string]string{}} }

func (m *handlerModel) fail(format string, args ...any) {
	if len(m.problems) < 10 {
		m.problems = append(m.problems, fmt.Sprintf(format, args...))
	}
}

func (m *handlerModel) OnAdd(obj any, _ bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cm := obj.(*corev1.ConfigMap)
	key := cmKey(cm.Namespace, cm.Name)
	if _, ok := m.objects[key]; ok {
		m.fail("add for %s, which the handler already has", key)
	}
	m.objects[key] = cm.ResourceVersion
}

func (m *handlerModel) OnUpdate(oldObj, newObj any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	oldCM, newCM := oldObj.(*corev1.ConfigMap), newObj.(*corev1.ConfigMap)
	key := cmKey(newCM.Namespace, newCM.Name)
	rv, ok := m.objects[key]
	switch {
	case !ok:
		m.fail("update for %s, which the handler never saw added", key)
	case rv != oldCM.ResourceVersion:
		m.fail("update for %s from rv %s, but the handler last saw rv %s", key, oldCM.ResourceVersion, rv)
	}
	if n, o := rvNumber(newCM.ResourceVersion), rvNumber(rv); ok && n < o {
		m.fail("update for %s goes back from rv %s to %s", key, rv, newCM.ResourceVersion)
	}
	m.objects[key] = newCM.ResourceVersion
}

func (m *handlerModel) OnDelete(obj any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		m.fail("delete with unusable object %T: %v", obj, err)
		return
	}
	if _, ok := m.objects[key]; !ok {
		m.fail("delete for %s, which the handler never saw added", key)
	}
	delete(m.objects, key)
}

func (m *handlerModel) state() (map[string]string, []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]string, len(m.objects))
	for k, v := range m.objects {
		out[k] = v
	}
	return out, append([]string(nil), m.problems...)
}

func rvNumber(rv string) uint64 {
	n, _ := strconv.ParseUint(rv, 10, 64)
	return n
}

func storeSnapshot(store Store) map[string]string {
	out := map[string]string{}
	for _, obj := range store.List() {
		cm := obj.(*corev1.ConfigMap)
		out[cmKey(cm.Namespace, cm.Name)] = cm.ResourceVersion
	}
	return out
}

func diffSnapshots(want, got map[string]string) string {
	var diffs []string
	for k, v := range want {
		if got[k] != v {
			diffs = append(diffs, fmt.Sprintf("%s: want rv %q, got %q", k, v, got[k]))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: unexpected (rv %s)", k, v))
		}
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], fmt.Sprintf("... and %d more", len(diffs)-5))
	}
	return fmt.Sprint(diffs)
}

// fastBackoff keeps fault-heavy tests quick.
var fastBackoff = &wait.Backoff{Duration: time.Millisecond, Factor: 2, Jitter: 1, Cap: 20 * time.Millisecond}

// TestConvergence drives an informer through random changes and faults (watch drops, compaction with
// 410 Gone, transport errors on list and watch, error events, bookmarks, handlers added and removed
// mid-stream) and checks that the cache ends equal to the source and that every handler saw a
// consistent history ending in the same state.
func TestConvergence(t *testing.T) {
	checkLeaks(t)
	for seed := range uint64(48) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			runConvergence(t, seed)
		})
	}
}

func runConvergence(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed*7919+1))
	src := newSource()
	for i := range 30 {
		src.apply(watch.Added, "ns"+strconv.Itoa(i%3), "cm"+strconv.Itoa(i), "0")
	}
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{
		Indexers:             Indexers{NamespaceIndex: MetaNamespaceIndexFunc},
		ResyncPeriod:         time.Duration(seed%2) * 50 * time.Millisecond,
		DisableWatchList:     seed%3 == 0,
		Backoff:              fastBackoff,
		WatchListIdleTimeout: time.Second,
	})
	models := []*handlerModel{newHandlerModel(), newHandlerModel()}
	for _, m := range models {
		if _, err := informer.AddEventHandler(m); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.Run(stop)
	}()
	defer func() {
		close(stop)
		<-done
		src.stopAll()
	}()

	var late *handlerModel
	var lateReg ResourceEventHandlerRegistration
	for step := range 400 {
		ns, name := "ns"+strconv.Itoa(rng.IntN(3)), "cm"+strconv.Itoa(rng.IntN(60))
		switch r := rng.IntN(100); {
		case r < 35:
			src.apply(watch.Added, ns, name, strconv.Itoa(step))
		case r < 65:
			src.apply(watch.Modified, ns, name, strconv.Itoa(step))
		case r < 85:
			src.apply(watch.Deleted, ns, name, "")
		case r < 88:
			src.closeWatches()
		case r < 90:
			src.compact()
			src.sendError(&metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old resource version"})
		case r < 92:
			src.mu.Lock()
			src.failLists, src.failWatches = 1, 1
			src.mu.Unlock()
			src.closeWatches()
		case r < 94:
			src.bookmark()
		case r < 95:
			src.compact()
			src.closeWatches()
		case r < 96:
			src.mu.Lock()
			src.expireContinue = true
			src.mu.Unlock()
		case r < 97:
			src.sendRaw(watch.Event{Type: watch.Added, Object: &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "wrong-type", ResourceVersion: "1"}}})
		case r < 98 && late == nil:
			late = newHandlerModel()
			reg, err := informer.AddEventHandler(late)
			if err != nil {
				t.Fatal(err)
			}
			lateReg = reg
		case r < 99:
			if reg, err := informer.AddEventHandler(newHandlerModel()); err == nil {
				if err := informer.RemoveEventHandler(reg); err != nil {
					t.Fatal(err)
				}
			}
		}
		if rng.IntN(20) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if late != nil {
		models = append(models, late)
		if !WaitFor(t.Context(), "", lateReg.HasSyncedChecker()) {
			t.Fatal("late handler never synced")
		}
	}

	want := src.snapshot()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := storeSnapshot(informer.GetStore())
		converged := diffSnapshots(want, got) == "[]"
		for _, m := range models {
			state, _ := m.state()
			converged = converged && diffSnapshots(want, state) == "[]"
		}
		if converged {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("seed %d: store did not converge: %s", seed, diffSnapshots(want, got))
		}
		// Changes made while a watch was down arrive after the next rewatch; nudge bookmarks along.
		time.Sleep(5 * time.Millisecond)
	}
	src.mu.Lock()
	t.Logf("lists %d, watches %d, streaming lists %d", src.lists, src.watches, src.watchLists)
	src.mu.Unlock()
	for i, m := range models {
		state, problems := m.state()
		if len(problems) > 0 {
			t.Errorf("seed %d: handler %d saw an inconsistent history: %v", seed, i, problems)
		}
		if d := diffSnapshots(want, state); d != "[]" {
			t.Errorf("seed %d: handler %d ended in the wrong state: %s", seed, i, d)
		}
	}
	// The namespace index agrees with the store.
	for ns := range 3 {
		items, err := informer.GetIndexer().ByIndex(NamespaceIndex, "ns"+strconv.Itoa(ns))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for k := range want {
			if k[:4] == "ns"+strconv.Itoa(ns)+"/" {
				n++
			}
		}
		if len(items) != n {
			t.Errorf("seed %d: namespace index has %d objects in ns%d, want %d", seed, len(items), ns, n)
		}
	}
}
