package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

var testSource = corev1.EventSource{Component: "test-controller", Host: "host-1"}

// memorySink stores Events in memory and can be told to fail.
type memorySink struct {
	mu      sync.Mutex
	events  map[string]*corev1.Event // by namespace/name
	creates int
	patches int
	calls   int
	fail    func(call int) error // error to return on the given call (1-based); nil = succeed
	block   chan struct{}        // when set, every call waits for it to close
}

func newMemorySink() *memorySink { return &memorySink{events: map[string]*corev1.Event{}} }

func (s *memorySink) begin() error {
	s.mu.Lock()
	s.calls++
	call := s.calls
	fail := s.fail
	s.mu.Unlock()
	if s.block != nil {
		<-s.block
	}
	if fail != nil {
		return fail(call)
	}
	return nil
}

func (s *memorySink) Create(e *corev1.Event) (*corev1.Event, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := e.Namespace + "/" + e.Name
	if _, ok := s.events[key]; ok {
		return nil, apierrors.NewAlreadyExists(schema.GroupResource{Resource: "events"}, e.Name)
	}
	s.creates++
	stored := e.DeepCopy()
	stored.ResourceVersion = "1"
	s.events[key] = stored
	return stored.DeepCopy(), nil
}

func (s *memorySink) Update(e *corev1.Event) (*corev1.Event, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events[e.Namespace+"/"+e.Name] = e.DeepCopy()
	return e.DeepCopy(), nil
}

func (s *memorySink) Patch(old *corev1.Event, data []byte) (*corev1.Event, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	stored, ok := s.events[old.Namespace+"/"+old.Name]
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "events"}, old.Name)
	}
	if !strings.Contains(string(data), fmt.Sprintf(`"count":%d`, old.Count)) {
		return nil, fmt.Errorf("patch %s does not carry count %d", data, old.Count)
	}
	s.patches++
	stored.Count, stored.LastTimestamp, stored.Message = old.Count, old.LastTimestamp, old.Message
	return stored.DeepCopy(), nil
}

func (s *memorySink) callCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func (s *memorySink) snapshot() []*corev1.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*corev1.Event
	for _, e := range s.events {
		out = append(out, e.DeepCopy())
	}
	return out
}

// collect starts a watcher that gathers events and returns a function waiting for n of them.
func collect(t *testing.T, b EventBroadcaster) func(n int) []*corev1.Event {
	var mu sync.Mutex
	var got []*corev1.Event
	b.StartEventWatcher(func(e *corev1.Event) {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
	})
	return func(n int) []*corev1.Event {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			if len(got) >= n {
				out := append([]*corev1.Event(nil), got...)
				mu.Unlock()
				return out
			}
			mu.Unlock()
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %d events", n)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

func TestRecorderBuildsEvents(t *testing.T) {
	b := NewBroadcaster()
	defer b.Shutdown()
	wait := collect(t, b)
	r := b.NewRecorder(testScheme(t), testSource)

	pod := testPod("ns", "web-0")
	r.Event(pod, corev1.EventTypeNormal, "Started", "container started")
	r.Eventf(pod, corev1.EventTypeWarning, "BackOff", "restart %d", 3)
	r.AnnotatedEventf(pod, map[string]string{"k": "v"}, corev1.EventTypeNormal, "Noted", "%s", "annotated")
	r.Event(&corev1.Node{}, corev1.EventTypeNormal, "NodeReady", "cluster scoped")

	got := wait(4)
	e := got[0]
	if e.Namespace != "ns" || !strings.HasPrefix(e.Name, "web-0.") || e.Type != "Normal" || e.Reason != "Started" ||
		e.Message != "container started" || e.Count != 1 || e.Source != testSource ||
		e.ReportingController != "test-controller" || e.ReportingInstance != "host-1" ||
		e.FirstTimestamp.IsZero() || !e.FirstTimestamp.Equal(&e.LastTimestamp) {
		t.Fatalf("unexpected event %+v", e)
	}
	wantRef := corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "ns", Name: "web-0", UID: "uid-web-0", ResourceVersion: "42"}
	if e.InvolvedObject != wantRef {
		t.Fatalf("involved object %+v", e.InvolvedObject)
	}
	if got[1].Message != "restart 3" || got[1].Type != "Warning" {
		t.Fatalf("Eventf: %+v", got[1])
	}
	if got[2].Annotations["k"] != "v" {
		t.Fatalf("annotations: %v", got[2].Annotations)
	}
	if got[3].Namespace != "default" {
		t.Fatalf("cluster-scoped object's event in namespace %q, want default", got[3].Namespace)
	}
}

func TestRecorderRejectsBadInput(t *testing.T) {
	b := NewBroadcaster()
	defer b.Shutdown()
	wait := collect(t, b)
	r := b.NewRecorder(testScheme(t), testSource).WithLogger(klog.Background())

	r.Event(testPod("ns", "p"), "Critical", "Bad", "invalid type")
	r.Event(nil, corev1.EventTypeNormal, "Bad", "nil object")
	r.Event(&corev1.ConfigMap{}, corev1.EventTypeNormal, "Bad", "fine, ConfigMap is in the scheme")
	r.Event(testPod("ns", "p"), corev1.EventTypeWarning, "Good", "valid")

	// Events reach the watcher in the order they were recorded: an invalid event wrongly accepted would
	// be among the first two.
	got := wait(2)
	if len(got) != 2 || got[0].InvolvedObject.Kind != "ConfigMap" || got[1].Reason != "Good" {
		t.Fatalf("want only the two valid events, got %d: %+v", len(got), got)
	}
	if !ValidateEventType("Normal") || !ValidateEventType("Warning") || ValidateEventType("normal") {
		t.Fatal("ValidateEventType")
	}
}

func TestRecorderNameFallsBackForInvalidObjectNames(t *testing.T) {
	b := NewBroadcaster()
	defer b.Shutdown()
	wait := collect(t, b)
	b.NewRecorder(nil, testSource).Event(&corev1.ObjectReference{Kind: "Thing", Name: "Not_A_DNS_Name"}, corev1.EventTypeNormal, "R", "m")
	if name := wait(1)[0].Name; strings.HasPrefix(name, "Not_A_DNS_Name") || name == "" {
		t.Fatalf("invalid event name %q", name)
	}
}

func TestBroadcasterDeliversToEveryWatcher(t *testing.T) {
	b := NewBroadcaster()
	defer b.Shutdown()
	w1, w2 := collect(t, b), collect(t, b)
	var lines []string
	var mu sync.Mutex
	b.StartLogging(func(format string, args ...any) {
		mu.Lock()
		lines = append(lines, fmt.Sprintf(format, args...))
		mu.Unlock()
	})
	r := b.NewRecorder(testScheme(t), testSource)
	for i := range 50 {
		r.Eventf(testPod("ns", "p"), corev1.EventTypeNormal, "Tick", "tick %d", i)
	}
	if len(w1(50)) != 50 || len(w2(50)) != 50 {
		t.Fatal("a watcher missed events")
	}
	b.Shutdown()
	mu.Lock()
	defer mu.Unlock()
	if len(lines) != 50 || !strings.Contains(lines[49], "reason: 'Tick' tick 49") {
		t.Fatalf("logging watcher got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func TestBroadcasterDropsForFullWatcherAndCounts(t *testing.T) {
	b := NewBroadcaster(WithQueueLength(100), WithWatcherQueueLength(1))
	release := make(chan struct{})
	holding := make(chan struct{}, 1)
	handled := 0
	b.StartEventWatcher(func(*corev1.Event) {
		holding <- struct{}{}
		<-release
		handled++
	})
	r := b.NewRecorder(testScheme(t), testSource)
	r.Eventf(testPod("ns", "p"), corev1.EventTypeNormal, "Tick", "first")
	<-holding
	for i := range 49 {
		r.Eventf(testPod("ns", "p"), corev1.EventTypeNormal, "Tick", "%d", i)
	}
	// The slow watcher holds one event in hand and one in its channel; the rest are dropped for it.
	deadline := time.Now().Add(10 * time.Second)
	for b.Stats().WatcherDropped != 48 {
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v, want 48 watcher drops", b.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	<-holding
	b.Shutdown()
	if handled != 2 {
		t.Fatalf("handled %d events, want 2", handled)
	}
	if s := b.Stats(); s.QueueDropped != 0 || s.ShutdownDropped != 0 {
		t.Fatalf("unexpected stats %+v", s)
	}
}

func TestBroadcasterBlockingModeDeliversEverything(t *testing.T) {
	b := NewBroadcaster(WithFullChannelBehavior(watch.WaitIfChannelFull), WithQueueLength(1000), WithWatcherQueueLength(1))
	var mu sync.Mutex
	handled := 0
	b.StartEventWatcher(func(*corev1.Event) {
		time.Sleep(100 * time.Microsecond) // a slow watcher
		mu.Lock()
		handled++
		mu.Unlock()
	})
	fast := collect(t, b)
	r := b.NewRecorder(testScheme(t), testSource)
	for i := range 200 {
		r.Eventf(testPod("ns", "p"), corev1.EventTypeNormal, "Tick", "%d", i)
	}
	fast(200)
	b.Shutdown()
	if handled != 200 || b.Stats() != (BroadcasterStats{}) {
		t.Fatalf("handled %d, stats %+v; want 200 and no drops", handled, b.Stats())
	}
}

func TestRecordingNeverBlocksOnFullQueue(t *testing.T) {
	b := NewBroadcaster(WithFullChannelBehavior(watch.WaitIfChannelFull), WithQueueLength(5), WithWatcherQueueLength(1))
	release := make(chan struct{})
	b.StartEventWatcher(func(*corev1.Event) { <-release })
	r := b.NewRecorder(testScheme(t), testSource)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 100 {
			r.Eventf(testPod("ns", "p"), corev1.EventTypeNormal, "Tick", "%d", i)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("recording blocked behind a stuck watcher")
	}
	// At most: one in the handler, one in its channel, one held by the distributor, five queued.
	if d := b.Stats().QueueDropped; d < 92 {
		t.Fatalf("queue dropped %d, want at least 92", d)
	}
	close(release)
	b.Shutdown()
}

func TestWatcherStop(t *testing.T) {
	b := NewBroadcaster(WithFullChannelBehavior(watch.WaitIfChannelFull), WithWatcherQueueLength(1))
	defer b.Shutdown()
	stuck := b.StartEventWatcher(func(*corev1.Event) { select {} })
	stuck.Stop() // the stuck handler never runs: Stop came first
	stuck.Stop() // idempotent
	wait := collect(t, b)
	r := b.NewRecorder(testScheme(t), testSource)
	for i := range 10 {
		r.Eventf(testPod("ns", "p"), corev1.EventTypeNormal, "Tick", "%d", i)
	}
	wait(10)
}

func TestRecordingAfterShutdownDrops(t *testing.T) {
	b := NewBroadcaster()
	r := b.NewRecorder(testScheme(t), testSource)
	b.Shutdown()
	b.Shutdown() // idempotent
	r.Event(testPod("ns", "p"), corev1.EventTypeNormal, "Late", "after shutdown")
	if b.Stats().QueueDropped != 1 {
		t.Fatalf("stats %+v", b.Stats())
	}
	w := b.StartEventWatcher(func(*corev1.Event) {})
	if _, open := <-w.ResultChan(); open {
		t.Fatal("watcher started after shutdown delivered an event")
	}
	w.Stop()
}

func TestContextCancellationShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := NewBroadcaster(WithContext(ctx))
	sink := newMemorySink()
	b.StartRecordingToSink(sink)
	b.NewRecorder(testScheme(t), testSource).Event(testPod("ns", "p"), corev1.EventTypeNormal, "R", "m")
	cancel()
	b.Shutdown() // waits for the cancellation-triggered shutdown
	if len(sink.snapshot()) != 1 {
		t.Fatal("event recorded before cancellation was not flushed")
	}
	if b.Stats().QueueDropped != 0 {
		t.Fatalf("stats %+v", b.Stats())
	}
}

func TestShutdownFlushesQueuedEvents(t *testing.T) {
	b := NewBroadcaster(WithCorrelatorOptions(CorrelatorOptions{BurstSize: 1000}))
	sink := newMemorySink()
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(testScheme(t), testSource)
	for i := range 5 {
		r.Event(testPod("ns", fmt.Sprintf("p%d", i)), corev1.EventTypeNormal, "Synced", "ok")
		for range 9 {
			r.Event(testPod("ns", fmt.Sprintf("p%d", i)), corev1.EventTypeNormal, "Synced", "ok")
		}
	}
	b.Shutdown()
	events := sink.snapshot()
	if len(events) != 5 {
		t.Fatalf("want 5 Events after shutdown, got %d", len(events))
	}
	for _, e := range events {
		if e.Count != 10 {
			t.Fatalf("Event %s has count %d, want 10", e.Name, e.Count)
		}
	}
}

func TestShutdownDoesNotWaitForFailingSink(t *testing.T) {
	b := NewBroadcaster(WithSleepDuration(time.Hour))
	sink := newMemorySink()
	sink.fail = func(int) error { return errors.New("connection refused") }
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(testScheme(t), testSource)
	r.Event(testPod("ns", "a"), corev1.EventTypeNormal, "R", "m")
	r.Event(testPod("ns", "b"), corev1.EventTypeNormal, "R", "m")
	deadline := time.Now().Add(10 * time.Second)
	for sink.callCount() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("sink never called")
		}
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	b.Shutdown() // the first event is sleeping an hour between retries; shutdown cuts that short
	if time.Since(start) > 5*time.Second {
		t.Fatalf("Shutdown took %v", time.Since(start))
	}
	// a: first attempt, one final attempt at shutdown; b: one attempt.
	if n := sink.callCount(); n != 3 {
		t.Fatalf("sink called %d times, want 3", n)
	}
}

func TestShutdownGracePeriodDropsTheRest(t *testing.T) {
	b := NewBroadcaster(WithShutdownGracePeriod(50 * time.Millisecond))
	sink := newMemorySink()
	sink.block = make(chan struct{})
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(testScheme(t), testSource)
	for i := range 10 {
		r.Event(testPod("ns", fmt.Sprintf("p%d", i)), corev1.EventTypeNormal, "R", "m")
	}
	deadline := time.Now().Add(10 * time.Second)
	for sink.callCount() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("sink never called")
		}
		time.Sleep(time.Millisecond)
	}
	time.AfterFunc(200*time.Millisecond, func() { close(sink.block) }) // the in-flight call finishes late
	b.Shutdown()
	if s := b.Stats(); s.ShutdownDropped != 9 {
		t.Fatalf("stats %+v, want 9 events dropped at shutdown", s)
	}
	if n := len(sink.snapshot()); n != 1 {
		t.Fatalf("sink has %d events, want only the in-flight one", n)
	}
}

func TestSinkRetriesTransientErrors(t *testing.T) {
	b := NewBroadcaster(WithSleepDuration(time.Millisecond))
	defer b.Shutdown()
	sink := newMemorySink()
	sink.fail = func(call int) error {
		switch call {
		case 1:
			return errors.New("connection reset")
		case 2:
			return apierrors.NewTooManyRequests("slow down", 0)
		case 3:
			return apierrors.NewInternalError(errors.New("etcd hiccup"))
		}
		return nil
	}
	b.StartRecordingToSink(sink)
	b.NewRecorder(testScheme(t), testSource).Event(testPod("ns", "p"), corev1.EventTypeNormal, "R", "m")
	deadline := time.Now().Add(10 * time.Second)
	for len(sink.snapshot()) != 1 {
		if time.Now().After(deadline) {
			t.Fatal("event never written after transient failures")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestSinkGivesUpOnRejectionAndAfterMaxTries(t *testing.T) {
	b := NewBroadcaster(WithSleepDuration(time.Microsecond))
	sink := newMemorySink()
	sink.fail = func(call int) error {
		if call == 1 {
			return apierrors.NewBadRequest("malformed")
		}
		return errors.New("unreachable")
	}
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(testScheme(t), testSource)
	r.Event(testPod("ns", "rejected"), corev1.EventTypeNormal, "R", "m")
	r.Event(testPod("ns", "unreachable"), corev1.EventTypeNormal, "R", "m")
	deadline := time.Now().Add(10 * time.Second)
	for {
		calls := sink.callCount()
		if calls == 1+maxTriesPerEvent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sink called %d times, want %d", calls, 1+maxTriesPerEvent)
		}
		time.Sleep(time.Millisecond)
	}
	b.Shutdown()
	if n := sink.callCount(); n != 1+maxTriesPerEvent {
		t.Fatalf("sink called %d times after shutdown, want %d", n, 1+maxTriesPerEvent)
	}
}

func TestSinkRecreatesExpiredEvent(t *testing.T) {
	b := NewBroadcaster()
	sink := newMemorySink()
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(testScheme(t), testSource)
	pod := testPod("ns", "p")
	r.Event(pod, corev1.EventTypeNormal, "R", "m")
	deadline := time.Now().Add(10 * time.Second)
	for len(sink.snapshot()) != 1 {
		if time.Now().After(deadline) {
			t.Fatal("first event never written")
		}
		time.Sleep(time.Millisecond)
	}
	sink.mu.Lock()
	clear(sink.events) // the Event expired on the server
	sink.mu.Unlock()
	r.Event(pod, corev1.EventTypeNormal, "R", "m")
	b.Shutdown()
	events := sink.snapshot()
	if len(events) != 1 || events[0].Count != 2 || events[0].ResourceVersion != "1" || sink.creates != 2 {
		t.Fatalf("want the Event re-created with count 2, got %d events %+v, %d creates", len(events), events, sink.creates)
	}
}

func TestRetryDelay(t *testing.T) {
	for range 100 {
		if d := retryDelay(time.Second, 1); d < 0 || d >= time.Second {
			t.Fatalf("first delay %v outside [0,1s)", d)
		}
		if d := retryDelay(time.Second, 2); d < time.Second || d > 1100*time.Millisecond {
			t.Fatalf("later delay %v outside [1s,1.1s]", d)
		}
	}
	if retryDelay(0, 1) != 0 {
		t.Fatal("zero sleep must not wait")
	}
}

func TestStructuredLogging(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	logger := funcr.New(func(prefix, args string) {
		mu.Lock()
		lines = append(lines, args)
		mu.Unlock()
	}, funcr.Options{Verbosity: 2})
	b := NewBroadcaster(WithContext(klog.NewContext(context.Background(), logger)))
	b.StartStructuredLogging(2)
	b.StartStructuredLogging(3) // above the logger's verbosity: silent
	b.NewRecorder(testScheme(t), testSource).Event(testPod("ns", "p"), corev1.EventTypeWarning, "BackOff", "restarting")
	b.Shutdown()
	mu.Lock()
	defer mu.Unlock()
	if len(lines) != 1 {
		t.Fatalf("want one log line, got %q", lines)
	}
	for _, want := range []string{`"msg"="Event occurred"`, `"object"={"name"="p" "namespace"="ns"}`, `"kind"="Pod"`, `"type"="Warning"`, `"reason"="BackOff"`, `"message"="restarting"`} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("log line lacks %s: %s", want, lines[0])
		}
	}
}

func TestEventNamesAreUniqueOnAFrozenClock(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	for range 100 {
		name := eventName("p", at)
		if seen[name] {
			t.Fatalf("duplicate event name %s", name)
		}
		seen[name] = true
	}
}

func TestZeroGracePeriodDropsQueuedEvents(t *testing.T) {
	b := NewBroadcaster(WithShutdownGracePeriod(0))
	sink := newMemorySink()
	sink.block = make(chan struct{})
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(testScheme(t), testSource)
	for i := range 10 {
		r.Event(testPod("ns", fmt.Sprintf("p%d", i)), corev1.EventTypeNormal, "R", "m")
	}
	deadline := time.Now().Add(10 * time.Second)
	for sink.callCount() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("sink never called")
		}
		time.Sleep(time.Millisecond)
	}
	time.AfterFunc(100*time.Millisecond, func() { close(sink.block) })
	b.Shutdown()
	if s := b.Stats(); s.ShutdownDropped != 9 || len(sink.snapshot()) != 1 {
		t.Fatalf("stats %+v with %d written; want the queued events dropped", s, len(sink.snapshot()))
	}
}

func TestWatchersStartedDuringShutdown(t *testing.T) {
	for range 20 {
		b := NewBroadcaster()
		r := b.NewRecorder(testScheme(t), testSource)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 10 {
					w := b.StartEventWatcher(func(*corev1.Event) {})
					r.Event(testPod("ns", "p"), corev1.EventTypeNormal, "R", "m")
					w.Stop()
				}
			})
		}
		b.Shutdown()
		wg.Wait()
	}
}
