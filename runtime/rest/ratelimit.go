package rest

import (
	"context"
	"fmt"

	"golang.org/x/time/rate"
	"k8s.io/utils/clock"

	"github.com/kgen-dev/kgen/internal/pause"
)

// RateLimiter throttles client requests.
type RateLimiter interface {
	// TryAccept reports whether a token is available now, taking it if so.
	TryAccept() bool
	// Accept blocks until a token is available.
	Accept()
	// Stop releases resources held by the limiter.
	Stop()
	// QPS returns the sustained rate of the limiter.
	QPS() float32
	// Wait blocks until a token is available or ctx is done.
	Wait(ctx context.Context) error
}

// NewTokenBucketRateLimiter returns a RateLimiter allowing qps requests per second with bursts of burst.
func NewTokenBucketRateLimiter(qps float32, burst int) RateLimiter {
	return newTokenBucket(qps, burst, clock.RealClock{})
}

func newTokenBucket(qps float32, burst int, clk clock.Clock) *tokenBucket {
	return &tokenBucket{limiter: rate.NewLimiter(rate.Limit(qps), burst), qps: qps, clock: clk}
}

// tokenBucket is a rate.Limiter read on its own clock, so tests can drive it with a fake one.
type tokenBucket struct {
	limiter *rate.Limiter
	qps     float32
	clock   clock.Clock
}

func (t *tokenBucket) TryAccept() bool { return t.limiter.AllowN(t.clock.Now(), 1) }

func (t *tokenBucket) Accept() { _ = t.Wait(context.Background()) }

func (t *tokenBucket) Stop() {}

func (t *tokenBucket) QPS() float32 { return t.qps }

// Wait takes a token, waiting for it on the bucket's clock. Like rate.Limiter.Wait it fails at once
// when ctx is done or ends before the token would be available.
func (t *tokenBucket) Wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := t.clock.Now()
	r := t.limiter.ReserveN(now, 1)
	if !r.OK() {
		return fmt.Errorf("rate: Wait(n=1) exceeds limiter's burst %d", t.limiter.Burst())
	}
	delay := r.DelayFrom(now)
	if deadline, ok := ctx.Deadline(); ok && now.Add(delay).After(deadline) {
		r.CancelAt(now)
		return fmt.Errorf("rate: Wait(n=1) would exceed context deadline")
	}
	if !pause.For(ctx, t.clock, delay) {
		r.CancelAt(t.clock.Now())
		return ctx.Err()
	}
	return nil
}
