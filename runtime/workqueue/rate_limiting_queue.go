package workqueue

// TypedRateLimitingInterface is a delaying queue that delays re-adds by a rate limiter.
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]
	// AddRateLimited adds item after the delay the rate limiter asks for.
	AddRateLimited(item T)
	// Forget tells the rate limiter that item is done with retrying; it does
	// not remove item from the queue.
	Forget(item T)
	// NumRequeues returns how often item has been rate limited since its last Forget.
	NumRequeues(item T) int
}

// RateLimitingInterface is the untyped rate-limiting queue.
type RateLimitingInterface = TypedRateLimitingInterface[any]

// TypedRateLimitingQueueConfig configures a rate-limiting queue.
type TypedRateLimitingQueueConfig[T comparable] = TypedQueueConfig[T]

// RateLimitingQueueConfig configures an untyped rate-limiting queue.
type RateLimitingQueueConfig = TypedRateLimitingQueueConfig[any]

// TypedRateLimiting is the rate-limiting queue: a Typed queue plus a rate
// limiter. It implements TypedRateLimitingInterface and TypedPriorityInterface.
type TypedRateLimiting[T comparable] struct {
	*Typed[T]
	rateLimiter TypedRateLimiter[T]
}

// RateLimitingType is the untyped rate-limiting queue.
type RateLimitingType = TypedRateLimiting[any]

// NewRateLimitingQueue returns an untyped queue whose re-adds are delayed by rateLimiter.
func NewRateLimitingQueue(rateLimiter RateLimiter) *RateLimitingType {
	return NewTypedRateLimitingQueue(rateLimiter)
}

// NewRateLimitingQueueWithConfig returns an untyped rate-limiting queue configured by config.
func NewRateLimitingQueueWithConfig(rateLimiter RateLimiter, config RateLimitingQueueConfig) *RateLimitingType {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, config)
}

// NewNamedRateLimitingQueue returns an untyped rate-limiting queue whose metrics are labelled name.
func NewNamedRateLimitingQueue(rateLimiter RateLimiter, name string) *RateLimitingType {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{Name: name})
}

// NewTypedRateLimitingQueue returns a queue of T whose re-adds are delayed by rateLimiter.
func NewTypedRateLimitingQueue[T comparable](rateLimiter TypedRateLimiter[T]) *TypedRateLimiting[T] {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, TypedRateLimitingQueueConfig[T]{})
}

// NewTypedRateLimitingQueueWithConfig returns a rate-limiting queue of T configured by config.
func NewTypedRateLimitingQueueWithConfig[T comparable](rateLimiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) *TypedRateLimiting[T] {
	return &TypedRateLimiting[T]{Typed: NewTypedWithConfig(config), rateLimiter: rateLimiter}
}

// AddRateLimited adds item after the delay the rate limiter asks for.
func (q *TypedRateLimiting[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.rateLimiter.When(item))
}

// AddWithOpts adds items with the priority and delay of opts; with RateLimited,
// each item waits at least as long as the rate limiter asks.
func (q *TypedRateLimiting[T]) AddWithOpts(opts AddOpts, items ...T) {
	if !opts.RateLimited {
		q.Typed.AddWithOpts(opts, items...)
		return
	}
	for _, item := range items {
		o := opts
		o.After = max(o.After, q.rateLimiter.When(item))
		if o.After <= 0 && q.retries != nil {
			q.retries.Inc() // a retry, like AddRateLimited, even when not delayed
		}
		q.Typed.AddWithOpts(o, item)
	}
}

// Forget tells the rate limiter to stop tracking item's failures.
func (q *TypedRateLimiting[T]) Forget(item T) { q.rateLimiter.Forget(item) }

// NumRequeues returns how often item has been rate limited since its last Forget.
func (q *TypedRateLimiting[T]) NumRequeues(item T) int { return q.rateLimiter.NumRequeues(item) }
