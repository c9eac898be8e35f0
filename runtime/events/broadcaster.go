package events

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// Broadcaster defaults.
const (
	defaultQueueLength         = 1000
	defaultSleepDuration       = 10 * time.Second
	defaultShutdownGracePeriod = 10 * time.Second
	maxTriesPerEvent           = 12
)

// EventBroadcaster receives events from its recorders and sends each to every watcher, log and sink
// started on it.
type EventBroadcaster interface {
	// StartEventWatcher calls eventHandler, from one goroutine, for every event recorded from now on.
	// The handler must not modify the event: all watchers share it. Stop the returned watch to end.
	StartEventWatcher(eventHandler func(*corev1.Event)) watch.Interface
	// StartRecordingToSink writes every event to sink through its own EventCorrelator, retrying with
	// jitter when the sink is unreachable.
	StartRecordingToSink(sink EventSink) watch.Interface
	// StartLogging passes a one-line description of every event to logf.
	StartLogging(logf func(format string, args ...any)) watch.Interface
	// StartStructuredLogging logs every event as a structured message at verbosity, to the logger of
	// the broadcaster's context (WithContext) or klog's default.
	StartStructuredLogging(verbosity klog.Level) watch.Interface
	// NewRecorder returns a recorder whose events come from source; scheme resolves the kinds of objects.
	NewRecorder(scheme *runtime.Scheme, source corev1.EventSource) EventRecorderLogger
	// Shutdown stops the broadcaster: events recorded before it are still delivered, each written at
	// most once more to a sink, for up to the shutdown grace period; the rest are dropped and counted.
	// It returns when every watcher goroutine has finished, so it must not be called from a handler.
	// Recording after Shutdown drops the event.
	Shutdown()
	// Stats reports how many events were dropped and where.
	Stats() BroadcasterStats
}

// BroadcasterStats counts events a broadcaster could not deliver.
type BroadcasterStats struct {
	// QueueDropped counts events refused by the incoming queue: it was full or the broadcaster shut down.
	QueueDropped uint64
	// WatcherDropped counts deliveries skipped because a watcher's channel was full
	// (watch.DropIfChannelFull only).
	WatcherDropped uint64
	// ShutdownDropped counts events still queued for a watcher when the shutdown grace period ended.
	ShutdownDropped uint64
}

// BroadcasterOption configures NewBroadcaster.
type BroadcasterOption func(*broadcasterConfig)

type broadcasterConfig struct {
	correlator         CorrelatorOptions
	ctx                context.Context
	sleepDuration      time.Duration
	queueLength        int
	watcherQueueLength int
	behavior           watch.FullChannelBehavior
	gracePeriod        time.Duration
}

// WithCorrelatorOptions tunes the correlator of every sink started on the broadcaster; its Clock also
// timestamps recorded events.
func WithCorrelatorOptions(options CorrelatorOptions) BroadcasterOption {
	return func(c *broadcasterConfig) { c.correlator = options }
}

// WithContext ties the broadcaster to ctx: cancelling it shuts the broadcaster down, and its logger is
// used for the broadcaster's own messages and StartStructuredLogging.
func WithContext(ctx context.Context) BroadcasterOption {
	return func(c *broadcasterConfig) { c.ctx = ctx }
}

// WithSleepDuration sets the pause between attempts to write an event to an unreachable sink (default
// 10s); the first pause is randomised so that many clients do not retry in lockstep.
func WithSleepDuration(sleepDuration time.Duration) BroadcasterOption {
	return func(c *broadcasterConfig) { c.sleepDuration = sleepDuration }
}

// WithQueueLength bounds the queue between recorders and watchers (default 1000); a recorder facing a
// full queue drops the event rather than wait.
func WithQueueLength(n int) BroadcasterOption {
	return func(c *broadcasterConfig) { c.queueLength = n }
}

// WithWatcherQueueLength sets the channel length of each watcher (default: the queue length).
func WithWatcherQueueLength(n int) BroadcasterOption {
	return func(c *broadcasterConfig) { c.watcherQueueLength = n }
}

// WithFullChannelBehavior chooses what happens when a watcher falls behind: watch.DropIfChannelFull
// (the default) skips it for that event, watch.WaitIfChannelFull holds all watchers until it catches up.
// Recorders never wait either way: the bounded queue absorbs bursts.
func WithFullChannelBehavior(behavior watch.FullChannelBehavior) BroadcasterOption {
	return func(c *broadcasterConfig) { c.behavior = behavior }
}

// WithShutdownGracePeriod bounds how long Shutdown spends delivering queued events (default 10s);
// zero makes Shutdown drop whatever is still queued, finishing only the calls in flight.
func WithShutdownGracePeriod(d time.Duration) BroadcasterOption {
	return func(c *broadcasterConfig) { c.gracePeriod = d }
}

// NewBroadcaster returns a started EventBroadcaster; call Shutdown (or cancel its context) when done.
func NewBroadcaster(opts ...BroadcasterOption) EventBroadcaster {
	c := broadcasterConfig{
		ctx:           context.Background(),
		sleepDuration: defaultSleepDuration,
		queueLength:   defaultQueueLength,
		behavior:      watch.DropIfChannelFull,
		gracePeriod:   defaultShutdownGracePeriod,
	}
	for _, opt := range opts {
		opt(&c)
	}
	if c.queueLength <= 0 {
		c.queueLength = defaultQueueLength
	}
	if c.watcherQueueLength <= 0 {
		c.watcherQueueLength = c.queueLength
	}
	b := &broadcaster{
		dist:            newDistributor(c.queueLength, c.watcherQueueLength, c.behavior),
		correlator:      c.correlator,
		clock:           c.correlator.withDefaults().Clock,
		sleepDuration:   c.sleepDuration,
		gracePeriod:     c.gracePeriod,
		logger:          klog.FromContext(c.ctx),
		shutdownStarted: make(chan struct{}),
		abandoned:       make(chan struct{}),
	}
	if c.ctx.Done() != nil {
		b.contextWatch.Add(1)
		go func() {
			defer b.contextWatch.Done()
			select {
			case <-c.ctx.Done():
				b.shutdown()
			case <-b.shutdownStarted:
			}
		}()
	}
	return b
}

// NewBroadcasterForTests returns a broadcaster that pauses sleepDuration between sink retries.
func NewBroadcasterForTests(sleepDuration time.Duration) EventBroadcaster {
	return NewBroadcaster(WithSleepDuration(sleepDuration))
}

// NewBroadcasterWithCorrelatorOptions returns a broadcaster whose sinks use the given correlator options.
func NewBroadcasterWithCorrelatorOptions(options CorrelatorOptions) EventBroadcaster {
	return NewBroadcaster(WithCorrelatorOptions(options))
}

type broadcaster struct {
	dist          *distributor
	correlator    CorrelatorOptions
	clock         clock.PassiveClock
	sleepDuration time.Duration
	gracePeriod   time.Duration
	logger        klog.Logger

	startMu         sync.Mutex     // makes adding a watcher and counting its goroutine one step
	startsClosed    bool           // set under startMu once Shutdown waits for the watcher goroutines
	handlers        sync.WaitGroup // one per watcher goroutine
	contextWatch    sync.WaitGroup
	shutdownOnce    sync.Once
	shutdownStarted chan struct{} // closed when Shutdown begins: sinks stop sleeping between retries
	abandoned       chan struct{} // closed when the grace period is over: watchers drop what is left

	shutdownDropped atomic.Uint64
}

func (b *broadcaster) NewRecorder(scheme *runtime.Scheme, source corev1.EventSource) EventRecorderLogger {
	return recorder{scheme: scheme, source: source, queue: b.dist, clock: b.clock, logger: b.logger}
}

func (b *broadcaster) StartEventWatcher(eventHandler func(*corev1.Event)) watch.Interface {
	b.startMu.Lock()
	var w *eventWatcher
	err := errShutDown
	if !b.startsClosed {
		w, err = b.dist.watch()
	}
	if err == nil {
		b.handlers.Add(1)
	}
	b.startMu.Unlock()
	if err != nil {
		b.logger.Error(err, "Cannot start event watcher")
		return watch.NewEmptyWatch()
	}
	go func() {
		defer b.handlers.Done()
		for e := range w.result {
			if b.isAbandoned() {
				b.shutdownDropped.Add(1)
				continue
			}
			if event, ok := e.Object.(*corev1.Event); ok {
				eventHandler(event)
			}
		}
	}()
	return w
}

func (b *broadcaster) StartRecordingToSink(sink EventSink) watch.Interface {
	correlator := NewEventCorrelatorWithOptions(b.correlator)
	return b.StartEventWatcher(func(event *corev1.Event) { b.recordToSink(sink, event, correlator) })
}

func (b *broadcaster) StartLogging(logf func(format string, args ...any)) watch.Interface {
	return b.StartEventWatcher(func(e *corev1.Event) {
		logf("Event(%#v): type: '%v' reason: '%v' %v", e.InvolvedObject, e.Type, e.Reason, e.Message)
	})
}

func (b *broadcaster) StartStructuredLogging(verbosity klog.Level) watch.Interface {
	logger := b.logger.V(int(verbosity))
	return b.StartEventWatcher(func(e *corev1.Event) {
		o := e.InvolvedObject
		logger.Info("Event occurred", "object", klog.KRef(o.Namespace, o.Name), "fieldPath", o.FieldPath,
			"kind", o.Kind, "apiVersion", o.APIVersion, "type", e.Type, "reason", e.Reason, "message", e.Message)
	})
}

func (b *broadcaster) Shutdown() {
	b.shutdown()
	b.contextWatch.Wait()
}

// shutdown is Shutdown without waiting for the context watcher, which calls it.
func (b *broadcaster) shutdown() {
	b.shutdownOnce.Do(func() {
		close(b.shutdownStarted)
		b.dist.close()
		grace := time.AfterFunc(b.gracePeriod, func() { close(b.abandoned) })
		<-b.dist.done
		b.startMu.Lock()
		b.startsClosed = true
		b.startMu.Unlock()
		b.handlers.Wait()
		if grace.Stop() {
			close(b.abandoned)
		}
	})
}

func (b *broadcaster) Stats() BroadcasterStats {
	return BroadcasterStats{
		QueueDropped:    b.dist.queueDropped.Load(),
		WatcherDropped:  b.dist.watcherDropped.Load(),
		ShutdownDropped: b.shutdownDropped.Load(),
	}
}

func (b *broadcaster) isShuttingDown() bool {
	select {
	case <-b.shutdownStarted:
		return true
	default:
		return false
	}
}

func (b *broadcaster) isAbandoned() bool {
	select {
	case <-b.abandoned:
		return true
	default:
		return false
	}
}
