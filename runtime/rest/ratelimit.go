package rest

import (
	"context"

	"golang.org/x/time/rate"
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
	return &tokenBucket{limiter: rate.NewLimiter(rate.Limit(qps), burst), qps: qps}
}

type tokenBucket struct {
	limiter *rate.Limiter
	qps     float32
}

func (t *tokenBucket) TryAccept() bool { return t.limiter.Allow() }

func (t *tokenBucket) Accept() { _ = t.limiter.Wait(context.Background()) }

func (t *tokenBucket) Stop() {}

func (t *tokenBucket) QPS() float32 { return t.qps }

func (t *tokenBucket) Wait(ctx context.Context) error { return t.limiter.Wait(ctx) }
