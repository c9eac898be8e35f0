package workqueue

import (
	"testing"
	"time"

	"go.uber.org/goleak"
	testingclock "k8s.io/utils/clock/testing"
)

// TestMain fails the package if any test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// newFakeClock returns a fake clock at a fixed instant.
func newFakeClock() *testingclock.FakeClock {
	return testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
}

// mustGet gets an item and fails the test on shutdown.
func mustGet[T comparable](t *testing.T, q TypedInterface[T]) T {
	t.Helper()
	item, shutdown := q.Get()
	if shutdown {
		t.Fatalf("Get: unexpected shutdown")
	}
	return item
}

// getAsync runs Get in a goroutine and delivers its result on the returned channel.
func getAsync[T comparable](q TypedInterface[T]) <-chan T {
	ch := make(chan T, 1)
	go func() {
		item, shutdown := q.Get()
		if !shutdown {
			ch <- item
		}
		close(ch)
	}()
	return ch
}
