package retry

import (
	"errors"
	"slices"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
)

var conflict = apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, "p", errors.New("the object has been modified"))

// failing returns an fn that returns errs in turn, then nil, and counts its calls.
func failing(calls *int, errs ...error) func() error {
	return func() error {
		*calls++
		if *calls <= len(errs) {
			return errs[*calls-1]
		}
		return nil
	}
}

// recordSleeps is a sleep that records the waits asked of it instead of taking them.
func recordSleeps(waits *[]time.Duration) func(time.Duration) {
	return func(d time.Duration) { *waits = append(*waits, d) }
}

func TestOnErrorRetriesRetriableErrorsWithBackoffWaits(t *testing.T) {
	var calls int
	var waits []time.Duration
	backoff := wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 2}
	err := onError(recordSleeps(&waits), backoff, apierrors.IsConflict, failing(&calls, conflict, conflict, conflict))
	if err != nil || calls != 4 {
		t.Fatalf("err %v after %d calls, want nil after 4", err, calls)
	}
	if want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}; !slices.Equal(waits, want) {
		t.Fatalf("waited %v, want %v", waits, want)
	}
}

func TestOnErrorReturnsLastRetriableErrorWhenStepsRunOut(t *testing.T) {
	var calls int
	var waits []time.Duration
	last := apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, "p", errors.New("third"))
	err := onError(recordSleeps(&waits), wait.Backoff{Steps: 3, Duration: time.Second}, apierrors.IsConflict,
		failing(&calls, conflict, conflict, last, conflict))
	if err != last || calls != 3 || len(waits) != 2 {
		t.Fatalf("err %v after %d calls and %d waits, want the third conflict after 3 calls and 2 waits", err, calls, len(waits))
	}
}

func TestOnErrorStopsAtNonRetriableError(t *testing.T) {
	var calls int
	var waits []time.Duration
	notFound := apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, "p")
	err := onError(recordSleeps(&waits), DefaultRetry, apierrors.IsConflict, failing(&calls, conflict, notFound, conflict))
	if err != notFound || calls != 2 || len(waits) != 1 {
		t.Fatalf("err %v after %d calls and %d waits, want NotFound after 2 calls and 1 wait", err, calls, len(waits))
	}
}

func TestOnErrorWithoutStepsNeverCalls(t *testing.T) {
	var calls int
	err := onError(recordSleeps(new([]time.Duration)), wait.Backoff{}, apierrors.IsConflict, failing(&calls))
	if calls != 0 || !wait.Interrupted(err) {
		t.Fatalf("err %v after %d calls, want an interrupted wait and no call", err, calls)
	}
}

func TestRetryOnConflict(t *testing.T) {
	// Zero-duration steps: the public functions run for real without waiting.
	backoff := wait.Backoff{Steps: 3}
	var calls int
	if err := RetryOnConflict(backoff, failing(&calls, conflict, conflict)); err != nil || calls != 3 {
		t.Fatalf("err %v after %d calls, want nil after 3", err, calls)
	}
	calls = 0
	other := errors.New("boom")
	if err := RetryOnConflict(backoff, failing(&calls, other)); err != other || calls != 1 {
		t.Fatalf("err %v after %d calls, want boom after 1", err, calls)
	}
	calls = 0
	if err := OnError(backoff, func(error) bool { return true }, failing(&calls, other, other, other, other)); err != other || calls != 3 {
		t.Fatalf("OnError: err %v after %d calls, want boom after 3", err, calls)
	}
}

func TestDefaultBackoffsMatchClientGo(t *testing.T) {
	if DefaultRetry != (wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1, Jitter: 0.1}) {
		t.Errorf("DefaultRetry = %+v", DefaultRetry)
	}
	if DefaultBackoff != (wait.Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5, Jitter: 0.1}) {
		t.Errorf("DefaultBackoff = %+v", DefaultBackoff)
	}
	// Without jitter, DefaultBackoff waits 10ms, 50ms and 250ms between its four tries.
	b := DefaultBackoff
	b.Jitter = 0
	var waits []time.Duration
	var calls int
	_ = onError(recordSleeps(&waits), b, func(error) bool { return true }, failing(&calls, conflict, conflict, conflict, conflict))
	if want := []time.Duration{10 * time.Millisecond, 50 * time.Millisecond, 250 * time.Millisecond}; calls != 4 || !slices.Equal(waits, want) {
		t.Fatalf("%d calls, waits %v; want 4 calls, waits %v", calls, waits, want)
	}
}
