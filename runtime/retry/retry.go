// Package retry repeats a failing operation under a backoff: RetryOnConflict for the
// read-modify-update loop of a controller that lost an optimistic-concurrency race, OnError for any
// other retriable failure. It has the API of k8s.io/client-go/util/retry and takes the same
// k8s.io/apimachinery wait.Backoff, so ported code keeps its calls and backoff values.
package retry

import (
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
)

// DefaultRetry is the backoff for retrying a conflicting update: five tries about 10ms apart, for
// writers that contend briefly on the same object.
var DefaultRetry = wait.Backoff{
	Steps:    5,
	Duration: 10 * time.Millisecond,
	Factor:   1.0,
	Jitter:   0.1,
}

// DefaultBackoff is the backoff for retrying an operation whose cause may take a while to clear:
// four tries, waiting about 10ms, 50ms and 250ms between them.
var DefaultBackoff = wait.Backoff{
	Steps:    4,
	Duration: 10 * time.Millisecond,
	Factor:   5.0,
	Jitter:   0.1,
}

// errExhausted is returned when backoff allows no attempt at all.
var errExhausted = wait.ErrorInterrupted(errors.New("timed out waiting for the condition"))

// OnError calls fn until it succeeds, fails with an error retriable rejects, or backoff's steps
// are spent, sleeping backoff's next step between tries. It returns nil on success, the first
// non-retriable error, or else the last retriable one. A backoff of no steps never calls fn and
// returns an error wait.Interrupted recognises.
func OnError(backoff wait.Backoff, retriable func(error) bool, fn func() error) error {
	return onError(time.Sleep, backoff, retriable, fn)
}

// RetryOnConflict calls fn as OnError does, retrying while it fails with a Conflict error from the
// API server. fn must read the object afresh each time, apply its change and write it back:
//
//	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
//		pod, err := pods.Get(ctx, name, metav1.GetOptions{})
//		if err != nil {
//			return err
//		}
//		pod.Labels["ready"] = "true"
//		_, err = pods.Update(ctx, pod, metav1.UpdateOptions{})
//		return err
//	})
func RetryOnConflict(backoff wait.Backoff, fn func() error) error {
	return OnError(backoff, apierrors.IsConflict, fn)
}

// onError is OnError with the sleep between tries given, so tests observe the waits without taking
// them.
func onError(sleep func(time.Duration), backoff wait.Backoff, retriable func(error) bool, fn func() error) error {
	var last error
	for backoff.Steps > 0 {
		err := fn()
		switch {
		case err == nil:
			return nil
		case !retriable(err):
			return err
		}
		last = err
		if backoff.Steps == 1 {
			break
		}
		sleep(backoff.Step())
	}
	if last == nil {
		return errExhausted
	}
	return last
}
