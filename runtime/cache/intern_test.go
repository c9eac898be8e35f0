package cache

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fresh returns a copy of s in its own memory, as a decoder produces it.
func fresh(s string) string { return string([]byte(s)) }

func sameData(a, b string) bool { return sameString(a, b) }

func internPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: fresh(name), Namespace: fresh("team-a"), GenerateName: fresh("web-"),
		Labels:          map[string]string{fresh("app"): fresh("web")},
		Annotations:     map[string]string{fresh("note"): fresh("x"), fresh("big"): fresh(strings.Repeat("y", internMaxLen+1))},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: fresh("apps/v1"), Kind: fresh("ReplicaSet"), Name: fresh("web-1"), UID: "u1"}},
		Finalizers:      []string{fresh("example.com/cleanup")},
	}}
}

// Objects queued for the cache share one copy of their repeated metadata strings, and keep their values.
func TestQueueInternsRepeatedMetadata(t *testing.T) {
	q := newEventQueue(noopMetric{})
	q.sharer = nil // sharing equal parts would share the long annotation too
	a, b := internPod("a"), internPod("b")
	want := internPod("b")
	_ = q.Add(a)
	_ = q.Add(b)
	if !reflect.DeepEqual(b, want) {
		t.Fatalf("interning changed the object: %+v", b.ObjectMeta)
	}
	labelKey := func(p *corev1.Pod) string {
		for k := range p.Labels {
			return k
		}
		return ""
	}
	for what, pair := range map[string][2]string{
		"namespace":            {a.Namespace, b.Namespace},
		"generateName":         {a.GenerateName, b.GenerateName},
		"label key":            {labelKey(a), labelKey(b)},
		"label value":          {a.Labels["app"], b.Labels["app"]},
		"annotation value":     {a.Annotations["note"], b.Annotations["note"]},
		"owner apiVersion":     {a.OwnerReferences[0].APIVersion, b.OwnerReferences[0].APIVersion},
		"owner kind":           {a.OwnerReferences[0].Kind, b.OwnerReferences[0].Kind},
		"owner name":           {a.OwnerReferences[0].Name, b.OwnerReferences[0].Name},
		"finalizer":            {a.Finalizers[0], b.Finalizers[0]},
		"long annotation (no)": {a.Annotations["big"], b.Annotations["big"]},
	} {
		if shared := sameData(pair[0], pair[1]); shared != !strings.HasSuffix(what, "(no)") {
			t.Errorf("%s: shared %v", what, shared)
		}
	}
}

// The table forgets strings not looked up during a whole generation, and keeps those still in use.
func TestInternerGenerations(t *testing.T) {
	in := newInterner()
	used, unused := in.intern(fresh("used")), in.intern(fresh("unused"))
	for i := range 2 * internGeneration {
		in.intern(strconv.Itoa(i))
		if i%1000 == 0 {
			in.intern(fresh("used"))
		}
	}
	if got := in.intern(fresh("used")); !sameData(got, used) {
		t.Error("a string in use was forgotten")
	}
	if got := in.intern(fresh("unused")); sameData(got, unused) {
		t.Error("a string out of use is still held")
	}
	if n := len(in.cur) + len(in.prev); n > 2*internGeneration+1 {
		t.Errorf("table holds %d strings; want at most two generations", n)
	}
}
