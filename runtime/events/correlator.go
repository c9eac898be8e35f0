package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	"k8s.io/utils/lru"
)

// Correlator defaults, the same numbers client-go uses so that clusters see the same event volume.
const (
	defaultLRUCacheSize = 4096
	// Ten events about one object with one reason but different messages inside ten minutes start an
	// aggregate event.
	defaultAggregateMaxEvents         = 10
	defaultAggregateIntervalInSeconds = 600
	// A source may burst 25 events about one object, then one more every five minutes.
	defaultSpamBurst = 25
	defaultSpamQPS   = 1. / 300.
)

// CorrelatorOptions tunes the EventCorrelator a broadcaster puts in front of every sink. Zero fields
// take the defaults.
type CorrelatorOptions struct {
	// LRUCacheSize bounds each of the correlator's caches (spam filter, aggregation, de-duplication);
	// default 4096 keys.
	LRUCacheSize int
	// BurstSize is the token bucket size of the per-object spam filter; default 25.
	BurstSize int
	// QPS is the refill rate of the per-object spam filter; default one event every 5 minutes.
	QPS float32
	// KeyFunc groups events for aggregation; default EventAggregatorByReasonFunc.
	KeyFunc EventAggregatorKeyFunc
	// MessageFunc writes the message of an aggregate event; default EventAggregatorByReasonMessageFunc.
	MessageFunc EventAggregatorMessageFunc
	// MaxEvents is how many distinct events of one group within the interval start aggregation; default 10.
	MaxEvents int
	// MaxIntervalInSeconds is how long a group must be quiet before its events count as new again;
	// default 600.
	MaxIntervalInSeconds int
	// Clock timestamps events and drives the correlator; default the real clock.
	Clock clock.PassiveClock
	// SpamKeyFunc picks the spam filter's bucket for an event; default one bucket per source, object
	// and event type.
	SpamKeyFunc EventSpamKeyFunc
}

// withDefaults fills the zero fields of o.
func (o CorrelatorOptions) withDefaults() CorrelatorOptions {
	if o.LRUCacheSize <= 0 {
		o.LRUCacheSize = defaultLRUCacheSize
	}
	if o.BurstSize <= 0 {
		o.BurstSize = defaultSpamBurst
	}
	if o.QPS <= 0 {
		o.QPS = defaultSpamQPS
	}
	if o.KeyFunc == nil {
		o.KeyFunc = EventAggregatorByReasonFunc
	}
	if o.MessageFunc == nil {
		o.MessageFunc = EventAggregatorByReasonMessageFunc
	}
	if o.MaxEvents <= 0 {
		o.MaxEvents = defaultAggregateMaxEvents
	}
	if o.MaxIntervalInSeconds <= 0 {
		o.MaxIntervalInSeconds = defaultAggregateIntervalInSeconds
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	if o.SpamKeyFunc == nil {
		o.SpamKeyFunc = spamKey
	}
	return o
}

// joinKey joins key parts with a separator that cannot occur in any of them.
func joinKey(parts ...string) string { return strings.Join(parts, "\x00") }

// eventKey identifies an event exactly: two events with the same key are occurrences of one Event.
func eventKey(e *corev1.Event) string {
	o := e.InvolvedObject
	return joinKey(e.Source.Component, e.Source.Host, o.Kind, o.Namespace, o.Name, o.FieldPath, string(o.UID),
		o.APIVersion, e.Type, e.Reason, e.Message)
}

// spamKey is the default spam filter bucket: one per source, object and event type.
func spamKey(e *corev1.Event) string {
	o := e.InvolvedObject
	return joinKey(e.Source.Component, e.Source.Host, o.Kind, o.Namespace, o.Name, string(o.UID), o.APIVersion, e.Type)
}

// EventSpamKeyFunc returns the spam filter bucket of an event.
type EventSpamKeyFunc func(event *corev1.Event) string

// EventFilterFunc returns true when an event must be dropped.
type EventFilterFunc func(event *corev1.Event) bool

// EventSourceObjectSpamFilter rate-limits events per bucket (by default per source and object) with a
// token bucket, so an object that is always unhealthy cannot produce an endless stream of events.
type EventSourceObjectSpamFilter struct {
	mu          sync.Mutex
	buckets     *lru.Cache
	burst       int
	qps         float32
	clock       clock.PassiveClock
	spamKeyFunc EventSpamKeyFunc
}

// NewEventSourceObjectSpamFilter allows burst events per bucket, refilled at qps, keeping at most
// lruCacheSize buckets.
func NewEventSourceObjectSpamFilter(lruCacheSize, burst int, qps float32, clock clock.PassiveClock, spamKeyFunc EventSpamKeyFunc) *EventSourceObjectSpamFilter {
	return &EventSourceObjectSpamFilter{
		buckets: lru.New(lruCacheSize), burst: burst, qps: qps, clock: clock, spamKeyFunc: spamKeyFunc,
	}
}

// Filter takes a token from the event's bucket and returns true (drop) when the bucket is empty.
func (f *EventSourceObjectSpamFilter) Filter(event *corev1.Event) bool {
	key := f.spamKeyFunc(event)
	f.mu.Lock()
	defer f.mu.Unlock()
	var limiter *rate.Limiter
	if v, ok := f.buckets.Get(key); ok {
		limiter = v.(*rate.Limiter)
	} else {
		limiter = rate.NewLimiter(rate.Limit(f.qps), f.burst)
		f.buckets.Add(key, limiter)
	}
	return !limiter.AllowN(f.clock.Now(), 1)
}

// EventAggregatorKeyFunc splits an event into the key of its aggregation group and its key within the
// group; events of one group with different local keys count towards aggregation.
type EventAggregatorKeyFunc func(event *corev1.Event) (aggregateKey string, localKey string)

// EventAggregatorByReasonFunc groups events by source, involved object, type, reason and reporting
// controller/instance; the message tells events of a group apart.
func EventAggregatorByReasonFunc(event *corev1.Event) (string, string) {
	o := event.InvolvedObject
	return joinKey(event.Source.Component, event.Source.Host, o.Kind, o.Namespace, o.Name, string(o.UID),
		o.APIVersion, event.Type, event.Reason, event.ReportingController, event.ReportingInstance), event.Message
}

// EventAggregatorMessageFunc writes the message of an aggregate event from the latest event of the group.
type EventAggregatorMessageFunc func(event *corev1.Event) string

// EventAggregatorByReasonMessageFunc prefixes the latest message with "(combined from similar events): ".
func EventAggregatorByReasonMessageFunc(event *corev1.Event) string {
	return "(combined from similar events): " + event.Message
}

// EventAggregator folds a group of similar events into one aggregate event once the group produced
// maxEvents distinct events within the interval.
type EventAggregator struct {
	mu          sync.Mutex
	groups      *lru.Cache
	keyFunc     EventAggregatorKeyFunc
	messageFunc EventAggregatorMessageFunc
	maxEvents   int
	maxInterval time.Duration
	clock       clock.PassiveClock
}

// aggregateGroup tracks one group: the distinct local keys seen, until the group starts aggregating.
type aggregateGroup struct {
	localKeys   map[string]struct{}
	aggregating bool
	lastSeen    time.Time
}

// NewEventAggregator returns an EventAggregator keeping at most lruCacheSize groups.
func NewEventAggregator(lruCacheSize int, keyFunc EventAggregatorKeyFunc, messageFunc EventAggregatorMessageFunc,
	maxEvents int, maxIntervalInSeconds int, clock clock.PassiveClock) *EventAggregator {
	return &EventAggregator{
		groups:      lru.New(lruCacheSize),
		keyFunc:     keyFunc,
		messageFunc: messageFunc,
		maxEvents:   maxEvents,
		maxInterval: time.Duration(maxIntervalInSeconds) * time.Second,
		clock:       clock,
	}
}

// EventAggregate returns the event to record and its de-duplication key: newEvent itself and its exact
// key while its group is below the threshold, otherwise a new aggregate event and the group key, so
// that every further event of the group bumps the one aggregate.
func (a *EventAggregator) EventAggregate(newEvent *corev1.Event) (*corev1.Event, string) {
	now := a.clock.Now()
	groupKey, localKey := a.keyFunc(newEvent)

	a.mu.Lock()
	defer a.mu.Unlock()
	var g *aggregateGroup
	if v, ok := a.groups.Get(groupKey); ok {
		g = v.(*aggregateGroup)
	}
	if g == nil || now.Sub(g.lastSeen) > a.maxInterval {
		g = &aggregateGroup{localKeys: map[string]struct{}{}}
		a.groups.Add(groupKey, g)
	}
	g.lastSeen = now
	if !g.aggregating {
		g.localKeys[localKey] = struct{}{}
		if len(g.localKeys) < a.maxEvents {
			return newEvent, eventKey(newEvent)
		}
		g.aggregating, g.localKeys = true, nil
	}

	t := metav1.NewTime(now)
	return &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:      eventName(newEvent.InvolvedObject.Name, now),
			Namespace: newEvent.Namespace,
		},
		InvolvedObject:      newEvent.InvolvedObject,
		Reason:              newEvent.Reason,
		Message:             a.messageFunc(newEvent),
		Source:              newEvent.Source,
		FirstTimestamp:      t,
		LastTimestamp:       t,
		Count:               1,
		Type:                newEvent.Type,
		ReportingController: newEvent.ReportingController,
		ReportingInstance:   newEvent.ReportingInstance,
	}, groupKey
}

// observation is what the de-duplicator remembers about an Event it has written.
type observation struct {
	count           int32
	firstTimestamp  metav1.Time
	name            string
	resourceVersion string
}

// eventObserver de-duplicates: a repeated event becomes an update of the first one with a higher count.
type eventObserver struct {
	mu   sync.Mutex
	seen *lru.Cache
}

// countPatch is the body of the patch that records one more occurrence of an existing Event.
type countPatch struct {
	Count         int32       `json:"count"`
	LastTimestamp metav1.Time `json:"lastTimestamp"`
	Message       string      `json:"message"`
}

// observe returns a copy of event that continues the Event recorded under key, if any, with the patch
// that brings the server's copy up to date.
func (o *eventObserver) observe(event *corev1.Event, key string) (*corev1.Event, []byte, error) {
	out := *event
	var patch []byte
	var err error
	o.mu.Lock()
	defer o.mu.Unlock()
	if v, ok := o.seen.Get(key); ok {
		last := v.(observation)
		out.Name = last.name
		out.ResourceVersion = last.resourceVersion
		out.FirstTimestamp = last.firstTimestamp
		out.Count = last.count + 1
		patch, err = json.Marshal(countPatch{Count: out.Count, LastTimestamp: out.LastTimestamp, Message: out.Message})
	}
	o.remember(key, &out)
	return &out, patch, err
}

// remember records the state of an Event; o.mu must be held.
func (o *eventObserver) remember(key string, e *corev1.Event) {
	o.seen.Add(key, observation{
		count: e.Count, firstTimestamp: e.FirstTimestamp, name: e.Name, resourceVersion: e.ResourceVersion,
	})
}

// EventCorrelator sits between recorders and a sink: it drops spam, folds similar events into an
// aggregate and turns repeats into count bumps, so that what reaches the API server stays small.
type EventCorrelator struct {
	filterFunc EventFilterFunc
	aggregator *EventAggregator
	observer   *eventObserver
}

// EventCorrelateResult is the outcome of EventCorrelate.
type EventCorrelateResult struct {
	// Event is what to write; a Count above 1 means it continues an Event already written.
	Event *corev1.Event
	// Patch, when set, updates the existing Event (strategic merge patch of count, lastTimestamp, message).
	Patch []byte
	// Skip says the event was filtered out and must not be written.
	Skip bool

	key string
}

// NewEventCorrelator returns an EventCorrelator with the default options on the given clock.
func NewEventCorrelator(clock clock.PassiveClock) *EventCorrelator {
	return NewEventCorrelatorWithOptions(CorrelatorOptions{Clock: clock})
}

// NewEventCorrelatorWithOptions returns an EventCorrelator tuned by options.
func NewEventCorrelatorWithOptions(options CorrelatorOptions) *EventCorrelator {
	o := options.withDefaults()
	spam := NewEventSourceObjectSpamFilter(o.LRUCacheSize, o.BurstSize, o.QPS, o.Clock, o.SpamKeyFunc)
	return &EventCorrelator{
		filterFunc: spam.Filter,
		aggregator: NewEventAggregator(o.LRUCacheSize, o.KeyFunc, o.MessageFunc, o.MaxEvents, o.MaxIntervalInSeconds, o.Clock),
		observer:   &eventObserver{seen: lru.New(o.LRUCacheSize)},
	}
}

// EventCorrelate aggregates, de-duplicates and spam-filters newEvent. Events dropped by the spam filter
// still count: the next Event written for them carries the full count.
func (c *EventCorrelator) EventCorrelate(newEvent *corev1.Event) (*EventCorrelateResult, error) {
	if newEvent == nil {
		return nil, errors.New("events: cannot correlate a nil event")
	}
	event, key := c.aggregator.EventAggregate(newEvent)
	observed, patch, err := c.observer.observe(event, key)
	if err != nil {
		err = fmt.Errorf("events: building the count patch: %w", err)
	}
	if c.filterFunc(observed) {
		return &EventCorrelateResult{Skip: true}, nil
	}
	return &EventCorrelateResult{Event: observed, Patch: patch, key: key}, err
}

// UpdateState records the server's copy of an Event (its name and resourceVersion) so later repeats
// patch the right object.
func (c *EventCorrelator) UpdateState(event *corev1.Event) {
	c.updateState(eventKey(event), event)
}

// updateState is UpdateState for an event whose de-duplication key is already known, as it is for
// aggregate events.
func (c *EventCorrelator) updateState(key string, event *corev1.Event) {
	c.observer.mu.Lock()
	defer c.observer.mu.Unlock()
	c.observer.remember(key, event)
}
