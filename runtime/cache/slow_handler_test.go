package cache

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

func (c *informerCounters) NewHandlerBacklogMetric(_, handler string) GaugeMetric {
	return namedMetric{&c.reflectorCounters, "backlog " + handler}
}

// steppingHandler blocks each OnAdd until released, then advances the fake clock by step, so that
// the notification looks as long as step.
type steppingHandler struct {
	clock   *clocktesting.FakeClock
	release chan time.Duration
	entered chan struct{}
}

func (h *steppingHandler) OnAdd(any, bool) {
	h.entered <- struct{}{}
	h.clock.Step(<-h.release)
}
func (h *steppingHandler) OnUpdate(any, any) {}
func (h *steppingHandler) OnDelete(any)      {}

func cm(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
}

func adds(n int) []notification {
	batch := make([]notification, n)
	for i := range batch {
		batch[i] = notification{kind: notifyAdd, newObj: cm(fmt.Sprint(i))}
	}
	return batch
}

func TestSlowHandlerBacklogIsExportedAndLogged(t *testing.T) {
	checkLeaks(t)
	clk := clocktesting.NewFakeClock(time.Now())
	sink := &recordingSink{}
	counters := &informerCounters{reflectorCounters{counts: map[string]float64{}}}
	h := &steppingHandler{clock: clk, release: make(chan time.Duration), entered: make(chan struct{})}
	l := newListener(h, 0, "test", listenerReport{
		informer:     "ConfigMap",
		registration: "*cache.steppingHandler#1",
		backlog:      counters.NewHandlerBacklogMetric("cms", "*cache.steppingHandler#1"),
		logger:       logr.New(sink),
		clock:        clk,
	})
	var wg sync.WaitGroup
	wg.Go(l.run)
	defer func() {
		l.stop()
		go func() {
			for range h.entered {
			}
		}()
		close(h.release)
		wg.Wait()
		close(h.entered)
	}()
	backlog := func() float64 { return counters.get("backlog *cache.steppingHandler#1") }

	l.push(adds(30))
	<-h.entered // the first notification is in the handler, 29 wait
	if got := backlog(); got != 29 {
		t.Errorf("backlog = %v with one notification in the handler and 29 buffered, want 29", got)
	}
	slow := func(d time.Duration) {
		h.release <- d
		<-h.entered
	}
	slow(time.Second) // slow, but its backlog was measured when it started: 29
	if n := sink.count(0, "Warning: slow event handler"); n != 1 {
		t.Fatalf("%d slow-handler lines after a 1s notification with 29 waiting, want 1", n)
	}
	line := sink.visible()[0]
	if text := fmt.Sprint(line.kv); !strings.Contains(text, "type ConfigMap") || !strings.Contains(text, "handler *cache.steppingHandler#1") || !strings.Contains(text, "backlog 29") {
		t.Errorf("slow-handler line %v does not name the informer's type, the registration and the backlog", text)
	}
	slow(time.Second)        // within the report interval: counted, not logged
	slow(time.Millisecond)   // fast: not counted
	slow(slowReportInterval) // a minute later: logged with the count
	if n := sink.count(0, "Warning: slow event handler"); n != 2 {
		t.Fatalf("%d slow-handler lines, want 2 (one per report interval)", n)
	}
	if text := fmt.Sprint(sink.visible()[1].kv); !strings.Contains(text, "slowNotifications 2") {
		t.Errorf("second report %v does not count the 2 slow notifications since the first", text)
	}

	// With a shallow backlog a long notification is not the handler falling behind.
	for backlog() > 0 {
		slow(0)
	}
	l.push(adds(1))
	slow(time.Hour)
	if n := sink.count(0, "Warning: slow event handler"); n != 2 {
		t.Errorf("%d slow-handler lines after a long notification with nothing waiting, want 2", n)
	}
}

func TestInformerExportsHandlerBacklog(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	defer src.stopAll()
	src.apply("ADDED", "ns", "a", "0")
	counters := &informerCounters{reflectorCounters{counts: map[string]float64{}}}
	informer := NewSharedIndexInformerWithOptions(src, &corev1.ConfigMap{}, SharedIndexInformerOptions{
		Identifier: "cms", InformerMetricsProvider: counters, Backoff: fastBackoff,
	})
	gate := make(chan struct{})
	if _, err := informer.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(any) { <-gate }}); err != nil {
		t.Fatal(err)
	}
	if _, err := informer.AddEventHandler(ResourceEventHandlerFuncs{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	defer func() {
		cancel()
		close(gate)
		<-done
	}()
	for i := range 5 {
		src.apply("ADDED", "ns", fmt.Sprint("b", i), "0")
	}
	// The blocked handler holds "a"; five adds and its synced mark wait.
	blocked := "backlog cache.ResourceEventHandlerFuncs#1"
	eventually(t, "backlog of the blocked handler", func() bool { return counters.get(blocked) == 6 })
	eventually(t, "backlog of the other handler", func() bool {
		counters.mu.Lock()
		defer counters.mu.Unlock()
		v, ok := counters.counts["backlog cache.ResourceEventHandlerFuncs#2"]
		return ok && v == 0
	})
}
