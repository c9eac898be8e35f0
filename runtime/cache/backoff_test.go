package cache

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	clocktesting "k8s.io/utils/clock/testing"
)

func TestBackoffReturnsToInitialDelayWhenHealthy(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	b := &backoff{config: wait.Backoff{Duration: time.Second, Factor: 2, Cap: 8 * time.Second}, resetAfter: time.Minute, clock: clk}
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if d := b.next(); d != want {
			t.Errorf("delay %d = %v, want %v", i, d, want)
		}
	}
	b.reset()
	if d := b.next(); d != time.Second {
		t.Errorf("after a healthy watch, delay = %v, want the initial 1s", d)
	}
}

func TestBackoffRelistsAtOnceOncePerHealthyPeriod(t *testing.T) {
	b := &backoff{config: wait.Backoff{Duration: time.Second, Factor: 2}, resetAfter: time.Minute, clock: clocktesting.NewFakeClock(time.Now())}
	if !b.relistAtOnce() {
		t.Error("first expiry: relistAtOnce = false, want true")
	}
	if b.relistAtOnce() {
		t.Error("second expiry without a healthy watch: relistAtOnce = true, want false")
	}
	b.reset()
	if !b.relistAtOnce() {
		t.Error("expiry after a healthy watch: relistAtOnce = false, want true")
	}
}

// TestReflectorRelistsAtOnceAfterExpiredWatch checks that a watch ending with 410 is followed by a
// relist without delay, that a second 410 before the watch delivered anything waits for the backoff,
// and that an event delivered by the watch makes the next 410 free again.
func TestReflectorRelistsAtOnceAfterExpiredWatch(t *testing.T) {
	checkLeaks(t)
	src := newSource()
	src.apply(watch.Added, "ns", "a", "0")
	store := newRecordingStore()
	clk := clocktesting.NewFakeClock(time.Now())
	options := listModeOptions()
	options.Backoff = &wait.Backoff{Duration: time.Second, Factor: 2, Cap: 8 * time.Second}
	options.Clock = clk
	r := NewReflectorWithOptions(src, &corev1.ConfigMap{}, store, options)
	stop := runReflector(t, r)
	defer stop()
	replaces := func() int {
		list, _, _ := store.counts()
		return len(list)
	}
	expire := func() { src.sendError(&apierrors.NewResourceExpired("too old resource version").ErrStatus) }
	eventually(t, "watch", func() bool { return src.openWatches() == 1 })

	expire()
	eventually(t, "relist without delay", func() bool { return replaces() == 2 && src.openWatches() == 1 })

	expire()
	eventually(t, "a paused reflector", clk.HasWaiters)
	if n := replaces(); n != 2 {
		t.Fatalf("relisted %d times during the backoff, want 2", n)
	}
	clk.Step(time.Second)
	eventually(t, "relist after the delay", func() bool { return replaces() == 3 && src.openWatches() == 1 })

	src.apply(watch.Added, "ns", "b", "0")
	eventually(t, "b", storeHasRV(store, "ns/b", "2"))
	expire()
	eventually(t, "relist without delay after a healthy watch", func() bool { return replaces() == 4 && src.openWatches() == 1 })
}
