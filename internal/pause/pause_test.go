package pause

import (
	"context"
	"testing"
	"time"

	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
)

func TestForWaitsOnTheClock(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC))
	done := make(chan bool)
	go func() { done <- For(context.Background(), c, time.Minute) }()
	for !c.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	c.Step(59 * time.Second)
	select {
	case <-done:
		t.Fatal("returned before the minute was up")
	case <-time.After(20 * time.Millisecond):
	}
	c.Step(time.Second)
	if !<-done {
		t.Fatal("reported an ended context")
	}
	if c.HasWaiters() {
		t.Fatal("left a timer behind")
	}
}

func TestForStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- For(ctx, clock.RealClock{}, time.Hour) }()
	cancel()
	if <-done {
		t.Fatal("reported a full wait after cancellation")
	}
	if For(ctx, clock.RealClock{}, 0) || !For(context.Background(), clock.RealClock{}, 0) {
		t.Fatal("a zero wait must report whether the context is live")
	}
}
