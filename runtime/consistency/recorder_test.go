package consistency_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kgen-dev/kgen/runtime/consistency"
)

var configMaps = schema.GroupResource{Resource: "configmaps"}

func object(ns, name, uid, rv string, labels map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: name, UID: types.UID(uid), ResourceVersion: rv, Labels: labels,
	}}
}

func TestContextCarriesRecorder(t *testing.T) {
	ctx := context.Background()
	if consistency.RecorderFrom(ctx) != nil {
		t.Fatal("a bare context carries a recorder")
	}
	if got := consistency.WithRecorder(ctx, nil); got != ctx {
		t.Fatal("WithRecorder(nil) changed the context")
	}
	rec := consistency.NewRecorder()
	if consistency.RecorderFrom(consistency.WithRecorder(ctx, rec)) != rec {
		t.Fatal("RecorderFrom did not return the recorder WithRecorder stored")
	}
}

func TestRecordKeepsLastWritePerObject(t *testing.T) {
	rec := consistency.NewRecorder()
	labels := map[string]string{"shard": "a"}
	rec.Record(configMaps, object("ns", "a", "u1", "10", labels))
	rec.Record(configMaps, object("ns", "a", "u1", "12", labels))
	rec.Record(configMaps, object("other", "b", "u2", "11", nil))
	rec.Record(configMaps, object("", "cluster", "u3", "13", nil))
	rec.Record(configMaps, object("ns", "", "u4", "14", nil))   // no name: ignored
	rec.Record(configMaps, object("ns", "norv", "u5", "", nil)) // no resourceVersion: ignored
	rec.Record(schema.GroupResource{Resource: "secrets"}, object("ns", "s", "u6", "15", nil))
	rec.Record(configMaps, (*corev1.ConfigMap)(nil)) // a nil pointer: ignored
	rec.Record(configMaps, nil)
	labels["shard"] = "changed after the write"

	rw := rec.Resource(configMaps)
	if got := rw.Count(); got != 4 {
		t.Fatalf("Count = %d, want 4", got)
	}
	w, ok := rw.Last("ns/a")
	if !ok || w.ResourceVersion != "12" || w.UID != "u1" || w.Deleted || w.Labels["shard"] != "a" {
		t.Fatalf("Last(ns/a) = %+v, %v; want the write at 12 with its own copy of the labels", w, ok)
	}
	if w, ok := rw.Last("cluster"); !ok || w.Key() != "cluster" {
		t.Fatalf("Last(cluster) = %+v, %v", w, ok)
	}
	for _, key := range []string{"ns/", "ns/norv", "ns/s"} {
		if _, ok := rw.Last(key); ok {
			t.Errorf("Last(%q) found a write that should not have been recorded", key)
		}
	}
	if got := len(rw.Writes("")); got != 3 {
		t.Errorf("Writes(\"\") has %d writes, want 3", got)
	}
	if got := rw.Writes("other"); len(got) != 1 || got[0].Name != "b" {
		t.Errorf("Writes(other) = %+v, want b alone", got)
	}
}

func TestRecordDelete(t *testing.T) {
	rec := consistency.NewRecorder()
	rw := rec.Resource(configMaps)
	rec.Record(configMaps, object("ns", "a", "u1", "10", map[string]string{"k": "v"}))

	// Answered with a Status: the delete inherits the last write's UID, labels and version.
	rec.RecordDelete(configMaps, "ns", "a", "", nil)
	w, _ := rw.Last("ns/a")
	if !w.Deleted || w.ResourceVersion != "" || w.UID != "u1" || w.PreviousResourceVersion != "10" || w.Labels["k"] != "v" {
		t.Fatalf("delete answered with a Status recorded as %+v", w)
	}

	// A precondition naming another UID removed another object: nothing is inherited.
	rec.Record(configMaps, object("ns", "b", "u2", "11", nil))
	rec.RecordDelete(configMaps, "ns", "b", "u9", nil)
	if w, _ := rw.Last("ns/b"); w.UID != "u9" || w.PreviousResourceVersion != "" {
		t.Fatalf("delete with another UID's precondition recorded as %+v", w)
	}

	// A nil pointer for the response is no response.
	rec.RecordDelete(configMaps, "ns", "nilresponse", "u7", (*corev1.ConfigMap)(nil))
	if w, _ := rw.Last("ns/nilresponse"); !w.Deleted || w.ResourceVersion != "" || w.UID != "u7" {
		t.Fatalf("delete with a nil pointer response recorded as %+v", w)
	}

	// Answered with the object: its version and UID are the delete's.
	rec.RecordDelete(configMaps, "ns", "c", "", object("ns", "c", "u3", "20", nil))
	if w, _ := rw.Last("ns/c"); !w.Deleted || w.ResourceVersion != "20" || w.UID != "u3" {
		t.Fatalf("delete answered with the object recorded as %+v", w)
	}
}

func TestRetentionForgetsOldWrites(t *testing.T) {
	clock := clocktesting.NewFakePassiveClock(time.Now())
	rec := consistency.NewRecorder(consistency.Retention(time.Minute), consistency.WithClock(clock))
	rw := rec.Resource(configMaps)
	rec.Record(configMaps, object("ns", "old", "u1", "10", nil))
	clock.SetTime(clock.Now().Add(time.Minute + time.Second))
	if _, ok := rw.Last("ns/old"); ok {
		t.Fatal("a write older than the retention is still remembered")
	}
	if got := rw.Writes(""); len(got) != 0 {
		t.Fatalf("Writes lists expired writes: %+v", got)
	}
	// Enough new writes prune the expired one from memory; the new ones stay.
	for i := range 100 {
		rec.Record(configMaps, object("ns", "new"+string(rune('a'+i%26))+string(rune('a'+i/26)), "u", "11", nil))
	}
	if got := len(rw.Writes("")); got != 100 {
		t.Fatalf("Writes has %d writes, want the 100 fresh ones", got)
	}
	if _, ok := rw.Last("ns/new" + "aa"); !ok {
		t.Fatal("a fresh write was forgotten")
	}
}

func TestRecordsSubresource(t *testing.T) {
	for _, c := range []struct {
		sub  []string
		want bool
	}{{nil, true}, {[]string{"status"}, true}, {[]string{"scale"}, false}, {[]string{"eviction"}, false}, {[]string{"status", "x"}, false}} {
		if got := consistency.RecordsSubresource(c.sub); got != c.want {
			t.Errorf("RecordsSubresource(%q) = %v, want %v", c.sub, got, c.want)
		}
	}
}

func TestSummary(t *testing.T) {
	rec := consistency.NewRecorder()
	rw := rec.Resource(configMaps)
	if count, maxVersion, unversionedAt := rw.Summary(); count != 0 || maxVersion != "" || unversionedAt != 0 {
		t.Fatalf("empty Summary = %d, %q, %d", count, maxVersion, unversionedAt)
	}
	rec.Record(configMaps, object("ns", "a", "u1", "9", nil))
	rec.Record(configMaps, object("ns", "b", "u2", "100", nil))
	rec.Record(configMaps, object("ns", "a", "u1", "20", nil)) // older than 100: the maximum stays
	if count, maxVersion, unversionedAt := rw.Summary(); count != 3 || maxVersion != "100" || unversionedAt != 0 {
		t.Fatalf("Summary = %d, %q, %d; want 3, 100, 0", count, maxVersion, unversionedAt)
	}
	rec.RecordDelete(configMaps, "ns", "a", "", nil)                 // a Status: no version
	rec.Record(configMaps, object("ns", "c", "u3", "opaque-7", nil)) // not an integer
	rec.Record(configMaps, object("ns", "d", "u4", "101", nil))
	if count, maxVersion, unversionedAt := rw.Summary(); count != 6 || maxVersion != "101" || unversionedAt != 5 {
		t.Fatalf("Summary = %d, %q, %d; want 6, 101, 5", count, maxVersion, unversionedAt)
	}
}

func TestPreconditionUID(t *testing.T) {
	if got := consistency.PreconditionUID(metav1.DeleteOptions{}); got != "" {
		t.Fatalf("PreconditionUID without preconditions = %q", got)
	}
	if got := consistency.PreconditionUID(*metav1.NewRVDeletionPrecondition("5")); got != "" {
		t.Fatalf("PreconditionUID with a resourceVersion precondition = %q", got)
	}
	if got := consistency.PreconditionUID(metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions("u1")}); got != "u1" {
		t.Fatalf("PreconditionUID = %q, want u1", got)
	}
}
