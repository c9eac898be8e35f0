package e2e_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kgen-dev/kgen/runtime/events"
	"github.com/kgen-dev/kgen/runtime/rest"
	"github.com/kgen-dev/kgen/testenv"
)

var env *testenv.Environment

func TestMain(m *testing.M) {
	code := testenv.Main(m, testenv.Options{}, &env)
	if code == 0 {
		// Every broadcaster was shut down by now: none of its goroutines may survive. Idle keep-alive
		// connections of the HTTP clients are not the broadcaster's.
		if err := goleak.Find(
			goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
			goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
			goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
		); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := eventsv1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

var source = corev1.EventSource{Component: "e2e-controller", Host: "e2e-host"}

// unthrottled returns the admin config without client-side rate limiting: the tests write hundreds of
// patches, which the default 5 QPS would stretch to minutes.
func unthrottled() *rest.Config {
	c := rest.CopyConfig(env.Config())
	c.QPS = -1
	return c
}

func clientFor(t *testing.T, apiPath string, gv schema.GroupVersion) *rest.RESTClient {
	t.Helper()
	c := unthrottled()
	c.APIPath = apiPath
	c.GroupVersion = &gv
	c.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	c.ContentType = runtime.ContentTypeJSON
	rc, err := rest.RESTClientFor(c)
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

// newNamespace creates a namespace of its own for one test.
func newNamespace(t *testing.T, core *rest.RESTClient) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "events-" + rand.String(6)}}
	if err := core.Post().Resource("namespaces").Body(ns).Do(context.Background()).Into(ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// newConfigMap creates the object the events are about, so references carry a real uid and version.
func newConfigMap(t *testing.T, core *rest.RESTClient, namespace, name string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	if err := core.Post().Namespace(namespace).Resource("configmaps").Body(cm).Do(context.Background()).Into(cm); err != nil {
		t.Fatal(err)
	}
	return cm
}

func listEvents(t *testing.T, core *rest.RESTClient, namespace string) []corev1.Event {
	t.Helper()
	list := &corev1.EventList{}
	if err := core.Get().Namespace(namespace).Resource("events").Do(context.Background()).Into(list); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(list.Items, func(a, b corev1.Event) int { return strings.Compare(a.Message, b.Message) })
	return list.Items
}

func totalCount(items []corev1.Event) int {
	n := 0
	for _, e := range items {
		n += int(e.Count)
	}
	return n
}

// waitForTotal polls until the Events in namespace add up to want occurrences.
func waitForTotal(t *testing.T, core *rest.RESTClient, namespace string, want int) []corev1.Event {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		items := listEvents(t, core, namespace)
		if totalCount(items) == want {
			return items
		}
		if time.Now().After(deadline) {
			t.Fatalf("Events add up to %d occurrences, want %d: %d Events", totalCount(items), want, len(items))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func startBroadcaster(t *testing.T, sink events.EventSink, opts ...events.BroadcasterOption) events.EventBroadcaster {
	t.Helper()
	b := events.NewBroadcaster(opts...)
	b.StartRecordingToSink(sink)
	t.Cleanup(b.Shutdown)
	return b
}

func coreSink(t *testing.T) events.EventSink {
	t.Helper()
	sink, err := events.NewEventSinkForConfig(unthrottled())
	if err != nil {
		t.Fatal(err)
	}
	return sink
}

func TestBurstForOneObjectBecomesAHandfulOfEvents(t *testing.T) {
	core := clientFor(t, "/api", corev1.SchemeGroupVersion)
	ns := newNamespace(t, core)
	cm := newConfigMap(t, core, ns, "target")
	// A burst big enough that the spam filter does not hide the aggregation and counting.
	b := startBroadcaster(t, coreSink(t), events.WithCorrelatorOptions(events.CorrelatorOptions{BurstSize: 2000}))
	r := b.NewRecorder(scheme, source)

	for i := range 1000 {
		r.Eventf(cm, corev1.EventTypeWarning, "SyncFailed", "attempt %03d failed", i)
	}
	items := waitForTotal(t, core, ns, 1000)
	if s := b.Stats(); s != (events.BroadcasterStats{}) {
		t.Fatalf("events dropped: %+v", s)
	}

	// Nine Events stand alone; the tenth distinct message starts the aggregate that absorbs the rest.
	if len(items) != 10 {
		t.Fatalf("want 10 Events, got %d", len(items))
	}
	aggregate := items[0]
	if aggregate.Message != "(combined from similar events): attempt 999 failed" || aggregate.Count != 991 {
		t.Fatalf("aggregate Event: message %q count %d", aggregate.Message, aggregate.Count)
	}
	if !aggregate.LastTimestamp.After(aggregate.FirstTimestamp.Time) && !aggregate.LastTimestamp.Equal(&aggregate.FirstTimestamp) {
		t.Fatalf("aggregate timestamps: first %v last %v", aggregate.FirstTimestamp, aggregate.LastTimestamp)
	}
	for i, e := range items[1:] {
		if e.Message != fmt.Sprintf("attempt %03d failed", i) || e.Count != 1 {
			t.Fatalf("Event %d: message %q count %d", i, e.Message, e.Count)
		}
	}
	for _, e := range items {
		ref := e.InvolvedObject
		if ref.Kind != "ConfigMap" || ref.APIVersion != "v1" || ref.Namespace != ns || ref.Name != "target" ||
			ref.UID != cm.UID || ref.ResourceVersion != cm.ResourceVersion {
			t.Fatalf("involved object %+v does not reference %s/%s uid %s", ref, ns, cm.Name, cm.UID)
		}
		if e.Type != corev1.EventTypeWarning || e.Reason != "SyncFailed" || e.Source != source ||
			e.ReportingController != source.Component || e.ReportingInstance != source.Host {
			t.Fatalf("Event fields: %+v", e)
		}
	}
}

func TestDefaultSpamFilterCapsAnIdenticalBurst(t *testing.T) {
	core := clientFor(t, "/api", corev1.SchemeGroupVersion)
	ns := newNamespace(t, core)
	cm := newConfigMap(t, core, ns, "noisy")
	b := startBroadcaster(t, coreSink(t))
	r := b.NewRecorder(scheme, source)

	for range 1000 {
		r.Event(cm, corev1.EventTypeNormal, "Reconciled", "nothing to do")
	}
	b.Shutdown() // flushes what passed the filter
	items := listEvents(t, core, ns)
	// One Event, bumped by patches up to the default burst of 25; the rest were filtered as spam.
	if len(items) != 1 || items[0].Count != 25 {
		t.Fatalf("want one Event with count 25, got %d Events, total count %d", len(items), totalCount(items))
	}
}

func TestEventsForDifferentObjectsStaySeparate(t *testing.T) {
	core := clientFor(t, "/api", corev1.SchemeGroupVersion)
	ns := newNamespace(t, core)
	b := startBroadcaster(t, coreSink(t), events.WithCorrelatorOptions(events.CorrelatorOptions{BurstSize: 1000}))
	r := b.NewRecorder(scheme, source)

	objects := []*corev1.ConfigMap{newConfigMap(t, core, ns, "a"), newConfigMap(t, core, ns, "b"), newConfigMap(t, core, ns, "c")}
	for i := range 300 {
		o := objects[i%3]
		r.Eventf(o, corev1.EventTypeNormal, "Updated", "updated %s", o.Name)
		if i%3 == 0 {
			r.Eventf(o, corev1.EventTypeWarning, "Slow", "slow %s", o.Name)
		}
	}
	items := waitForTotal(t, core, ns, 400)
	if len(items) != 4 {
		t.Fatalf("want 4 Events (3 objects, plus a second reason on one), got %d", len(items))
	}
	want := map[string]int32{"a/updated a": 100, "b/updated b": 100, "c/updated c": 100, "a/slow a": 100}
	for _, e := range items {
		key := e.InvolvedObject.Name + "/" + e.Message
		if want[key] != e.Count {
			t.Fatalf("Event %q has count %d, want %d", key, e.Count, want[key])
		}
		delete(want, key)
	}
}

func TestShutdownFlushesQueuedEvents(t *testing.T) {
	core := clientFor(t, "/api", corev1.SchemeGroupVersion)
	ns := newNamespace(t, core)
	b := events.NewBroadcaster(events.WithShutdownGracePeriod(time.Minute))
	b.StartRecordingToSink(coreSink(t))
	r := b.NewRecorder(scheme, source)
	for i := range 100 {
		r.Event(&corev1.ObjectReference{Kind: "Widget", APIVersion: "example.com/v1", Namespace: ns, Name: fmt.Sprintf("w%d", i)},
			corev1.EventTypeNormal, "Created", "created")
	}
	b.Shutdown()
	if n := len(listEvents(t, core, ns)); n != 100 {
		t.Fatalf("Shutdown returned with %d of 100 Events written", n)
	}
	if s := b.Stats(); s != (events.BroadcasterStats{}) {
		t.Fatalf("events dropped: %+v", s)
	}
}

func TestShutdownDoesNotHangOnUnreachableServer(t *testing.T) {
	c := unthrottled()
	c.Host = "https://127.0.0.1:1" // nothing listens there
	sink, err := events.NewEventSinkForConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	b := events.NewBroadcaster(events.WithShutdownGracePeriod(2 * time.Second))
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(scheme, source)
	for i := range 50 {
		r.Event(&corev1.ObjectReference{Kind: "Widget", Namespace: "default", Name: fmt.Sprintf("w%d", i)},
			corev1.EventTypeNormal, "Created", "created")
	}
	start := time.Now()
	b.Shutdown()
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("Shutdown took %v", d)
	}
}

func TestEventsV1Sink(t *testing.T) {
	core := clientFor(t, "/api", corev1.SchemeGroupVersion)
	eventsClient := clientFor(t, "/apis", eventsv1.SchemeGroupVersion)
	ns := newNamespace(t, core)
	cm := newConfigMap(t, core, ns, "target")
	sink, err := events.NewEventsV1SinkForConfig(unthrottled())
	if err != nil {
		t.Fatal(err)
	}
	b := startBroadcaster(t, sink, events.WithCorrelatorOptions(events.CorrelatorOptions{BurstSize: 1000}))
	r := b.NewRecorder(scheme, source)
	for range 100 {
		r.Event(cm, corev1.EventTypeWarning, "Degraded", "replica unavailable")
	}
	r.Event(cm, corev1.EventTypeNormal, "Recovered", "all replicas available")

	deadline := time.Now().Add(2 * time.Minute)
	for {
		list := &eventsv1.EventList{}
		if err := eventsClient.Get().Namespace(ns).Resource("events").Do(context.Background()).Into(list); err != nil {
			t.Fatal(err)
		}
		byReason := map[string]eventsv1.Event{}
		for _, e := range list.Items {
			byReason[e.Reason] = e
		}
		degraded, recovered := byReason["Degraded"], byReason["Recovered"]
		if len(list.Items) == 2 && degraded.Series != nil && degraded.Series.Count == 100 && recovered.Name != "" {
			if degraded.Note != "replica unavailable" || degraded.Regarding.UID != cm.UID ||
				degraded.ReportingController != source.Component || degraded.ReportingInstance != source.Host ||
				degraded.Action != "Degraded" || degraded.Type != corev1.EventTypeWarning {
				t.Fatalf("Degraded Event fields: %+v", degraded)
			}
			if recovered.Series != nil || recovered.Note != "all replicas available" {
				t.Fatalf("Recovered Event: %+v", recovered)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("events.k8s.io Events never converged: %+v", list.Items)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
