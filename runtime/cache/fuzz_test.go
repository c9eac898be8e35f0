package cache

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// fuzzPod builds a Pod whose "tags" label drives a multi-valued index.
func fuzzPod(key byte, rv int, tags byte) *corev1.Pod {
	var values []string
	for bit := range 3 {
		if tags&(1<<bit) != 0 {
			values = append(values, "t"+strconv.Itoa(bit))
		}
	}
	labels := map[string]string{}
	if len(values) > 0 {
		labels["tags"] = fmt.Sprint(values)[1 : len(fmt.Sprint(values))-1]
	}
	return pod("ns"+strconv.Itoa(int(key%2)), "p"+strconv.Itoa(int(key%8)), strconv.Itoa(rv), labels)
}

func tagsIndex(obj any) ([]string, error) {
	v := obj.(*corev1.Pod).Labels["tags"]
	if v == "" {
		return nil, nil
	}
	return slices.Compact(slices.Sorted(slices.Values(splitSpaces(v)))), nil
}

func splitSpaces(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// checkIndexInvariants recomputes every index from the stored objects and compares.
func checkIndexInvariants(t *testing.T, s *threadSafeMap) {
	t.Helper()
	s.lock.RLock()
	defer s.lock.RUnlock()
	for name, f := range s.indexers {
		want := Index{}
		for key, obj := range s.items {
			values, _ := f(obj)
			for _, v := range values {
				if want[v] == nil {
					want[v] = sets.Set[string]{}
				}
				want[v].Insert(key)
			}
		}
		got := s.indices[name]
		if len(got) != len(want) {
			t.Fatalf("index %s has values %v, want %v", name, sets.KeySet(got), sets.KeySet(want))
		}
		for v, keys := range want {
			if !got[v].Equal(keys) {
				t.Fatalf("index %s value %s = %v, want %v", name, v, got[v], keys)
			}
		}
	}
}

func FuzzThreadSafeStoreIndexes(f *testing.F) {
	f.Add([]byte{0, 1, 7, 1, 1, 3, 2, 1, 0, 3, 2, 5})
	f.Add([]byte{0, 0, 1, 0, 1, 2, 0, 2, 4, 4, 0, 0, 5, 3, 3})
	f.Add([]byte{3, 1, 7, 0, 3, 3, 4, 0, 0, 2, 3, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		s := newThreadSafeMap(Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, 0)
		rv := 0
		for i := 0; i+2 < len(ops); i += 3 {
			op, key, tags := ops[i]%6, ops[i+1], ops[i+2]
			rv++
			p := fuzzPod(key, rv, tags)
			k, _ := MetaNamespaceKeyFunc(p)
			switch op {
			case 0, 1:
				s.Add(k, p)
			case 2:
				s.Delete(k)
			case 3:
				items := map[string]any{}
				for j := range tags % 4 {
					q := fuzzPod(key+j, rv, tags>>j)
					qk, _ := MetaNamespaceKeyFunc(q)
					items[qk] = q
				}
				s.Replace(items, strconv.Itoa(rv))
			case 4:
				if _, ok := s.indexers["tags"]; !ok {
					if err := s.AddIndexers(Indexers{"tags": tagsIndex}); err != nil {
						t.Fatal(err)
					}
				}
			case 5:
				s.Update(k, p)
			}
			checkIndexInvariants(t, s)
		}
	})
}

// fifoModel is a straightforward model of DeltaFIFO's documented behaviour. Keys queued by one
// Replace or Resync may come out in any order among themselves, so each queued key carries the
// operation that queued it.
type fifoModel struct {
	queue []queued
	op    int
	items map[string][]string // key → deltas rendered as "Type:rv" or "Type:tomb:rv"
	last  map[string]string   // key → rv of the newest object in items, "" for none
}

func renderObj(obj any) string {
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		if tomb.Obj == nil {
			return "tomb:"
		}
		return "tomb:" + tomb.Obj.(*corev1.Pod).ResourceVersion
	}
	return obj.(*corev1.Pod).ResourceVersion
}

type queued struct {
	key string
	op  int
}

func (m *fifoModel) push(key, delta string, newestRV string) {
	d := m.items[key]
	if _, isQueued := m.items[key]; !isQueued {
		m.queue = append(m.queue, queued{key, m.op})
	}
	d = append(d, delta)
	if n := len(d); n >= 2 && isDeletion(d[n-1]) && isDeletion(d[n-2]) {
		if isTomb(d[n-1]) {
			d = d[:n-1]
		} else {
			d[n-2] = d[n-1]
			d = d[:n-1]
		}
	}
	m.items[key] = d
	m.last[key] = newestRV
}

func isDeletion(d string) bool { return len(d) > 8 && d[:8] == "Deleted:" }
func isTomb(d string) bool     { return len(d) > 13 && d[8:13] == "tomb:" }

func FuzzDeltaFIFO(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 2, 1, 2, 1, 3, 2, 4, 0, 5, 0})
	f.Add([]byte{0, 1, 0, 2, 3, 3, 4, 0, 2, 1, 2, 1, 4, 0, 6, 0})
	f.Add([]byte{3, 7, 4, 0, 0, 3, 3, 0, 4, 0, 2, 3, 2, 3, 4, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		known := NewStore(MetaNamespaceKeyFunc)
		fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
		model := &fifoModel{items: map[string][]string{}, last: map[string]string{}}
		knownRV := map[string]string{}
		rv := 0
		for i := 0; i+1 < len(ops); i += 2 {
			op, key := ops[i]%7, ops[i+1]
			rv++
			p := fuzzPod(key, rv, 0)
			k, _ := MetaNamespaceKeyFunc(p)
			r := strconv.Itoa(rv)
			model.op++
			switch op {
			case 0:
				_ = fifo.Add(p)
				model.push(k, "Added:"+r, r)
			case 1:
				_ = fifo.Update(p)
				model.push(k, "Updated:"+r, r)
			case 2:
				_ = fifo.Delete(p)
				_, queued := model.items[k]
				_, isKnown := knownRV[k]
				if queued || isKnown {
					model.push(k, "Deleted:"+r, r)
				}
			case 3:
				var list []any
				listed := map[string]bool{}
				for j := range key % 4 {
					q := fuzzPod(key+j*3, rv, 0)
					qk, _ := MetaNamespaceKeyFunc(q)
					list = append(list, q)
					listed[qk] = true
				}
				if err := fifo.Replace(list, r); err != nil {
					t.Fatal(err)
				}
				for _, q := range list {
					qk, _ := MetaNamespaceKeyFunc(q)
					model.push(qk, "Replaced:"+r, r)
				}
				for _, qk := range slices.Sorted(maps(model.items)) {
					if !listed[qk] {
						model.push(qk, "Deleted:tomb:"+model.last[qk], model.last[qk])
					}
				}
				for qk, krv := range knownRV {
					if !listed[qk] && len(model.items[qk]) == 0 {
						model.push(qk, "Deleted:tomb:"+krv, krv)
					}
				}
			case 4, 5:
				if len(model.queue) == 0 {
					continue
				}
				var got []string
				var gotKey string
				_, err := fifo.Pop(func(obj any, _ bool) error {
					gotKey, _ = fifo.KeyOf(obj)
					for _, d := range obj.(Deltas) {
						got = append(got, string(d.Type)+":"+renderObj(d.Object))
						switch d.Type {
						case Deleted:
							_ = known.Delete(d.Object)
						default:
							_ = known.Update(d.Object)
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				at := slices.IndexFunc(model.queue, func(q queued) bool { return q.key == gotKey })
				if at < 0 || model.queue[at].op != model.queue[0].op {
					t.Fatalf("popped %s, model queue is %v", gotKey, model.queue)
				}
				model.queue = slices.Delete(model.queue, at, at+1)
				want := model.items[gotKey]
				delete(model.items, gotKey)
				delete(model.last, gotKey)
				if !slices.Equal(got, want) {
					t.Fatalf("popped %v for %s, model says %v", got, gotKey, want)
				}
				knownRV = map[string]string{}
				for _, obj := range known.List() {
					kk, _ := MetaNamespaceKeyFunc(obj)
					knownRV[kk] = obj.(*corev1.Pod).ResourceVersion
				}
			case 6:
				_ = fifo.Resync()
				for _, kk := range slices.Sorted(maps(knownRV)) {
					if len(model.items[kk]) == 0 {
						model.push(kk, "Sync:"+knownRV[kk], knownRV[kk])
					}
				}
			}
			if got, want := len(fifo.ListKeys()), len(model.items); got != want {
				t.Fatalf("queue holds %d keys, model %d", got, want)
			}
		}
	})
}

func maps[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
