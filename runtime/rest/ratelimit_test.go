package rest

import (
	"context"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

func TestTokenBucketWaitFailsEarly(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	if err := newTokenBucket(5, 0, clk).Wait(context.Background()); err == nil {
		t.Error("Wait on a bucket of burst 0 succeeded")
	}

	l := newTokenBucket(5, 1, clk)
	if !l.TryAccept() {
		t.Fatal("the first token was not there")
	}
	// The next token comes in 200ms: a context ending sooner fails at once and leaves the token.
	ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(100*time.Millisecond))
	defer cancel()
	if err := l.Wait(ctx); err == nil {
		t.Error("Wait succeeded although the context ends before the token comes")
	}
	if clk.HasWaiters() {
		t.Error("Wait waited for a token it could not get in time")
	}
	clk.Step(200 * time.Millisecond)
	if !l.TryAccept() {
		t.Error("the failed Wait kept the token it reserved")
	}
}
