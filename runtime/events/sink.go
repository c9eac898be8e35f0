package events

import (
	"errors"
	"math/rand/v2"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// EventSink stores Events, typically in the API server. It must write each Event to the namespace the
// Event names and return the API server's errors (*errors.StatusError) so they can be told apart from
// transport failures.
type EventSink interface {
	// Create creates event and returns the stored copy.
	Create(event *corev1.Event) (*corev1.Event, error)
	// Update replaces event and returns the stored copy.
	Update(event *corev1.Event) (*corev1.Event, error)
	// Patch applies a strategic merge patch to the Event oldEvent names and returns the stored copy.
	Patch(oldEvent *corev1.Event, data []byte) (*corev1.Event, error)
}

// recordToSink correlates event and writes the result to sink, retrying transient failures with
// jittered pauses. An attempt that starts after shutdown began is the last one.
func (b *broadcaster) recordToSink(sink EventSink, event *corev1.Event, correlator *EventCorrelator) {
	own := *event // the watchers share event
	correlated, err := correlator.EventCorrelate(&own)
	if err != nil {
		b.logger.Error(err, "Event correlation failed", "event", klogEvent(&own))
	}
	if correlated == nil || correlated.Skip {
		return
	}
	for attempt := 1; ; attempt++ {
		final := b.isShuttingDown()
		if b.writeEvent(sink, correlated, correlator) {
			return
		}
		if attempt >= maxTriesPerEvent || final {
			b.logger.Error(nil, "Giving up writing event", "event", klogEvent(correlated.Event), "attempts", attempt)
			return
		}
		if b.isShuttingDown() {
			continue // shutdown began during this attempt: one last try, no pause
		}
		timer := time.NewTimer(retryDelay(b.sleepDuration, attempt))
		select {
		case <-timer.C:
		case <-b.shutdownStarted:
			timer.Stop()
		}
	}
}

// retryDelay is the pause before retry attempt+1: uniformly random the first time so that clients
// that failed together spread out, then the full pause plus up to 10% jitter.
func retryDelay(d time.Duration, attempt int) time.Duration {
	if d <= 0 {
		return 0
	}
	if attempt == 1 {
		return rand.N(d)
	}
	return d + rand.N(d/10+1)
}

// writeEvent makes one attempt to store the correlated event. It returns true when the event is done
// with, written or rejected for good, and false when a retry may succeed.
func (b *broadcaster) writeEvent(sink EventSink, result *EventCorrelateResult, correlator *EventCorrelator) bool {
	event := result.Event
	var stored *corev1.Event
	var err error
	update := event.Count > 1
	if update {
		stored, err = sink.Patch(event, result.Patch)
	}
	if !update || apierrors.IsNotFound(err) {
		// A first occurrence, or an Event that expired from the server since the last occurrence.
		fresh := *event
		fresh.ResourceVersion = ""
		stored, err = sink.Create(&fresh)
	}
	if err == nil {
		if stored != nil {
			correlator.updateState(result.key, stored)
		}
		return true
	}
	if retriable(err) {
		b.logger.Error(err, "Unable to write event, will retry", "event", klogEvent(event))
		return false
	}
	if apierrors.IsAlreadyExists(err) || apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
		b.logger.V(5).Info("Server rejected event", "event", klogEvent(event), "err", err)
	} else {
		b.logger.Error(err, "Server rejected event, dropping it", "event", klogEvent(event))
	}
	return true
}

// retriable reports whether a failed write may succeed later: transport failures and the API server's
// overload and timeout answers are; other answers from the server mean the event itself is refused.
func retriable(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return true
	}
	return apierrors.IsTooManyRequests(err) || apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) ||
		apierrors.IsServiceUnavailable(err) || apierrors.IsInternalError(err)
}

// klogEvent is the compact form of an event in log lines.
func klogEvent(e *corev1.Event) any {
	if e == nil {
		return nil
	}
	return map[string]any{
		"namespace": e.Namespace, "name": e.Name, "object": e.InvolvedObject.Kind + "/" + e.InvolvedObject.Name,
		"type": e.Type, "reason": e.Reason, "count": e.Count,
	}
}
