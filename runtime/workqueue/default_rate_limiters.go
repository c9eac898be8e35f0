package workqueue

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/utils/clock"
)

// TypedRateLimiter decides how long an item waits before it is retried.
type TypedRateLimiter[T comparable] interface {
	// When records a failure of item and returns how long it should wait.
	When(item T) time.Duration
	// Forget clears item's failure history.
	Forget(item T)
	// NumRequeues returns the failures of item recorded since its last Forget.
	NumRequeues(item T) int
}

// RateLimiter is the untyped rate limiter.
type RateLimiter = TypedRateLimiter[any]

// DefaultControllerRateLimiter is DefaultTypedControllerRateLimiter for untyped items.
func DefaultControllerRateLimiter() RateLimiter { return DefaultTypedControllerRateLimiter[any]() }

// DefaultTypedControllerRateLimiter is the usual controller rate limiter: the
// larger of a per-item exponential backoff from 5ms to 1000s and an overall
// 10 qps token bucket with a burst of 100.
func DefaultTypedControllerRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedMaxOfRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		&TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// DefaultItemBasedRateLimiter is DefaultTypedItemBasedRateLimiter for untyped items.
func DefaultItemBasedRateLimiter() RateLimiter { return DefaultTypedItemBasedRateLimiter[any]() }

// DefaultTypedItemBasedRateLimiter is a per-item exponential backoff from 1ms to 1000s.
func DefaultTypedItemBasedRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedItemExponentialFailureRateLimiter[T](time.Millisecond, 1000*time.Second)
}

// TypedBucketRateLimiter limits all items together with a token bucket.
type TypedBucketRateLimiter[T comparable] struct {
	*rate.Limiter
	// Clock is the source of time; nil means the real clock.
	Clock clock.PassiveClock
}

// BucketRateLimiter is the untyped bucket rate limiter.
type BucketRateLimiter = TypedBucketRateLimiter[any]

// When reserves a token and returns how long until it is available.
func (r *TypedBucketRateLimiter[T]) When(T) time.Duration {
	if r.Clock == nil {
		return r.Limiter.Reserve().Delay()
	}
	now := r.Clock.Now()
	return r.Limiter.ReserveN(now, 1).DelayFrom(now)
}

// NumRequeues is always 0: the bucket does not track items.
func (r *TypedBucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// Forget does nothing: the bucket does not track items.
func (r *TypedBucketRateLimiter[T]) Forget(T) {}

// LimiterOption configures a per-item rate limiter.
type LimiterOption func(*limiterOptions)

type limiterOptions struct {
	clock       clock.PassiveClock
	forgetAfter time.Duration
}

// WithLimiterClock sets the clock a per-item limiter uses to expire failure records.
func WithLimiterClock(c clock.PassiveClock) LimiterOption {
	return func(o *limiterOptions) { o.clock = c }
}

// WithForgetAfter sets how long after its last failure an item's record is
// dropped when nobody calls Forget. The default is twice the limiter's longest
// delay, and at least ten minutes.
func WithForgetAfter(d time.Duration) LimiterOption {
	return func(o *limiterOptions) {
		if d > 0 {
			o.forgetAfter = d
		}
	}
}

// minForgetAfter is the shortest default record lifetime.
const minForgetAfter = 10 * time.Minute

func newFailures[T comparable](longestDelay time.Duration, opts []LimiterOption) *failures[T] {
	o := limiterOptions{clock: clock.RealClock{}, forgetAfter: minForgetAfter}
	if longestDelay > math.MaxInt64/2 {
		o.forgetAfter = math.MaxInt64
	} else {
		o.forgetAfter = max(o.forgetAfter, 2*longestDelay)
	}
	for _, opt := range opts {
		opt(&o)
	}
	return &failures[T]{counts: make(map[T]failure), clock: o.clock, start: o.clock.Now(), ttl: o.forgetAfter}
}

// failures counts failures per item. Records of items that have not failed for
// ttl are dropped, so callers that never call Forget do not leak memory (the
// client-go limiters keep such records forever). Times are kept as durations
// since start: reading the elapsed monotonic time costs about half of reading
// the wall clock too.
type failures[T comparable] struct {
	mu        sync.Mutex
	counts    map[T]failure
	clock     clock.PassiveClock
	start     time.Time
	ttl       time.Duration
	nextSweep time.Duration
}

type failure struct {
	n    int
	last time.Duration // since start
}

func (f *failures[T]) expired(r failure, now time.Duration) bool {
	return now-r.last >= f.ttl
}

// record counts a failure of item and returns the number of earlier failures.
func (f *failures[T]) record(item T) int {
	now := f.clock.Since(f.start)
	f.mu.Lock()
	defer f.mu.Unlock()
	if now >= f.nextSweep {
		for k, r := range f.counts {
			if f.expired(r, now) {
				delete(f.counts, k)
			}
		}
		f.nextSweep = now + f.ttl/2
	}
	r := f.counts[item]
	if f.expired(r, now) {
		r.n = 0
	}
	f.counts[item] = failure{n: r.n + 1, last: now}
	return r.n
}

func (f *failures[T]) count(item T) int {
	now := f.clock.Since(f.start)
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.counts[item]
	if !ok || f.expired(r, now) {
		return 0
	}
	return r.n
}

func (f *failures[T]) forget(item T) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.counts, item)
}

// TypedItemExponentialFailureRateLimiter delays an item base·2^failures, capped at max.
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	failures  *failures[T]
	baseDelay time.Duration
	maxDelay  time.Duration
}

// ItemExponentialFailureRateLimiter is the untyped exponential failure rate limiter.
type ItemExponentialFailureRateLimiter = TypedItemExponentialFailureRateLimiter[any]

// NewItemExponentialFailureRateLimiter is NewTypedItemExponentialFailureRateLimiter for untyped items.
func NewItemExponentialFailureRateLimiter(baseDelay, maxDelay time.Duration, opts ...LimiterOption) RateLimiter {
	return NewTypedItemExponentialFailureRateLimiter[any](baseDelay, maxDelay, opts...)
}

// NewTypedItemExponentialFailureRateLimiter returns a limiter that delays an
// item baseDelay·2^(failures) capped at maxDelay.
func NewTypedItemExponentialFailureRateLimiter[T comparable](baseDelay, maxDelay time.Duration, opts ...LimiterOption) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{
		failures:  newFailures[T](maxDelay, opts),
		baseDelay: baseDelay,
		maxDelay:  maxDelay,
	}
}

// When records a failure of item and returns its backoff.
func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	return backoff(r.baseDelay, r.maxDelay, r.failures.record(item))
}

// backoff returns base·2^exp capped at max, without overflowing.
func backoff(base, maxDelay time.Duration, exp int) time.Duration {
	if base <= 0 {
		return min(base, maxDelay)
	}
	if exp >= 63 || base > math.MaxInt64>>exp {
		return maxDelay
	}
	return min(base<<exp, maxDelay)
}

// NumRequeues returns the failures of item since its last Forget.
func (r *TypedItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	return r.failures.count(item)
}

// Forget clears item's failures.
func (r *TypedItemExponentialFailureRateLimiter[T]) Forget(item T) { r.failures.forget(item) }

// TypedItemFastSlowRateLimiter delays an item fastDelay for its first
// maxFastAttempts failures and slowDelay after that.
type TypedItemFastSlowRateLimiter[T comparable] struct {
	failures        *failures[T]
	maxFastAttempts int
	fastDelay       time.Duration
	slowDelay       time.Duration
}

// ItemFastSlowRateLimiter is the untyped fast-slow rate limiter.
type ItemFastSlowRateLimiter = TypedItemFastSlowRateLimiter[any]

// NewItemFastSlowRateLimiter is NewTypedItemFastSlowRateLimiter for untyped items.
func NewItemFastSlowRateLimiter(fastDelay, slowDelay time.Duration, maxFastAttempts int, opts ...LimiterOption) RateLimiter {
	return NewTypedItemFastSlowRateLimiter[any](fastDelay, slowDelay, maxFastAttempts, opts...)
}

// NewTypedItemFastSlowRateLimiter returns a limiter that waits fastDelay for
// the first maxFastAttempts failures of an item and slowDelay afterwards.
func NewTypedItemFastSlowRateLimiter[T comparable](fastDelay, slowDelay time.Duration, maxFastAttempts int, opts ...LimiterOption) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{
		failures:        newFailures[T](max(fastDelay, slowDelay), opts),
		maxFastAttempts: maxFastAttempts,
		fastDelay:       fastDelay,
		slowDelay:       slowDelay,
	}
}

// When records a failure of item and returns the fast or slow delay.
func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	if r.failures.record(item) < r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

// NumRequeues returns the failures of item since its last Forget.
func (r *TypedItemFastSlowRateLimiter[T]) NumRequeues(item T) int { return r.failures.count(item) }

// Forget clears item's failures.
func (r *TypedItemFastSlowRateLimiter[T]) Forget(item T) { r.failures.forget(item) }

// TypedMaxOfRateLimiter asks every limiter and waits the longest.
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

// MaxOfRateLimiter is the untyped max-of rate limiter.
type MaxOfRateLimiter = TypedMaxOfRateLimiter[any]

// NewMaxOfRateLimiter is NewTypedMaxOfRateLimiter for untyped items.
func NewMaxOfRateLimiter(limiters ...RateLimiter) RateLimiter {
	return NewTypedMaxOfRateLimiter(limiters...)
}

// NewTypedMaxOfRateLimiter returns a limiter whose delay is the longest of limiters'.
func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	return &TypedMaxOfRateLimiter[T]{limiters: limiters}
}

// When records a failure with every limiter and returns the longest delay.
func (r *TypedMaxOfRateLimiter[T]) When(item T) time.Duration {
	var d time.Duration
	for _, l := range r.limiters {
		d = max(d, l.When(item))
	}
	return d
}

// NumRequeues returns the largest count of the limiters.
func (r *TypedMaxOfRateLimiter[T]) NumRequeues(item T) int {
	n := 0
	for _, l := range r.limiters {
		n = max(n, l.NumRequeues(item))
	}
	return n
}

// Forget clears item with every limiter.
func (r *TypedMaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

// TypedWithMaxWaitRateLimiter caps another limiter's delay.
type TypedWithMaxWaitRateLimiter[T comparable] struct {
	limiter  TypedRateLimiter[T]
	maxDelay time.Duration
}

// WithMaxWaitRateLimiter is the untyped max-wait rate limiter.
type WithMaxWaitRateLimiter = TypedWithMaxWaitRateLimiter[any]

// NewWithMaxWaitRateLimiter is NewTypedWithMaxWaitRateLimiter for untyped items.
func NewWithMaxWaitRateLimiter(limiter RateLimiter, maxDelay time.Duration) RateLimiter {
	return NewTypedWithMaxWaitRateLimiter(limiter, maxDelay)
}

// NewTypedWithMaxWaitRateLimiter returns limiter with its delays capped at maxDelay.
func NewTypedWithMaxWaitRateLimiter[T comparable](limiter TypedRateLimiter[T], maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedWithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

// When returns the wrapped limiter's delay, capped.
func (w *TypedWithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	return min(w.limiter.When(item), w.maxDelay)
}

// Forget clears item with the wrapped limiter.
func (w *TypedWithMaxWaitRateLimiter[T]) Forget(item T) { w.limiter.Forget(item) }

// NumRequeues returns the wrapped limiter's count.
func (w *TypedWithMaxWaitRateLimiter[T]) NumRequeues(item T) int { return w.limiter.NumRequeues(item) }
