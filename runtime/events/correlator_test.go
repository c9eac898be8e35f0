package events

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

// makeTestEvent builds the event a recorder on clk would produce for pod.
func makeTestEvent(clk *clocktesting.FakeClock, pod *corev1.Pod, eventtype, reason, message string) *corev1.Event {
	ref, _ := GetReference(nil, &corev1.ObjectReference{
		Kind: "Pod", APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID,
	})
	r := recorder{source: corev1.EventSource{Component: "test-controller", Host: "h"}, clock: clk}
	return r.makeEvent(ref, nil, eventtype, reason, message)
}

func newTestCorrelator(clk *clocktesting.FakeClock, opts CorrelatorOptions) *EventCorrelator {
	opts.Clock = clk
	return NewEventCorrelatorWithOptions(opts)
}

func correlate(t *testing.T, c *EventCorrelator, e *corev1.Event) *EventCorrelateResult {
	t.Helper()
	r, err := c.EventCorrelate(e)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCorrelatorDeduplicatesWithCountPatch(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := newTestCorrelator(clk, CorrelatorOptions{})
	pod := testPod("ns", "p")

	once := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeWarning, "BackOff", "restarting"))
	if once.Skip || once.Event.Count != 1 || once.Patch != nil {
		t.Fatalf("first occurrence: %+v", once)
	}
	created := once.Event.DeepCopy()
	created.ResourceVersion = "100"
	c.updateState(once.key, created)

	clk.Step(time.Minute)
	second := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeWarning, "BackOff", "restarting"))
	if second.Event.Count != 2 || second.Event.Name != once.Event.Name || second.Event.ResourceVersion != "100" {
		t.Fatalf("repeat did not continue the first Event: %+v", second.Event)
	}
	if !second.Event.FirstTimestamp.Equal(&once.Event.FirstTimestamp) || !second.Event.LastTimestamp.Time.Equal(clk.Now()) {
		t.Fatalf("timestamps: first %v last %v", second.Event.FirstTimestamp, second.Event.LastTimestamp)
	}
	var patch map[string]any
	if err := json.Unmarshal(second.Patch, &patch); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"count": float64(2), "message": "restarting",
		"lastTimestamp": metav1.NewTime(clk.Now()).UTC().Format(time.RFC3339),
	}
	if fmt.Sprint(patch) != fmt.Sprint(want) {
		t.Fatalf("patch %v, want %v", patch, want)
	}
}

func TestCorrelatorAggregatesSimilarEvents(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	c := newTestCorrelator(clk, CorrelatorOptions{BurstSize: 1000})
	pod := testPod("ns", "p")

	names := map[string]bool{}
	for i := 1; i <= 9; i++ {
		r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeWarning, "FailedMount", fmt.Sprintf("volume %d", i)))
		if r.Event.Count != 1 || strings.HasPrefix(r.Event.Message, "(combined") {
			t.Fatalf("event %d aggregated too early: %+v", i, r.Event)
		}
		names[r.Event.Name] = true
		clk.Step(time.Millisecond)
	}
	var aggregate string
	for i := 10; i <= 30; i++ {
		r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeWarning, "FailedMount", fmt.Sprintf("volume %d", i)))
		if r.Event.Message != fmt.Sprintf("(combined from similar events): volume %d", i) {
			t.Fatalf("event %d not aggregated: %q", i, r.Event.Message)
		}
		if aggregate == "" {
			aggregate = r.Event.Name
		}
		if r.Event.Name != aggregate || r.Event.Count != int32(i-9) {
			t.Fatalf("event %d: name %s count %d, want %s and %d", i, r.Event.Name, r.Event.Count, aggregate, i-9)
		}
		clk.Step(time.Millisecond)
	}
	if len(names) != 9 || names[aggregate] {
		t.Fatalf("want 9 distinct individual Events and a separate aggregate, got %v and %s", names, aggregate)
	}

	// A repeat of an early message joins the running aggregate instead of reviving its own Event.
	r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeWarning, "FailedMount", "volume 1"))
	if r.Event.Name != aggregate || r.Event.Count != 22 {
		t.Fatalf("repeat escaped the aggregate: %+v", r.Event)
	}

	// Another reason is another group.
	r = correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeWarning, "FailedScheduling", "no nodes"))
	if r.Event.Count != 1 || strings.HasPrefix(r.Event.Message, "(combined") {
		t.Fatalf("other reason aggregated: %+v", r.Event)
	}

	// After the group has been quiet for the interval, events stand alone again.
	clk.Step(601 * time.Second)
	r = correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeWarning, "FailedMount", "volume 99"))
	if r.Event.Count != 1 || strings.HasPrefix(r.Event.Message, "(combined") {
		t.Fatalf("aggregation outlived the interval: %+v", r.Event)
	}
}

func TestCorrelatorCustomAggregationOptions(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	c := newTestCorrelator(clk, CorrelatorOptions{
		MaxEvents:   2,
		MessageFunc: func(e *corev1.Event) string { return "many: " + e.Reason },
	})
	pod := testPod("ns", "p")
	correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "a"))
	r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "b"))
	if r.Event.Message != "many: Synced" {
		t.Fatalf("custom options ignored: %q", r.Event.Message)
	}
}

func TestCorrelatorSpamFilter(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	c := newTestCorrelator(clk, CorrelatorOptions{})
	pod, other := testPod("ns", "p"), testPod("ns", "other")

	for i := 1; i <= 25; i++ {
		if r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "ok")); r.Skip {
			t.Fatalf("event %d filtered inside the burst", i)
		}
	}
	if r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "ok")); !r.Skip {
		t.Fatal("26th event passed the spam filter")
	}
	// The budget is per object.
	if r := correlate(t, c, makeTestEvent(clk, other, corev1.EventTypeNormal, "Synced", "ok")); r.Skip {
		t.Fatal("another object was filtered")
	}
	// One token every five minutes; the Event written then carries every occurrence.
	clk.Step(299 * time.Second)
	if r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "ok")); !r.Skip {
		t.Fatal("token refilled too early")
	}
	clk.Step(2 * time.Second)
	r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "ok"))
	if r.Skip {
		t.Fatal("token not refilled after five minutes")
	}
	if r.Event.Count != 28 {
		t.Fatalf("count %d, want 28 (filtered occurrences still count)", r.Event.Count)
	}
}

func TestCorrelatorCustomSpamOptions(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	c := newTestCorrelator(clk, CorrelatorOptions{BurstSize: 2, QPS: 1, SpamKeyFunc: func(*corev1.Event) string { return "all" }})
	a, b := testPod("ns", "a"), testPod("ns", "b")
	correlate(t, c, makeTestEvent(clk, a, corev1.EventTypeNormal, "X", "m"))
	correlate(t, c, makeTestEvent(clk, b, corev1.EventTypeNormal, "X", "m"))
	if r := correlate(t, c, makeTestEvent(clk, a, corev1.EventTypeNormal, "X", "m")); !r.Skip {
		t.Fatal("shared bucket not exhausted after its burst of 2")
	}
	clk.Step(time.Second)
	if r := correlate(t, c, makeTestEvent(clk, b, corev1.EventTypeNormal, "X", "m")); r.Skip {
		t.Fatal("QPS 1 did not refill within a second")
	}
}

func TestCorrelatorUpdateState(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	c := NewEventCorrelator(clk)
	pod := testPod("ns", "p")
	first := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "ok"))
	server := first.Event.DeepCopy()
	server.Name, server.ResourceVersion, server.Count = "server-name", "9", 5
	c.UpdateState(server)
	r := correlate(t, c, makeTestEvent(clk, pod, corev1.EventTypeNormal, "Synced", "ok"))
	if r.Event.Name != "server-name" || r.Event.ResourceVersion != "9" || r.Event.Count != 6 {
		t.Fatalf("server state ignored: %+v", r.Event)
	}
}

func TestCorrelateNil(t *testing.T) {
	if _, err := NewEventCorrelator(clocktesting.NewFakeClock(time.Now())).EventCorrelate(nil); err == nil {
		t.Fatal("want an error for a nil event")
	}
}
