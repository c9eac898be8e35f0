package testing_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func TestListThenWatchFromResourceVersionLosesNothing(t *testing.T) {
	c := newClient(t, cm("ns", "a", nil))
	list := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{}))
	// Writes between the list and the watch must still be delivered.
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "b", nil)))
	b := must[*corev1.ConfigMap](t)(c.getCM("ns", "b"))
	b.Data = map[string]string{"x": "y"}
	must[*corev1.ConfigMap](t)(c.updateCM(b))
	if err := c.deleteCM("ns", "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	w := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: list.ResourceVersion}))
	defer w.Stop()
	want := []struct {
		typ  watch.EventType
		name string
	}{{watch.Added, "b"}, {watch.Modified, "b"}, {watch.Deleted, "a"}}
	last := 0
	for _, wnt := range want {
		ev := next(t, w)
		if ev.Type != wnt.typ || nameOf(ev.Object) != wnt.name {
			t.Fatalf("got %s %s, want %s %s", ev.Type, nameOf(ev.Object), wnt.typ, wnt.name)
		}
		rv, _ := strconv.Atoi(ev.Object.(metav1.Object).GetResourceVersion())
		if rv <= last {
			t.Fatalf("resourceVersions not increasing: %d after %d", rv, last)
		}
		last = rv
	}
	none(t, w)
	// Later changes keep flowing.
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "c", nil)))
	if ev := next(t, w); ev.Type != watch.Added || nameOf(ev.Object) != "c" {
		t.Fatalf("got %s %s", ev.Type, nameOf(ev.Object))
	}
}

func TestWatchWithoutResourceVersionStartsWithCurrentState(t *testing.T) {
	c := newClient(t, cm("ns", "b", nil), cm("ns", "a", nil), cm("other", "x", nil))
	for _, rv := range []string{"", "0"} {
		w := must[watch.Interface](t)(c.watchCM("ns", metav1.ListOptions{ResourceVersion: rv}))
		for _, name := range []string{"a", "b"} {
			if ev := next(t, w); ev.Type != watch.Added || nameOf(ev.Object) != name {
				t.Fatalf("rv %q: got %s %s, want ADDED %s", rv, ev.Type, nameOf(ev.Object), name)
			}
		}
		none(t, w)
		w.Stop()
	}
}

func TestWatchSelectorsTransitions(t *testing.T) {
	c := newClient(t)
	w := must[watch.Interface](t)(c.watchCM("ns", metav1.ListOptions{LabelSelector: "app=web", ResourceVersion: "1"}))
	defer w.Stop()

	obj := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", nil)))
	must[*corev1.ConfigMap](t)(c.createCM(cm("other", "o", map[string]string{})))
	none(t, w)
	obj.Labels = map[string]string{"app": "web"}
	obj = must[*corev1.ConfigMap](t)(c.updateCM(obj))
	if ev := next(t, w); ev.Type != watch.Added {
		t.Fatalf("entering the selector: %s", ev.Type)
	}
	obj.Data = map[string]string{"k": "v"}
	obj = must[*corev1.ConfigMap](t)(c.updateCM(obj))
	if ev := next(t, w); ev.Type != watch.Modified {
		t.Fatalf("change within the selector: %s", ev.Type)
	}
	obj.Labels = nil
	obj = must[*corev1.ConfigMap](t)(c.updateCM(obj))
	ev := next(t, w)
	if ev.Type != watch.Deleted || ev.Object.(*corev1.ConfigMap).ResourceVersion != obj.ResourceVersion {
		t.Fatalf("leaving the selector: %s rv %s (object rv %s)", ev.Type, ev.Object.(*corev1.ConfigMap).ResourceVersion, obj.ResourceVersion)
	}
	if err := c.deleteCM("ns", "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	none(t, w)

	fw := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{FieldSelector: "metadata.name=target", ResourceVersion: obj.ResourceVersion}))
	defer fw.Stop()
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "decoy", nil)))
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "target", nil)))
	if ev := next(t, fw); nameOf(ev.Object) != "target" {
		t.Fatalf("field selector delivered %s", nameOf(ev.Object))
	}
	none(t, fw)
}

func TestSlowWatchConsumerNeverPanicsOrLoses(t *testing.T) {
	c := newClient(t)
	w := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: "1"}))
	defer w.Stop()
	const n = 2000
	for i := 0; i < n; i++ {
		must[*corev1.ConfigMap](t)(c.createCM(cm("ns", fmt.Sprintf("cm-%04d", i), nil)))
	}
	for i := 0; i < n; i++ {
		if ev := next(t, w); nameOf(ev.Object) != fmt.Sprintf("cm-%04d", i) {
			t.Fatalf("event %d is %s", i, nameOf(ev.Object))
		}
	}
}

func TestWatchFromCompactedResourceVersionIsExpired(t *testing.T) {
	c := newClient(t)
	first := must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "seed", nil)))
	for i := 0; i < 10001; i++ {
		first.Data = map[string]string{"i": strconv.Itoa(i)}
		first = must[*corev1.ConfigMap](t)(c.updateCM(first))
	}
	w := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: "1"}))
	ev := next(t, w)
	status, ok := ev.Object.(*metav1.Status)
	if ev.Type != watch.Error || !ok || status.Code != 410 || status.Reason != metav1.StatusReasonExpired {
		t.Fatalf("got %s %+v", ev.Type, ev.Object)
	}
	if _, open := <-w.ResultChan(); open {
		t.Fatal("watch stays open after the expiry error")
	}
	// A recent resourceVersion still works, replaying in order from the wrapped history.
	last, _ := strconv.Atoi(first.ResourceVersion)
	w2 := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: strconv.Itoa(last - 3)}))
	defer w2.Stop()
	for want := last - 2; want <= last; want++ {
		ev := next(t, w2)
		if got := ev.Object.(*corev1.ConfigMap).ResourceVersion; ev.Type != watch.Modified || got != strconv.Itoa(want) {
			t.Fatalf("replay: %s rv %s, want MODIFIED rv %d", ev.Type, got, want)
		}
	}
	none(t, w2)
}

func TestStreamingListSendsInitialEventsEndBookmark(t *testing.T) {
	c := newClient(t, cm("ns", "a", nil), cm("ns", "b", nil))
	yes := true
	opts := metav1.ListOptions{
		SendInitialEvents:    &yes,
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		AllowWatchBookmarks:  true,
	}
	w := must[watch.Interface](t)(c.watchCM("", opts))
	defer w.Stop()
	for _, name := range []string{"a", "b"} {
		if ev := next(t, w); ev.Type != watch.Added || nameOf(ev.Object) != name {
			t.Fatalf("got %s %s", ev.Type, nameOf(ev.Object))
		}
	}
	ev := next(t, w)
	bm, ok := ev.Object.(*corev1.ConfigMap)
	if ev.Type != watch.Bookmark || !ok || bm.Annotations[metav1.InitialEventsAnnotationKey] != "true" || bm.ResourceVersion == "" {
		t.Fatalf("bookmark: %s %+v", ev.Type, ev.Object)
	}
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "c", nil)))
	if ev := next(t, w); ev.Type != watch.Added || nameOf(ev.Object) != "c" {
		t.Fatalf("after bookmark: %s %s", ev.Type, nameOf(ev.Object))
	}

	// A resource never written to still gets a correctly typed bookmark.
	pw, err := c.InvokesWatch(newPodWatch(opts))
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Stop()
	if ev := next(t, pw); ev.Type != watch.Bookmark {
		t.Fatalf("empty resource: %s", ev.Type)
	} else if _, ok := ev.Object.(*corev1.Pod); !ok {
		t.Fatalf("bookmark object %T", ev.Object)
	}

	opts.ResourceVersionMatch = ""
	if _, err := c.watchCM("", opts); err == nil {
		t.Fatal("sendInitialEvents without resourceVersionMatch accepted")
	}
}

func TestWatchStopAndTimeoutCloseAndLeakNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := newClient(t)
	w := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{}))
	w.Stop()
	w.Stop()
	if _, open := <-w.ResultChan(); open {
		t.Fatal("stopped watch still open")
	}
	secs := int64(1)
	tw := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{TimeoutSeconds: &secs}))
	select {
	case _, open := <-tw.ResultChan():
		if open {
			t.Fatal("unexpected event")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("timeoutSeconds not honoured")
	}
	// Writes after Stop do not reach or block the stopped watchers.
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "a", nil)))
}

func TestWatchDeliversFinalizerLifecycle(t *testing.T) {
	c := newClient(t)
	w := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: "1"}))
	defer w.Stop()
	in := cm("ns", "f", nil)
	in.Finalizers = []string{"x"}
	must[*corev1.ConfigMap](t)(c.createCM(in))
	if err := c.deleteCM("ns", "f", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	obj := must[*corev1.ConfigMap](t)(c.getCM("ns", "f"))
	obj.Finalizers = nil
	must[*corev1.ConfigMap](t)(c.updateCM(obj))
	for _, want := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		ev := next(t, w)
		if ev.Type != want {
			t.Fatalf("got %s, want %s", ev.Type, want)
		}
		if want == watch.Modified && ev.Object.(*corev1.ConfigMap).DeletionTimestamp == nil {
			t.Fatal("MODIFIED event lacks deletionTimestamp")
		}
	}
}

func TestConcurrentWritersAndWatchersSeeOneOrder(t *testing.T) {
	c := newClient(t)
	const writers, perWriter = 4, 50
	var watchers []watch.Interface
	for i := 0; i < 3; i++ {
		watchers = append(watchers, must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: "1"})))
	}
	done := make(chan struct{})
	for wr := 0; wr < writers; wr++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < perWriter; i++ {
				if _, err := c.createCM(cm("ns", fmt.Sprintf("w%d-%d", wr, i), nil)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	// A watcher started mid-way from the latest resourceVersion misses nothing after it.
	mid := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{}))
	late := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: mid.ResourceVersion}))
	for i := 0; i < writers; i++ {
		<-done
	}
	for i, w := range append(watchers, late) {
		want := writers * perWriter
		if w == late {
			want -= len(mid.Items)
		}
		last := 0
		var seen []int
		for n := 0; n < want; n++ {
			ev := next(t, w)
			rv, _ := strconv.Atoi(ev.Object.(*corev1.ConfigMap).ResourceVersion)
			seen = append(seen, rv)
			if rv <= last {
				t.Fatalf("watcher %d (mid %s): resourceVersion %d after %d: %v", i, mid.ResourceVersion, rv, last, seen)
			}
			last = rv
		}
		none(t, w)
		w.Stop()
	}
}

func TestEmptyListVersionAndFutureWatchStart(t *testing.T) {
	c := newClient(t)
	empty := must[*corev1.ConfigMapList](t)(c.listCM("", metav1.ListOptions{}))
	if empty.ResourceVersion == "" || empty.ResourceVersion == "0" {
		t.Fatalf("empty list resourceVersion %q would mean \"any\" to a watch", empty.ResourceVersion)
	}
	rv, _ := strconv.Atoi(empty.ResourceVersion)
	w := must[watch.Interface](t)(c.watchCM("", metav1.ListOptions{ResourceVersion: strconv.Itoa(rv + 1)}))
	defer w.Stop()
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "at-start", nil)))
	must[*corev1.ConfigMap](t)(c.createCM(cm("ns", "after-start", nil)))
	if ev := next(t, w); nameOf(ev.Object) != "after-start" {
		t.Fatalf("watch from a future resourceVersion delivered %s", nameOf(ev.Object))
	}
	none(t, w)
}
